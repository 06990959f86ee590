import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BASE_PORT,
  call,
  createPgDatabase,
  demoSession,
  jsonBody,
  multipart,
  PG_SERVER,
  pgAnswers,
  sleep,
  sqlOn,
  startServer,
  stopServer,
  type Answer,
  type OwnDatabase,
  type ServerProcess,
  type Session,
} from './helpers.ts';

const APP_PORT = BASE_PORT + 10;
const PROXY_PORT = BASE_PORT + 11;
/** a request that takes longer than this counts as hanging */
const HANG_MS = 15_000;

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
class Relay {
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  constructor(
    private readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  /** the database "goes away": open connections reset, new ones refused */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.resetAndDestroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

interface Tally {
  statuses: Map<number, number>;
  bad: string[];
  hung: number;
}

function record(tally: Tally, res: Answer | Error): void {
  if (res instanceof Error) {
    if (/within \d+ ms/.test(res.message)) tally.hung++;
    else tally.bad.push(`connection: ${res.message}`);
    return;
  }
  tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
  if (res.status >= 500) {
    const body = (() => {
      try {
        return res.json();
      } catch {
        return null;
      }
    })();
    if (res.status !== 503 || body?.code !== 50301 || !res.headers['retry-after'])
      tally.bad.push(`${res.status} ${res.body.slice(0, 200)}`);
  }
}

const importCsv = (marker: string, rows: number) =>
  [
    'date,kind,amount,category,note',
    ...Array.from(
      { length: rows },
      (_, i) => `2025-03-${String((i % 28) + 1).padStart(2, '0')},expense,${i + 1},Faults,${marker} ${i}`,
    ),
  ].join('\n');

describe('database faults (PostgreSQL)', () => {
  let db: OwnDatabase | undefined;
  let relay: Relay;
  let server: ServerProcess | undefined;
  let users: Session[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-faults-'));
  let skip: string | false = false;

  before(async () => {
    if (!(await pgAnswers())) {
      skip = 'no PostgreSQL server answers';
      return;
    }
    db = await createPgDatabase('faults');
    const target = new URL(PG_SERVER);
    relay = new Relay(PROXY_PORT, { host: target.hostname, port: Number(target.port || 5432) });
    await relay.open();
    const viaRelay = new URL(db.url);
    viaRelay.host = `127.0.0.1:${PROXY_PORT}`;
    server = await startServer({
      port: APP_PORT,
      dataDir,
      databaseUrl: viaRelay.toString(),
      env: { TRUST_PROXY: '127.0.0.1' },
    });
    // several users (distinct client addresses for demo login) keep the load under each user's rate limit
    users = [];
    for (let i = 0; i < 6; i++) users.push(await demoSession(APP_PORT, `10.50.0.${i + 1}`));
  });
  after(async () => {
    await stopServer(server);
    await relay?.cut();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** paced load: reads, creates, updates (a transaction) and imports (a long transaction) */
  function load(until: () => boolean, tally: Tally): Promise<void>[] {
    const req = (p: Promise<Answer>) =>
      p.then(
        (r) => record(tally, r),
        (e: Error) => record(tally, e),
      );
    const opts = { timeoutMs: HANG_MS };
    return users.map(async (u, n) => {
      let i = 0;
      while (!until()) {
        i++;
        const kind = n === 0 ? 'import' : i % 3;
        if (kind === 'import') {
          await req(
            call(APP_PORT, '/api/import', { ...multipart('f.csv', importCsv(`imp${n}-${i}`, 3000), u.auth), ...opts }),
          );
        } else if (kind === 0) {
          await req(call(APP_PORT, '/api/transactions?pageSize=50', { headers: u.auth, ...opts }));
        } else {
          const res = await call(APP_PORT, '/api/transactions', {
            ...jsonBody(
              { kind: 'expense', amount: 2, category_id: u.categoryId, date: '2026-02-01', note: `load ${i}` },
              u.auth,
            ),
            ...opts,
          }).catch((e: Error) => e);
          record(tally, res);
          if (!(res instanceof Error) && res.status === 201) {
            await req(
              call(APP_PORT, `/api/transactions/${res.json().id}`, {
                method: 'PUT',
                headers: { ...u.auth, 'content-type': 'application/json' },
                body: JSON.stringify({ note: `updated ${i}` }),
                ...opts,
              }),
            );
          }
        }
        await sleep(120);
      }
    });
  }

  const terminateAll = () =>
    sqlOn<{ n: number }>(
      PG_SERVER.replace(/\/[^/]*$/, `/${db!.name}`),
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [db!.name],
    );

  /** ms until a read through the app succeeds again */
  async function recovery(u: Session, limitMs: number): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < limitMs + 2000) {
      const res = await call(APP_PORT, '/api/transactions?pageSize=1', { headers: u.auth, timeoutMs: HANG_MS }).catch(
        () => null,
      );
      if (res?.status === 200) return Date.now() - started;
      await sleep(25);
    }
    return Infinity;
  }

  it('answers 503 (50301) with Retry-After, never 500, when backends are terminated under load, and recovers within a second', async (t) => {
    if (skip) return t.skip(skip);
    const tally: Tally = { statuses: new Map(), bad: [], hung: 0 };
    let stop = false;
    const workers = load(() => stop, tally);
    let terminated = 0;
    const recoveries: { ms: number; ordinary: number }[] = [];
    // the workers stop whatever happens below: a failing round must fail the test, not leave load running forever
    try {
      for (let round = 0; round < 4; round++) {
        // strike while an import's transaction is writing, so that requests are surely in flight
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline) {
          const [row] = await sqlOn<{ n: number }>(
            PG_SERVER,
            `select count(*)::int as n from pg_stat_activity where datname = $1 and state <> 'idle'`,
            [db!.name],
          );
          if (row!.n > 0) break;
          await sleep(10);
        }
        // what an ordinary read takes under this load on this machine (CI runs other suites beside): the pool
        // recovers within a second more than that
        const ordinary = await recovery(users[1]!, 5000);
        const [killed] = await terminateAll();
        terminated += killed!.n;
        recoveries.push({ ms: await recovery(users[1]!, 1000 + ordinary), ordinary });
        await sleep(700);
      }
    } finally {
      stop = true;
      await Promise.all(workers);
    }
    assert.ok(terminated > 0, 'backends were terminated');
    assert.deepEqual(tally.bad, [], 'every failure is 503 with code 50301 and Retry-After');
    assert.equal(tally.hung, 0, 'no request hung');
    assert.ok(
      (tally.statuses.get(503) ?? 0) > 0,
      `some requests in flight were cut: ${JSON.stringify([...tally.statuses])}`,
    );
    assert.ok((tally.statuses.get(201) ?? 0) > 0 && (tally.statuses.get(200) ?? 0) > 0, 'the load did real work');
    for (const { ms, ordinary } of recoveries)
      assert.ok(ms <= 1000 + ordinary, `the pool took ${ms} ms to recover (an ordinary read: ${ordinary} ms)`);
    // the process survived every termination
    assert.equal(server!.child.exitCode, null, server!.output().slice(-2000));
  });

  it('reports the outage in /api/health while PostgreSQL refuses connections, answers 503 meanwhile, and recovers by itself', async (t) => {
    if (skip) return t.skip(skip);
    const u = users[2]!;
    assert.equal((await call(APP_PORT, '/api/health')).status, 200);
    const ordinary = await recovery(u, 5000);
    await relay.cut();
    try {
      const health = await call(APP_PORT, '/api/health', { timeoutMs: HANG_MS });
      assert.equal(health.status, 503);
      assert.equal(health.json().db, 'error');
      assert.ok(Number(health.headers['retry-after']) > 0);
      const started = Date.now();
      const read = await call(APP_PORT, '/api/transactions', { headers: u.auth, timeoutMs: HANG_MS });
      assert.equal(read.status, 503, read.body);
      assert.equal(read.json().code, 50301);
      assert.ok(Number(read.headers['retry-after']) > 0);
      assert.ok(Date.now() - started < 7000, 'refused within the connection timeout');
      const write = await call(
        APP_PORT,
        '/api/transactions',
        jsonBody({ kind: 'expense', amount: 1, category_id: u.categoryId, date: '2026-02-01' }, u.auth),
      );
      assert.equal(write.status, 503, write.body);
    } finally {
      await relay.open();
    }
    const ms = await recovery(u, 1000 + ordinary);
    assert.ok(ms <= 1000 + ordinary, `recovered after ${ms} ms (an ordinary read: ${ordinary} ms)`);
    assert.equal((await call(APP_PORT, '/api/health')).status, 200);
    assert.equal(server!.child.exitCode, null);
  });
});
