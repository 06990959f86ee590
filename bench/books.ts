// Bookkeeping core on PostgreSQL, each figure beside its physical limit measured in the same run:
// - create throughput (50 connections) vs raw parameterized INSERTs of the same rows through pg;
// - GET /api/stats/summary median latency (user with 100,000 rows) vs the very statements the
//   service sends, captured from the app and replayed through pg with the same session settings;
// - filtered list over 1,000,000 rows of 100 users: throughput at 50 connections vs its statements
//   (the page's ids, then its items; the totals beside them) replayed through pg as the service sends
//   them (named ones under their names) at the same concurrency in the same run, and
//   latency at a fixed Poisson arrival rate of half that throughput beside the same statements
//   replayed through pg at that very rate and arrivals.
import pg from 'pg';
import { createTokenService } from '../src/modules/identity/index.ts';
import {
  cannon,
  captureStatements,
  cpuMeter,
  median,
  openLoop,
  pacedArrivals,
  replay,
  replaySet,
  settle,
  startBenchServer,
  summary,
  type CapturedStatement,
} from './lib.ts';
import { ensureBenchData } from './seed.ts';

const SECRET = 'bench-secret-bench-secret-bench-secret-0123';

async function rawInsertRate(
  url: string,
  userId: number,
  categoryId: number,
  seconds: number,
  connections: number,
): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  let count = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = await pool.connect();
      try {
        while (Date.now() < until) {
          await c.query(
            `insert into transactions (user_id, kind, amount_cents, category_id, note, date, account_id, currency, base_amount)
             select $1, $2, $3, $4, $5, $6, a.id, a.currency, $3 from accounts a where a.user_id = $1 and a.is_default returning id`,
            [userId, 'expense', 1234, categoryId, 'lunch', '2026-11-20'],
          );
          count++;
        }
      } finally {
        c.release();
      }
    }),
  );
  await pool.end();
  return count / seconds;
}

/** the session settings the service's pool gives its connections (src/db/client.ts) */
const SESSION_OPTIONS = '-c work_mem=32MB';

/** The statements the service sends for a summary, replayed directly on one connection. */
async function directMs(url: string, statements: CapturedStatement[], runs: number): Promise<number> {
  const c = new pg.Client({ connectionString: url, options: SESSION_OPTIONS });
  await c.connect();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    for (const st of statements) await replay(c, st);
    times.push(performance.now() - t0);
  }
  await c.end();
  return median(times);
}

/**
 * Requests' statement sets (a list's page ids, then its items, and its totals) replayed directly by `connections`
 * workers, as the service sends them (`replaySet`); sets per second.
 */
async function directRate(
  url: string,
  sets: CapturedStatement[][],
  connections: number,
  poolSize: number,
  seconds: number,
): Promise<{ rate: number; cpu: ReturnType<ReturnType<typeof cpuMeter>> }> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: SESSION_OPTIONS });
  let done = 0;
  const meter = cpuMeter(new URL(url).pathname.slice(1));
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, w) => {
      for (let i = w; Date.now() < until; i += connections) {
        await replaySet(pool, sets[i % sets.length]!);
        done++;
      }
    }),
  );
  // read while the backends are still there: a closed one takes its CPU time with it
  const cpu = meter(done);
  await pool.end();
  return { rate: done / seconds, cpu };
}

/**
 * The same statement sets replayed through pg at a fixed Poisson arrival rate (the arrivals of the
 * paced API run), each set's statements as the service sends them: the latency the database
 * alone gives at that rate.
 */
async function pacedDirect(url: string, sets: CapturedStatement[][], ratePerS: number, seconds: number) {
  const pool = new pg.Pool({ connectionString: url, max: 60, options: SESSION_OPTIONS });
  const send = async (i: number) => {
    await replaySet(pool, sets[i % sets.length]!);
    return true;
  };
  try {
    // as for the service: 2 s at the same rate open the connections first (not counted)
    await pacedArrivals({ send, ratePerS, seconds: 2 });
    return await pacedArrivals({ send, ratePerS, seconds });
  } finally {
    await pool.end();
  }
}

async function apiSummaryMs(port: number, token: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/stats/summary?period=year&date=2025-06-15&type=expense`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`summary answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function run() {
  const data = await ensureBenchData();
  const tokens = createTokenService(SECRET);
  const server = await startBenchServer({
    DATABASE_URL: data.url,
    JWT_SECRET: SECRET,
    PORT: process.env.BENCH_PORT ?? '39191',
  });
  const base = `http://127.0.0.1:${server.port}`;
  const c = new pg.Client({ connectionString: data.url });
  await c.connect();
  const writer = data.listUsers[0]!;
  const { rows } = await c.query(
    "select id from categories where user_id = $1 and kind = 'expense' order by sort limit 1",
    [writer],
  );
  const categoryId = rows[0].id as number;
  await c.end();
  try {
    // create: API vs raw INSERTs, same rows, same concurrency
    const writerToken = await tokens.signAccess(writer, 'user');
    const body = JSON.stringify({
      kind: 'expense',
      amount: '12.34',
      category_id: categoryId,
      date: '2026-11-20',
      note: 'lunch',
    });
    await cannon({
      url: `${base}/api/transactions`,
      method: 'POST',
      headers: { authorization: `Bearer ${writerToken}`, 'content-type': 'application/json' },
      body,
      duration: 3,
    });
    const create = await cannon({
      url: `${base}/api/transactions`,
      method: 'POST',
      headers: { authorization: `Bearer ${writerToken}`, 'content-type': 'application/json' },
      body,
    });
    const raw = await rawInsertRate(data.url, writer, categoryId, 10, 50);

    // summary: API vs the same aggregates in SQL
    await settle(data.url);
    const statsToken = await tokens.signAccess(data.statsUser, 'user');
    await apiSummaryMs(server.port, statsToken, 5);
    const apiMs = await apiSummaryMs(server.port, statsToken, 60);
    const summaryPath = '/api/stats/summary?period=year&date=2025-06-15&type=expense';
    const summaryStatements = (await captureStatements(data.url, SECRET, statsToken, summaryPath)).filter(
      (st) => !/^(begin|commit)/i.test(st.text),
    );
    const sqlMs = await directMs(data.url, summaryStatements, 60);

    // filtered list over 1,000,000 rows of 100 users, 50 connections, a different user per request
    const listTokens = await Promise.all(data.listUsers.map((id) => tokens.signAccess(id, 'user')));
    // the requests cycle through CAPTURED (person, month) pairs, the very ones whose statements the
    // limit replays: with every pair of 100 people and 12 months on one side and 24 on the other, the
    // limit read pages the cache held while the service's requests read ones it did not
    const CAPTURED = 24;
    const listToken = (n: number) => listTokens[(n % CAPTURED) % listTokens.length]!;
    const listPath = (n: number) => {
      const month = String(((n % CAPTURED) % 12) + 1).padStart(2, '0');
      return `/api/transactions?startDate=2025-${month}-01&endDate=2025-${month}-28&kind=expense&min_amount=0&max_amount=900&sort=date_desc&pageSize=20`;
    };
    let i = 0;
    const listRun = (duration: number) =>
      cannon({
        url: `${base}/api/transactions`,
        duration,
        requests: [
          {
            setupRequest: (req) => {
              const n = i++;
              return {
                ...req,
                path: listPath(n),
                headers: { authorization: `Bearer ${listToken(n)}` },
              };
            },
          },
        ],
      });
    // 3 s of the same requests first, not counted, as for the creates: the route's code compiled by the
    // JIT and the pages read, as the limit (replayed after it) finds them
    await listRun(3);
    await settle(data.url);
    const dbName = new URL(data.url).pathname.slice(1);
    const listMeter = cpuMeter(dbName, server.child.pid);
    const list = await listRun(10);
    const listCpu = listMeter(list.requests.total);
    // the same requests' statements (page ids, then items; totals), replayed directly at the same concurrency
    const listSets: CapturedStatement[][] = [];
    for (let n = 0; n < CAPTURED; n++)
      listSets.push(await captureStatements(data.url, SECRET, listToken(n), listPath(n)));
    // (replayed once the server has stopped, so that both get the same 60 connections of the database's 100)
    // latency at a fixed arrival rate of half the measured throughput, Poisson arrivals
    const rate = Math.max(1, Math.round(list.requests.average / 2));
    const pacedList = (seconds: number) =>
      openLoop({
        url: (n) => `${base}${listPath(n)}`,
        headers: (n) => ({ authorization: `Bearer ${listToken(n)}` }),
        ratePerS: rate,
        seconds,
      });
    await settle(data.url);
    // the pool closed its connections while the statements were captured: 2 s at the same rate
    // open them again (not counted), as they are open in a service that is in use
    await pacedList(2);
    const paced = await pacedList(10);
    await server.stop();
    const { rate: direct, cpu: directCpu } = await directRate(data.url, listSets, 50, 60, 10);
    await settle(data.url);
    const pacedStatements = await pacedDirect(data.url, listSets, rate, 10);
    return {
      create: {
        api: summary('POST /api/transactions', create),
        raw_insert_rows_per_s: Math.round(raw),
        'api / raw': Math.round((create.requests.average / raw) * 100) / 100,
      },
      summary_year_100k_rows: {
        api_median_ms: Math.round(apiMs * 100) / 100,
        same_statements_direct_median_ms: Math.round(sqlMs * 100) / 100,
        statements: summaryStatements.length,
        'api / direct': Math.round((apiMs / sqlMs) * 100) / 100,
      },
      list_1m_rows_100_users: {
        api: summary('GET /api/transactions (filtered)', list),
        direct_page_and_totals_per_s: Math.round(direct),
        'api / direct': Math.round((list.requests.average / direct) * 100) / 100,
        limit_ratio: 0.8,
        paced_half_throughput: paced,
        paced_same_statements_direct: pacedStatements,
        // CPU a request costs each side (ms): the service = its server, the load generator and the
        // database; the limit = the replaying client and the database
        cpu_ms_per_request: {
          api: { server: listCpu.server, load_generator: listCpu.this_process, postgres: listCpu.postgres },
          direct: { client: directCpu.this_process, postgres: directCpu.postgres },
          'direct / api':
            Math.round(
              ((directCpu.this_process + directCpu.postgres) /
                (listCpu.server + listCpu.this_process + listCpu.postgres)) *
                100,
            ) / 100,
        },
        'paced p99 api / direct': Math.round((paced.p99_ms / pacedStatements.p99_ms) * 100) / 100,
        p99_limit_ratio: 2,
      },
    };
  } finally {
    if (server.child.exitCode === null) await server.stop();
    // the rows the create benchmark wrote go away so that runs stay comparable
    const cleanup = new pg.Client({ connectionString: data.url });
    await cleanup.connect();
    await cleanup.query("delete from transactions where user_id = $1 and note = 'lunch'", [writer]);
    await cleanup.end();
  }
}
