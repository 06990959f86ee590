import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { redisAnswers } from '../helpers/redis.ts';
import {
  BASE_PORT,
  call,
  createPgDatabase,
  demoSession,
  jsonBody,
  pgAnswers,
  REDIS,
  startServer,
  stopServer,
  type OwnDatabase,
  type ServerProcess,
  type Session,
} from './helpers.ts';

const PORTS = [BASE_PORT + 40, BASE_PORT + 41] as const;

/**
 * Two server processes on one PostgreSQL database and one Redis, with requests spread over both:
 * the exactly-once promises hold across processes, not only within one.
 */
describe('two server processes on one PostgreSQL and Redis', () => {
  const dirs = PORTS.map(() => mkdtempSync(path.join(tmpdir(), 'ledger-multi-')));
  let db: OwnDatabase | undefined;
  let servers: ServerProcess[] = [];
  let skip: string | false = false;
  let ip = 0;
  const env = { REDIS_URL: REDIS, TRUST_PROXY: '127.0.0.1' };
  // a fresh client address per demo login keeps clear of the per-address demo login limit (whose
  // counters Redis keeps between runs)
  const net = 1 + randomBytes(1)[0]!;
  const address = () => `10.${net}.${Math.floor(++ip / 250)}.${1 + (ip % 250)}`;
  const session = (port: number) => demoSession(port, address());

  const startBoth = async () => {
    servers = await Promise.all(
      PORTS.map((port, i) => startServer({ port, dataDir: dirs[i]!, databaseUrl: db!.url, env })),
    );
  };

  before(async () => {
    if (!(await pgAnswers())) skip = 'no PostgreSQL server answers';
    else if (!(await redisAnswers())) skip = 'no Redis answers';
    if (skip) return;
    db = await createPgDatabase('multi');
    // the first start migrates; then both start together
    await stopServer(await startServer({ port: PORTS[0], dataDir: dirs[0]!, databaseUrl: db.url, env }));
    await startBoth();
  });
  after(async () => {
    await Promise.all(servers.map(stopServer));
    await db?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const port = (i: number) => PORTS[i % 2]!;

  it('rotates a refresh token exactly once when 20 refreshes race over both processes', async (t) => {
    if (skip) return t.skip(skip);
    const login = await call(PORTS[0], '/api/auth/demo-login', {
      method: 'POST',
      headers: { 'x-forwarded-for': address() },
    });
    const { refresh_token: token } = login.json();
    // from an address of its own: the per-address limit of sign-in routes counts in Redis, which other runs share
    const from = { 'x-forwarded-for': address() };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(port(i), '/api/auth/refresh', jsonBody({ refresh_token: token }, from)),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    assert.equal(ok.length, 1, results.map((r) => r.status).join(','));
    for (const r of results.filter((x) => x.status !== 200)) assert.equal(r.json().code, 40102);
    // the winner's token works on the other process
    assert.equal(
      (await call(PORTS[1], '/api/auth/refresh', jsonBody({ refresh_token: ok[0]!.json().refresh_token }, from)))
        .status,
      200,
    );
  });

  it('runs a create once for 10 requests with one Idempotency-Key spread over both processes', async (t) => {
    if (skip) return t.skip(skip);
    const s: Session = await session(PORTS[0]);
    const note = `idem ${randomBytes(4).toString('hex')}`;
    const body = { kind: 'expense', amount: '3.30', category_id: s.categoryId, date: '2026-03-03', note };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(port(i), '/api/transactions', jsonBody(body, { ...s.auth, 'idempotency-key': 'race-key' })),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    assert.ok(created.length >= 1, results.map((r) => `${r.status} ${r.body.slice(0, 80)}`).join('\n'));
    for (const r of results.filter((x) => x.status !== 201)) assert.equal(r.json().code, 40903);
    assert.equal(new Set(created.map((r) => r.json().id)).size, 1, 'every 201 is the same transaction');
    // once done, each process replays it
    for (const p of PORTS) {
      const again = await call(p, '/api/transactions', jsonBody(body, { ...s.auth, 'idempotency-key': 'race-key' }));
      assert.equal(again.status, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
    }
    const list = await call(PORTS[1], `/api/transactions?keyword=${encodeURIComponent(note)}`, { headers: s.auth });
    assert.equal(list.json().total, 1);
  });

  it('adds a member once when the same user joins a group through both processes at once, and counts 12 joiners exactly', async (t) => {
    if (skip) return t.skip(skip);
    const owner = await session(PORTS[0]);
    const group = (await call(PORTS[0], '/api/groups', jsonBody({ name: 'race' }, owner.auth))).json();
    const joiner = await session(PORTS[1]);
    const same = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(port(i), '/api/groups/join', jsonBody({ invite_code: group.invite_code }, joiner.auth)),
      ),
    );
    for (const r of same) assert.ok(r.status === 200 || r.status === 409, `${r.status} ${r.body}`);
    const others = await Promise.all(Array.from({ length: 12 }, () => session(PORTS[0])));
    const joins = await Promise.all(
      others.map((o, i) => call(port(i), '/api/groups/join', jsonBody({ invite_code: group.invite_code }, o.auth))),
    );
    for (const r of joins) assert.ok(r.status === 200 || r.status === 422, `${r.status} ${r.body}`);
    const members = (await call(PORTS[1], `/api/groups/${group.id}/members`, { headers: owner.auth })).json();
    const list: { user_id?: number; id?: number }[] = Array.isArray(members) ? members : members.list;
    const ids = list.map((m) => m.user_id ?? m.id);
    assert.equal(new Set(ids).size, ids.length, 'nobody is a member twice');
    assert.equal(ids.filter((id) => id === joiner.userId).length, 1);
    assert.equal(ids.length, 2 + joins.filter((r) => r.status === 200).length);
  });

  it('generates each recurring occurrence once when both schedulers run at the same moment', async (t) => {
    if (skip) return t.skip(skip);
    const s = await session(PORTS[0]);
    const start = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
    const note = `recur ${randomBytes(4).toString('hex')}`;
    const rule = await call(
      PORTS[0],
      '/api/recurring',
      jsonBody(
        { kind: 'expense', amount: 4, category_id: s.categoryId, note, frequency: 'daily', start_date: start },
        s.auth,
      ),
    );
    assert.equal(rule.status, 201, rule.body);
    // both processes start together: each scheduler runs at once, on the same rules
    await Promise.all(servers.map(stopServer));
    await startBoth();
    let total = 0;
    for (let i = 0; i < 50; i++) {
      total = (
        await call(PORTS[1], `/api/transactions?keyword=${encodeURIComponent(note)}&pageSize=1`, { headers: s.auth })
      ).json().total;
      if (total >= 21) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // from the start date to today: 21 days, each exactly once
    assert.equal(total, 21);
    const page = (
      await call(PORTS[0], `/api/transactions?keyword=${encodeURIComponent(note)}&pageSize=100`, { headers: s.auth })
    ).json();
    const dates = page.list.map((x: { date: string }) => x.date);
    assert.equal(new Set(dates).size, dates.length, 'no date twice');
  });
});
