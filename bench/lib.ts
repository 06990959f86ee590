import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import autocannon from 'autocannon';
import pgDriver from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export interface BenchServer {
  port: number;
  token: string;
  userId: number;
  child: ChildProcess;
  stop(): Promise<void>;
  /** resident set size of the server process in MB */
  rssMb(): number;
}

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export async function startBenchServer(env: Record<string, string>, script = 'bench/server.ts'): Promise<BenchServer> {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', script],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = await new Promise<{ port: number; token: string; userId: number }>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      const m = /READY (.*)\n/.exec(buf);
      if (m) resolve(JSON.parse(m[1]!));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    ...ready,
    child,
    rssMb: () => rssOf(child.pid!),
    async stop() {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** CPU seconds (user and system) a process has used, from /proc; 0 when it cannot be read. */
export function processCpuSeconds(pid: number): number {
  try {
    // the fields after the command name: state is the first, utime and stime the 12th and 13th
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

/**
 * CPU seconds used so far by the PostgreSQL backends connected to `database` (on this machine), by
 * backend pid: other databases' work on the same server (tests beside a benchmark) is left out.
 */
export function postgresCpu(database: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!title.startsWith('postgres: ') || !title.split(' ').includes(database)) continue;
      out.set(Number(entry), processCpuSeconds(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/**
 * CPU a phase used, per request, on each side: a figure that the other work on a shared machine
 * changes far less than throughput, because it counts what each request cost, not how much of the
 * machine the phase happened to get. Backends opened during the phase count from zero.
 */
export function cpuMeter(database: string, serverPid?: number) {
  const self0 = process.cpuUsage();
  const server0 = serverPid ? processCpuSeconds(serverPid) : 0;
  const pg0 = postgresCpu(database);
  return (requests: number) => {
    const self = process.cpuUsage(self0);
    let pg = 0;
    for (const [pid, s] of postgresCpu(database)) pg += s - (pg0.get(pid) ?? 0);
    const ms = (seconds: number) => Math.round(((seconds * 1000) / Math.max(1, requests)) * 1000) / 1000;
    return {
      this_process: ms((self.user + self.system) / 1e6),
      server: serverPid ? ms(processCpuSeconds(serverPid) - server0) : 0,
      postgres: ms(pg),
    };
  };
}

export async function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ duration: 10, connections: 50, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

export function summary(name: string, r: autocannon.Result) {
  return {
    name,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export interface OpenLoopResult {
  rate_per_s: number;
  sent: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  non2xx: number;
  errors: number;
}

/**
 * Writes out what earlier phases left dirty (CHECKPOINT) before a phase is measured, so that one
 * phase's writes are not flushed to disk during the next one's timing: without it, a latency
 * figure depends on how long the steps between the two happened to take.
 */
export async function settle(databaseUrl: string): Promise<void> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query('checkpoint');
  } finally {
    await c.end();
  }
}

/**
 * Latency at a fixed arrival rate: `send(i)` arrives as a Poisson process of `ratePerS` a second
 * (exponential gaps, so neither bursts of a whole second's requests, as autocannon's overallRate
 * sends them, nor a closed loop that only measures its own queue), the same arrivals in every run.
 * Each latency counts from the moment the request was due, so a side that falls behind is charged
 * for the wait. `send` resolves true for a success.
 */
export async function pacedArrivals(opts: {
  send: (i: number) => Promise<boolean>;
  ratePerS: number;
  seconds: number;
  seed?: number;
}): Promise<OpenLoopResult> {
  let state = opts.seed ?? 12345;
  // a small deterministic generator (mulberry32): the same arrivals in every run
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const latencies: number[] = [];
  let failed = 0;
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let due = start;
  for (let i = 0; due - start < opts.seconds * 1000; i++) {
    due += (-Math.log(1 - random()) / opts.ratePerS) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const dueAt = due;
    inFlight.push(
      opts.send(i).then(
        (ok) => {
          latencies.push(performance.now() - dueAt);
          if (!ok) failed++;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100) / 100;
  return {
    rate_per_s: opts.ratePerS,
    sent: inFlight.length,
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    max_ms: at(1),
    non2xx: failed,
    errors,
  };
}

/** HTTP GETs at a fixed Poisson arrival rate (see pacedArrivals), on kept-alive connections. */
export async function openLoop(opts: {
  url: (i: number) => string;
  headers: (i: number) => Record<string, string>;
  ratePerS: number;
  seconds: number;
  seed?: number;
}): Promise<OpenLoopResult> {
  const { Agent, request } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    return await pacedArrivals({
      ratePerS: opts.ratePerS,
      seconds: opts.seconds,
      seed: opts.seed,
      send: (i) =>
        new Promise<boolean>((resolve, reject) => {
          const url = new URL(opts.url(i));
          const req = request(
            { host: url.hostname, port: url.port, path: url.pathname + url.search, headers: opts.headers(i), agent },
            (res) => {
              res.resume();
              res.on('end', () => resolve((res.statusCode ?? 0) < 300));
            },
          );
          req.on('error', reject);
          req.end();
        }),
    });
  } finally {
    agent.destroy();
  }
}

export interface CapturedStatement {
  text: string;
  values: unknown[];
  /** a named statement's name: replayed under it, so that each connection parses and plans it once, as the service's */
  name?: string;
  /**
   * statements the service sent at once share a step; a statement sent after an answer had come is
   * one step later than the statement answered
   */
  step: number;
}

type Queryable = { query(config: { text: string; name?: string; values: unknown[] }): Promise<unknown> };

/** One captured statement sent through `client` as the service sent it, named or not. */
export function replay(client: Queryable, st: CapturedStatement): Promise<unknown> {
  return client.query({ text: st.text, values: st.values, ...(st.name ? { name: st.name } : {}) });
}

/** A request's statements through `pool` as the service sent them: a step's statements at once, the steps in turn. */
export async function replaySet(pool: Queryable, set: CapturedStatement[]): Promise<void> {
  const last = Math.max(...set.map((st) => st.step));
  for (let step = 0; step <= last; step++)
    await Promise.all(set.filter((st) => st.step === step).map((st) => replay(pool, st)));
}

/**
 * The SQL statements the service sends for one request, captured in this process from the real
 * app on the same database: what "the same work done directly" means for a route.
 */
export async function captureStatements(
  databaseUrl: string,
  secret: string,
  token: string,
  path: string,
): Promise<CapturedStatement[]> {
  const pg = (await import('pg')).default;
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { createDatabase } = await import('../src/db/client.ts');
  const base = loadConfig({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: secret,
    DATA_DIR: '/tmp/ledger-bench-capture',
  } as NodeJS.ProcessEnv);
  const config = Object.freeze({
    ...base,
    rateLimit: { ...base.rateLimit, enabled: false },
    scheduler: false,
    logLevel: 'silent',
  });
  const database = await createDatabase({ databaseUrl, embeddedDbDir: null, poolSize: 4 });
  const app = await buildApp(config, { database });
  const captured: CapturedStatement[] = [];
  let capturing = false;
  // the latest step of which a statement has been answered (-1: none yet)
  let answered = -1;
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const [config, values] = args as [
      string | { text: string; name?: string; values?: unknown[] },
      unknown[] | undefined,
    ];
    if (!capturing) return (original as (...a: unknown[]) => unknown).apply(this, args);
    const st: CapturedStatement =
      typeof config === 'string'
        ? { text: config, values: (Array.isArray(values) ? values : undefined) ?? [], step: answered + 1 }
        : {
            text: config.text,
            values: config.values ?? (Array.isArray(values) ? values : undefined) ?? [],
            step: answered + 1,
            ...(config.name ? { name: config.name } : {}),
          };
    captured.push(st);
    // the answer is noted before the caller sees it, so before the caller can send its next statement
    // (a pool's query passes a callback; a client's own answers a promise)
    const noteAnswer = () => void (answered = Math.max(answered, st.step));
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        noteAnswer();
        return (callback as (...r: unknown[]) => unknown)(...results);
      };
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    }
    const result = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) result.then(noteAnswer, () => undefined);
    return result;
  } as typeof original;
  try {
    const headers = { authorization: `Bearer ${token}` };
    // a first request fills the caches (signing key, the user's state) that later ones skip
    const warm = await app.inject({ url: path, headers });
    if (warm.statusCode !== 200) throw new Error(`${path} answered ${warm.statusCode}: ${warm.body}`);
    capturing = true;
    await app.inject({ url: path, headers });
    capturing = false;
  } finally {
    pg.Client.prototype.query = original;
    await app.close();
    await database.close();
  }
  return captured;
}

/**
 * The least work of an import done directly, in rows per second: the rows `feed` reads go into a
 * temporary table with one COPY (fed by `copy` as they are read, tab-separated lines: row, date,
 * minor units, counterparty, note, external id), then are booked with one INSERT ... SELECT into the
 * person's default account and first expense category, all rolled back. `rows` is what the file holds.
 */
export async function directImportRate(
  url: string,
  userId: number,
  rows: number,
  feed: (copy: (lines: string) => Promise<void>) => Promise<void>,
): Promise<number> {
  const c = new pgDriver.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows: refs } = await c.query(
      `select a.id as account_id, (select id from categories where user_id = $1 and kind = 'expense' order by id limit 1) as category_id
       from accounts a where a.user_id = $1 and a.is_default`,
      [userId],
    );
    const { account_id: accountId, category_id: categoryId } = refs[0];
    const t0 = performance.now();
    await c.query('begin');
    await c.query(
      `create temp table bench_rows (row int primary key, date date, amount_cents bigint, counterparty text, note text, external_id text) on commit drop`,
    );
    const stream = c.query(
      copyFrom('copy bench_rows (row, date, amount_cents, counterparty, note, external_id) from stdin'),
    );
    const copied = finished(stream);
    await feed(async (lines) => {
      if (!stream.write(lines)) await once(stream, 'drain');
    });
    stream.end();
    await copied;
    await c.query(
      `insert into transactions (user_id, kind, amount_cents, category_id, note, date, account_id, currency, base_amount, source, external_id, created_at, updated_at)
       select $1, 'expense', b.amount_cents, $2, b.counterparty || ' ' || b.note, b.date, $3, 'CNY', b.amount_cents, 'bench', b.external_id, now(), now()
       from bench_rows b`,
      [userId, categoryId, accountId],
    );
    await c.query('rollback');
    return rows / ((performance.now() - t0) / 1000);
  } finally {
    await c.end();
  }
}
