import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { webhookDeliveries, webhookEndpoints } from '../src/db/schema/index.ts';
import type { Clock } from '../src/lib/clock.ts';
import { budgetAlertTask } from '../src/modules/budgets/index.ts';
import { write } from '../src/modules/books/index.ts';
import { createDeliverer, recordEvent, type Deliverer } from '../src/modules/webhooks/index.ts';
import { refusalOf } from '../src/modules/webhooks/webhooks.address.ts';
import {
  addMember,
  aliceAndBob,
  assertError,
  build,
  type Client,
  createGroup,
  expectOk,
  firstCategory,
  multipart,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1: /ok answers 204, /flaky 500 then 204, /redirect 302, /slow never in time. */
async function startReceiver() {
  const received: Received[] = [];
  const flaky = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body });
      if (path === '/redirect') return res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
      if (path === '/slow') return setTimeout(() => res.writeHead(204).end(), 3000).unref();
      if (path === '/flaky') {
        const id = String(req.headers['webhook-id']);
        const seen = (flaky.get(id) ?? 0) + 1;
        flaky.set(id, seen);
        if (seen === 1) return res.writeHead(500).end('not yet');
      }
      if (path === '/down') return res.writeHead(503).end();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('webhooks', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let a: Client;
  let b: Client;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let deliverer: Deliverer;
  /** how far the worker's clock is ahead of the database's */
  let at = 0;
  const clock: Clock = { now: () => new Date(Date.now() + at) };
  const config = { allowLoopback: true, timeoutMs: 1000, pollMs: 1000 };

  before(async () => {
    t = await build({ webhooks: config });
    ({ alice, bob, asAlice: a, asBob: b } = await aliceAndBob(t));
    receiver = await startReceiver();
    deliverer = createDeliverer({ db: t.db, clock, config });
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(async () => {
    at = 0;
    receiver.received.length = 0;
    await t.db.delete(webhookEndpoints);
  });

  const addEndpoint = async (as: Client, path: string, events: string[]) =>
    expectOk<{ id: number; secret: string }>(
      await as.post('/api/webhooks', { url: `${receiver.base}${path}`, description: 'test', events }),
      201,
    );
  /** What arrived, each checked with the endpoint's secret by the Standard Webhooks library. */
  const verified = (secret: string) =>
    receiver.received.map((r) => {
      const body = new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      };
      return { ...body, id: String(r.headers['webhook-id']) };
    });
  const deliveriesOf = (endpointId: number) =>
    t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

  it('adds an endpoint with a whsec_ secret shown once, lists it without the secret, changes and removes it', async () => {
    const created = await addEndpoint(a, '/ok', ['transaction.created']);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(created.secret.slice(6), 'base64').length >= 24);
    const list = expectOk(await a.get('/api/webhooks')).list;
    assert.equal(list.length, 1);
    assert.equal(list[0].secret, undefined);
    const changed = expectOk(
      await a.put(`/api/webhooks/${created.id}`, { events: ['budget.exceeded'], enabled: false, description: 'x' }),
    );
    assert.deepEqual([changed.events, changed.enabled, changed.description], [['budget.exceeded'], false, 'x']);
    const rotated = expectOk(await a.post(`/api/webhooks/${created.id}/secret`));
    assert.notEqual(rotated.secret, created.secret);
    assert.equal((await a.delete(`/api/webhooks/${created.id}`)).statusCode, 204);
    assertError(await a.get(`/api/webhooks/${created.id}`), 404, 40401);
  });

  it('refuses http, private, link-local and metadata addresses and unknown events (40001)', async () => {
    for (const url of [
      `${receiver.base}/ok`,
      'https://127.0.0.1/x',
      'https://10.0.0.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[fe80::1]/x',
      'https://192.168.1.1/x',
      'https://localhost/x',
      'https://user:pw@example.com/x',
      'not a url',
    ])
      assert.ok(refusalOf(url, false), url);
    assert.equal(refusalOf('https://example.com/x', false), null);
    assert.equal(refusalOf(`${receiver.base}/ok`, true), null);
    for (const url of ['https://10.0.0.1/x', 'http://169.254.169.254/latest', 'ftp://127.0.0.1/x'])
      assertError(await a.post('/api/webhooks', { url, events: ['transaction.created'] }), 400, 40001, url);
    assertError(await a.post('/api/webhooks', { url: 'https://example.com', events: ['nope'] }), 400, 40001);
    assertError(await a.post('/api/webhooks', { url: 'https://example.com', events: [] }), 400, 40001);
  });

  it('a record created, corrected and deleted: three signed deliveries, in the transaction of each change', async () => {
    const ep = await addEndpoint(a, '/ok', ['transaction.created', 'transaction.updated', 'transaction.deleted']);
    const cat = await firstCategory(t.db, alice.id);
    const day = new Date().toISOString().slice(0, 10);
    const tx = expectOk(
      await a.post('/api/transactions', { kind: 'expense', amount: '12.50', category_id: cat.id, date: day }),
      201,
    );
    expectOk(await a.put(`/api/transactions/${tx.id}`, { note: 'lunch' }));
    assert.equal((await a.delete(`/api/transactions/${tx.id}`)).statusCode, 204);
    assert.deepEqual(await deliverer.deliverDue(), ['delivered', 'delivered', 'delivered']);
    const got = verified(ep.secret).sort((x, y) => x.type.localeCompare(y.type));
    assert.deepEqual(
      got.map((g) => g.type),
      ['transaction.created', 'transaction.deleted', 'transaction.updated'],
    );
    assert.equal(got[0]!.data.id, tx.id);
    assert.equal(got[0]!.data.amount_minor, 1250);
    assert.equal(got[0]!.data.currency, 'CNY');
    assert.equal(got[2]!.data.note, 'lunch');
    assert.deepEqual(got[1]!.data, { id: tx.id });
    assert.match(got[0]!.timestamp, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(new Set(got.map((g) => g.id)).size, 3);
    // a person without an endpoint, and an event nobody follows, put nothing in the outbox
    expectOk(
      await b.post('/api/transactions', {
        kind: 'expense',
        amount: 1,
        category_id: (await firstCategory(t.db, bob.id)).id,
        date: day,
      }),
      201,
    );
    assert.equal((await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, bob.id))).length, 0);
  });

  it('records created at the same moment by a person with an endpoint and one without: each of the first delivers, none of the second', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const [catA, catB] = [await firstCategory(t.db, alice.id), await firstCategory(t.db, bob.id)];
    const createAll = () =>
      Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          (i % 2 ? b : a).post('/api/transactions', {
            kind: 'expense',
            amount: String(i + 1),
            category_id: (i % 2 ? catB : catA).id,
            date: day,
          }),
        ),
      );
    // no endpoint yet: nothing in the outbox
    for (const res of await createAll()) expectOk(res, 201);
    assert.equal((await t.db.select().from(webhookDeliveries)).length, 0);
    // an endpoint saved just before is followed by the very next records
    const ep = await addEndpoint(a, '/ok', ['transaction.created']);
    const made = (await createAll()).map((res) => expectOk<{ id: number; user_id?: number }>(res, 201));
    const rows = await deliveriesOf(ep.id);
    assert.equal(rows.length, 12);
    assert.deepEqual(
      rows.map((r) => r.userId),
      Array(12).fill(alice.id),
    );
    assert.equal(made.length, 24);
    assert.equal((await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, bob.id))).length, 0);
  });

  it('a change that fails writes no delivery: the outbox row rolls back with it', async () => {
    const ep = await addEndpoint(a, '/ok', ['transaction.deleted', 'import.committed']);
    const cat = await firstCategory(t.db, alice.id);
    const tx = expectOk(
      await a.post('/api/transactions', { kind: 'expense', amount: 1, category_id: cat.id, date: '2026-01-01' }),
      201,
    );
    await assert.rejects(
      t.db.transaction(async (w) => {
        assert.equal(await write(w, alice.id, { type: 'delete', id: tx.id }), true);
        await recordEvent(w, alice.id, 'import.committed', { imported: 1 });
        assert.equal(
          (await w.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, ep.id))).length,
          2,
        );
        throw new Error('the change fails after its events were recorded');
      }),
      /the change fails/,
    );
    assert.equal((await deliveriesOf(ep.id)).length, 0);
    expectOk(await a.get(`/api/transactions/${tx.id}`));
  });

  it('an import committed, a budget exceeded, a group expense shared and a settlement each deliver', async () => {
    const epA = await addEndpoint(a, '/ok', ['import.committed', 'budget.exceeded', 'group.expense.shared']);
    const epB = await addEndpoint(b, '/ok', ['group.expense.shared', 'settlement.recorded']);
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const day = now.toISOString().slice(0, 10);
    const file = `date,kind,amount,category,note,tags,group_id,created_at\n${day},expense,30,Food,imported,,,\n`;
    expectOk(await a.post('/api/import', multipart(file)));
    expectOk(await a.put(`/api/budgets/${month}`, { amount: 10 }));
    await budgetAlertTask.run(t.app, now);
    const g = await createGroup(t.db, alice.id, { splitCosts: true });
    await addMember(t.db, g.id, bob.id);
    const cat = await firstCategory(t.db, alice.id);
    const shared = expectOk(
      await a.post('/api/transactions', {
        kind: 'expense',
        amount: 40,
        category_id: cat.id,
        date: day,
        group_id: g.id,
      }),
      201,
    );
    expectOk(await b.post(`/api/groups/${g.id}/settlements`, { from: bob.id, to: alice.id, amount: 20 }), 201);
    await deliverer.deliverDue();
    const forA = receiver.received.filter((r) => verifies(epA.secret, r));
    const forB = receiver.received.filter((r) => verifies(epB.secret, r));
    const types = (rs: Received[]) => rs.map((r) => JSON.parse(r.body).type).sort();
    assert.deepEqual(types(forA), ['budget.exceeded', 'group.expense.shared', 'import.committed']);
    assert.deepEqual(types(forB), ['group.expense.shared', 'settlement.recorded']);
    const body = (rs: Received[], type: string) => JSON.parse(rs.find((r) => JSON.parse(r.body).type === type)!.body);
    assert.equal(body(forA, 'import.committed').data.imported, 1);
    assert.equal(body(forA, 'budget.exceeded').data.month, month);
    assert.equal(body(forB, 'group.expense.shared').data.id, shared.id);
    assert.equal(body(forB, 'settlement.recorded').data.amount, 20);
  });

  it('retries after a 500 with the same webhook-id, with backoff, then delivers', async () => {
    const ep = await addEndpoint(a, '/flaky', ['transaction.created']);
    const cat = await firstCategory(t.db, alice.id);
    expectOk(
      await a.post('/api/transactions', { kind: 'expense', amount: 3, category_id: cat.id, date: '2026-02-01' }),
      201,
    );
    assert.deepEqual(await deliverer.deliverDue(), ['retry']);
    assert.deepEqual(await deliverer.deliverDue(), [], 'not due again at once');
    at += 11_000;
    assert.deepEqual(await deliverer.deliverDue(), ['delivered'], JSON.stringify(await deliveriesOf(ep.id)));
    const [first, second] = receiver.received;
    assert.equal(first!.headers['webhook-id'], second!.headers['webhook-id']);
    assert.equal(verified(ep.secret).length, 2);
    const log = expectOk(await a.get(`/api/webhooks/${ep.id}/deliveries`)).list;
    assert.equal(log.length, 1);
    assert.equal(log[0].status, 'delivered');
    assert.deepEqual(
      log[0].attempt_log.map((x: { status_code: number }) => x.status_code),
      [500, 204],
    );
    assert.equal(log[0].attempt_log[0].error, 'answered 500');
  });

  it('gives up 24 hours after the event: the delivery is failed and no longer tried', async () => {
    const ep = await addEndpoint(a, '/down', ['transaction.created']);
    const cat = await firstCategory(t.db, alice.id);
    expectOk(
      await a.post('/api/transactions', { kind: 'expense', amount: 3, category_id: cat.id, date: '2026-02-01' }),
      201,
    );
    const outcomes: string[] = [];
    for (let i = 0; i < 40 && !outcomes.includes('failed'); i++) {
      outcomes.push(...(await deliverer.deliverDue()));
      at += 60 * 60 * 1000;
    }
    assert.equal(outcomes.at(-1), 'failed');
    assert.ok(outcomes.length > 5, `retried ${outcomes.length} times`);
    const [d] = await deliveriesOf(ep.id);
    assert.equal(d!.status, 'failed');
    at += 48 * 60 * 60 * 1000;
    assert.deepEqual(await deliverer.deliverDue(), []);
  });

  it('refuses private and metadata addresses at delivery, does not follow redirects, and times out a slow receiver', async () => {
    const cat = await firstCategory(t.db, alice.id);
    const redirect = await addEndpoint(a, '/redirect', ['transaction.created']);
    const slow = await addEndpoint(a, '/slow', ['transaction.created']);
    const inside = await addEndpoint(a, '/ok', ['transaction.created']);
    const metadata = await addEndpoint(a, '/ok', ['transaction.created']);
    // as if a name had been turned to point inside after the check at creation
    await t.db.update(webhookEndpoints).set({ url: 'http://10.0.0.1/x' }).where(eq(webhookEndpoints.id, inside.id));
    await t.db
      .update(webhookEndpoints)
      .set({ url: 'http://169.254.169.254/latest/meta-data' })
      .where(eq(webhookEndpoints.id, metadata.id));
    expectOk(
      await a.post('/api/transactions', { kind: 'expense', amount: 3, category_id: cat.id, date: '2026-02-01' }),
      201,
    );
    const started = Date.now();
    assert.deepEqual(await deliverer.deliverDue(), ['retry', 'retry', 'retry', 'retry']);
    assert.ok(Date.now() - started < 2900, 'the slow receiver was not waited for');
    const error = async (id: number) => (await deliveriesOf(id))[0]!.lastError ?? '';
    assert.match(await error(redirect.id), /redirect .* not followed/);
    assert.equal((await deliveriesOf(redirect.id))[0]!.lastStatusCode, 302);
    assert.match(await error(slow.id), /no answer within 1000 ms/);
    assert.match(await error(inside.id), /10\.0\.0\.1.*not allowed|not allowed.*10\.0\.0\.1/i);
    assert.match(await error(metadata.id), /169\.254\.169\.254/);
    assert.equal(receiver.received.filter((r) => r.path === '/elsewhere').length, 0);
  });

  it('sends a test event now and shows it in the delivery log', async () => {
    const ep = await addEndpoint(a, '/ok', ['transaction.created']);
    const d = expectOk(await a.post(`/api/webhooks/${ep.id}/test`));
    assert.equal(d.type, 'webhook.test');
    assert.equal(d.status, 'delivered');
    assert.equal(d.attempt_log[0].status_code, 204);
    assert.equal(verified(ep.secret)[0]!.type, 'webhook.test');
    const log = expectOk(await a.get(`/api/webhooks/${ep.id}/deliveries`)).list;
    assert.equal(log[0].id, d.id);
    expectOk(await a.put(`/api/webhooks/${ep.id}`, { enabled: false }));
    assertError(await a.post(`/api/webhooks/${ep.id}/test`), 409, 40901);
  });

  it('another person cannot see or touch an endpoint (40401), nor its log', async () => {
    const ep = await addEndpoint(a, '/ok', ['transaction.created']);
    assert.deepEqual(expectOk(await b.get('/api/webhooks')).list, []);
    assertError(await b.get(`/api/webhooks/${ep.id}`), 404, 40401);
    assertError(await b.put(`/api/webhooks/${ep.id}`, { enabled: false }), 404, 40401);
    assertError(await b.post(`/api/webhooks/${ep.id}/secret`), 404, 40401);
    assertError(await b.post(`/api/webhooks/${ep.id}/test`), 404, 40401);
    assertError(await b.get(`/api/webhooks/${ep.id}/deliveries`), 404, 40401);
    assertError(await b.delete(`/api/webhooks/${ep.id}`), 404, 40401);
    assert.equal(expectOk(await a.get(`/api/webhooks/${ep.id}`)).enabled, true);
    assertError(await t.anon.get('/api/webhooks'), 401, 40101);
  });

  it('two workers never send the same delivery twice at once', async () => {
    await addEndpoint(a, '/ok', ['transaction.created']);
    const cat = await firstCategory(t.db, alice.id);
    for (let i = 0; i < 5; i++)
      expectOk(
        await a.post('/api/transactions', { kind: 'expense', amount: 1 + i, category_id: cat.id, date: '2026-02-01' }),
        201,
      );
    const other = createDeliverer({ db: t.db, clock, config });
    const [one, two] = await Promise.all([deliverer.deliverDue(), other.deliverDue()]);
    assert.equal(one.length + two.length, 5);
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 5);
    assert.equal(receiver.received.length, 5);
    const delivered = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, 'delivered'));
    assert.equal(delivered.length, 5);
  });
});

function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}
