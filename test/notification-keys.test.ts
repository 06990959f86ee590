import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { budgetAlertTask } from '../src/modules/budgets/index.ts';
import {
  addMember,
  build,
  createAdmin,
  createUser,
  expectOk,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

interface Notice {
  id: number;
  scope: string;
  key: string | null;
  params: Record<string, unknown> | null;
  title: string;
  content: string;
  link_url: string | null;
  read: boolean;
}

/**
 * Notices the service writes name their message (`key`) and its values (`params`) for each client
 * to render in its reader's language; their links are routes of the web client. Announcements
 * people write have no key.
 */
describe("notifications in the reader's language: keys, params and in-app links", () => {
  let t: TestApp;
  let admin: UserRow;
  let a: UserRow;
  let b: UserRow;
  let group: { id: number; name: string };
  const cat = new Map<number, number>();

  const inbox = async (u: UserRow) =>
    expectOk<{ list: Notice[] }>(
      await t.as(u).get('/api/notifications', { query: { scope: 'personal', pageSize: 100 } }),
    ).list;
  const newest = async (u: UserRow, key: string) => (await inbox(u)).find((n) => n.key === key);
  const inAppRoute = (link: string | null) => {
    assert.ok(link, 'a link');
    assert.match(link, /^\/(?!api\/)[a-z]/, link);
  };

  before(async () => {
    t = await build();
    admin = await createAdmin(t.db);
    a = await createUser(t.db, { nickname: 'xiaoli' });
    b = await createUser(t.db, { nickname: 'Ming' });
    for (const u of [a, b]) cat.set(u.id, (await firstCategory(t.db, u.id)).id);
    group = expectOk(await t.as(a).post('/api/groups', { name: 'Flat', split_costs: true, notify_threshold: 1 }), 201);
    expectOk(await t.as(a).put(`/api/groups/${group.id}`, { notify_threshold: 1 }));
    await addMember(t.db, group.id, b.id);
  });
  after(async () => t.close());

  it('a feedback reply: feedback.replied with the reply, linking to the feedback page', async () => {
    const fb = expectOk<{ id: number }>(await t.as(a).post('/api/feedback', { content: 'The chart is slow' }), 201);
    expectOk(await t.as(admin).post(`/api/admin/feedback/${fb.id}/reply`, { reply: 'Fixed, thanks' }));
    const n = await newest(a, 'feedback.replied');
    assert.ok(n);
    assert.deepEqual(n.params, { reply: 'Fixed, thanks' });
    assert.equal(n.link_url, '/feedback');
    // old clients keep reading title and content
    assert.equal(n.content, 'Fixed, thanks');
    assert.ok(n.title.length > 0);
  });

  it('a new group tells the members a shared expense names, and not the one who recorded it', async () => {
    const made = expectOk<{ id: number; notify_threshold: number | null }>(
      await t.as(b).post('/api/groups', { name: 'Trip', split_costs: true }),
      201,
    );
    assert.equal(made.notify_threshold, 0);
    await addMember(t.db, made.id, a.id);
    expectOk(
      await t.as(b).post('/api/transactions', {
        kind: 'expense',
        amount: '0.50',
        category_id: cat.get(b.id),
        date: '2026-03-11',
        group_id: made.id,
      }),
      201,
    );
    const n = (await inbox(a)).find((x) => x.key === 'split.expense' && x.params?.group_id === made.id);
    assert.deepEqual([n?.params?.amount, n?.params?.share, n?.read], [0.5, 0.25, false]);
    assert.equal((await inbox(b)).filter((x) => x.key === 'split.expense' && x.params?.group_id === made.id).length, 0);
  });

  it('a shared expense: split.expense with the amounts as numbers and the currency, linking to the balances page', async () => {
    expectOk(
      await t.as(a).post('/api/transactions', {
        kind: 'expense',
        amount: '210',
        category_id: cat.get(a.id),
        date: '2026-03-10',
        group_id: group.id,
        note: 'groceries',
      }),
      201,
    );
    const n = await newest(b, 'split.expense');
    assert.ok(n);
    // 210 shared equally by two: 105 each
    assert.deepEqual(n.params, {
      group: 'Flat',
      group_id: group.id,
      who: 'xiaoli',
      amount: 210,
      share: 105,
      currency: 'CNY',
      note: 'groceries',
    });
    assert.equal(n.link_url, `/groups/${group.id}/balances`);
    inAppRoute(n.link_url);
  });

  it('settlements: paid_you to the receiver, confirmed to the payer, received when the receiver records it', async () => {
    const s = expectOk<{ id: number }>(
      await t.as(b).post(`/api/groups/${group.id}/settlements`, { from: b.id, to: a.id, amount: 100 }),
      201,
    );
    const paid = await newest(a, 'settlement.paid_you');
    assert.ok(paid);
    assert.deepEqual(paid.params, {
      group: 'Flat',
      group_id: group.id,
      settlement_id: s.id,
      who: 'Ming',
      amount: 100,
      currency: 'CNY',
    });
    assert.equal(paid.read, false);
    inAppRoute(paid.link_url);
    const unread = async () => expectOk<{ count: number }>(await t.as(a).get('/api/notifications/unread-count')).count;
    const before = await unread();
    expectOk(await t.as(a).post(`/api/settlements/${s.id}/confirm`));
    // the notice that asked for the confirmation is answered: read, and no longer counted
    assert.equal((await inbox(a)).find((n) => n.id === paid.id)?.read, true);
    assert.equal(await unread(), before - 1);
    const confirmed = await newest(b, 'settlement.confirmed');
    assert.deepEqual(confirmed?.params, {
      group: 'Flat',
      group_id: group.id,
      settlement_id: s.id,
      who: 'xiaoli',
      amount: 100,
      currency: 'CNY',
    });
    const second = expectOk<{ id: number }>(
      await t.as(a).post(`/api/groups/${group.id}/settlements`, { from: b.id, to: a.id, amount: '5' }),
      201,
    );
    const received = await newest(b, 'settlement.received');
    assert.deepEqual(received?.params, {
      group: 'Flat',
      group_id: group.id,
      settlement_id: second.id,
      who: 'xiaoli',
      amount: 5,
      currency: 'CNY',
    });
  });

  it('following a link marks the notice read (the client marks it through the read route)', async () => {
    const n = (await newest(b, 'split.expense'))!;
    assert.equal(n.read, false);
    assert.equal((await t.as(b).post(`/api/notifications/${n.id}/read`)).statusCode, 204);
    assert.equal((await inbox(b)).find((x) => x.id === n.id)?.read, true);
  });

  it('an overspent month total: budget.exceeded once a month, linking to the budget page', async () => {
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const day = now.toISOString().slice(0, 10);
    expectOk(await t.as(b).put(`/api/budgets/${month}`, { amount: 50 }));
    expectOk(
      await t.as(b).post('/api/transactions', { kind: 'expense', amount: 40, category_id: cat.get(b.id), date: day }),
      201,
    );
    await budgetAlertTask.run(t.app, now);
    assert.equal(await newest(b, 'budget.exceeded'), undefined, 'within the budget: nothing');
    expectOk(
      await t
        .as(b)
        .post('/api/transactions', { kind: 'expense', amount: '10.01', category_id: cat.get(b.id), date: day }),
      201,
    );
    await budgetAlertTask.run(t.app, now);
    const n = await newest(b, 'budget.exceeded');
    assert.ok(n);
    assert.deepEqual(n.params, { month, amount: 50, spent: 50.01, currency: 'CNY' });
    assert.equal(n.link_url, '/budget');
    expectOk(
      await t.as(b).post('/api/transactions', { kind: 'expense', amount: 5, category_id: cat.get(b.id), date: day }),
      201,
    );
    await budgetAlertTask.run(t.app, now);
    assert.equal((await inbox(b)).filter((x) => x.key === 'budget.exceeded').length, 1, 'once a month');
  });

  it('a finished backup: backup.completed to the administrator who started it', async () => {
    const { id } = expectOk<{ id: number }>(await t.as(admin).post('/api/backup'), 201);
    const until = Date.now() + 60_000;
    let n: Notice | undefined;
    while (!n && Date.now() < until) {
      n = await newest(admin, 'backup.completed');
      if (!n) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(n, 'the notice arrived');
    const list = expectOk<{ list: { id: number; name: string; size: number }[] }>(
      await t.as(admin).get('/api/backup'),
    ).list;
    const done = list.find((x) => x.id === id)!;
    assert.deepEqual(n.params, { name: done.name, size: done.size });
    assert.equal(n.link_url, '/admin/backups');
  });

  it('an announcement an administrator writes has no key and no params', async () => {
    const n = expectOk<Notice>(
      await t.as(admin).post('/api/notifications', {
        scope: 'personal',
        user_id: a.id,
        title: 'Maintenance',
        content: 'Tonight at 22:00',
      }),
      201,
    );
    assert.equal(n.key, null);
    assert.equal(n.params, null);
    const seen = (await inbox(a)).find((x) => x.id === n.id);
    assert.deepEqual([seen?.key, seen?.params, seen?.title], [null, null, 'Maintenance']);
  });
});
