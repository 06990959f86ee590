// Bookkeeping core on PostgreSQL, each figure beside its physical limit measured in the same run:
// - create throughput (50 connections) vs raw parameterized INSERTs of the same rows through pg;
// - GET /api/stats/summary median latency (user with 100,000 rows) vs the same aggregates in SQL;
// - filtered list p99 at 50 connections over 1,000,000 rows of 100 users.
import pg from 'pg';
import { createTokenService } from '../src/lib/tokens.ts';
import { cannon, median, startBenchServer, summary } from './lib.ts';
import { ensureBenchData } from './seed.ts';

const SECRET = 'bench-secret-bench-secret-bench-secret-0123';

async function rawInsertRate(url: string, userId: number, categoryId: number, seconds: number, connections: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  let count = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = await pool.connect();
      try {
        while (Date.now() < until) {
          await c.query(
            'insert into transactions (user_id, kind, amount_cents, category_id, note, date) values ($1, $2, $3, $4, $5, $6) returning id',
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

/** The aggregates a year summary needs, run directly: overview, share, trend, max, previous year. */
async function rawSummaryMs(url: string, userId: number, runs: number): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await c.query(
      `select kind, sum(amount_cents) s, count(*) n from transactions where user_id = $1 and date between '2025-01-01' and '2025-12-31' group by kind`,
      [userId],
    );
    await c.query(
      `select category_id, sum(amount_cents) s, count(*) n from transactions where user_id = $1 and kind = 'expense' and date between '2025-01-01' and '2025-12-31' group by category_id order by s desc`,
      [userId],
    );
    await c.query(
      `select to_char(date, 'YYYY-MM') m, sum(amount_cents) s, count(*) n from transactions where user_id = $1 and kind = 'expense' and date between '2025-01-01' and '2025-12-31' group by 1`,
      [userId],
    );
    await c.query(
      `select id from transactions where user_id = $1 and kind = 'expense' and date between '2025-01-01' and '2025-12-31' order by amount_cents desc, id desc limit 1`,
      [userId],
    );
    await c.query(
      `select kind, sum(amount_cents) s from transactions where user_id = $1 and date between '2024-01-01' and '2024-12-31' group by kind`,
      [userId],
    );
    times.push(performance.now() - t0);
  }
  await c.end();
  return median(times);
}

async function apiSummaryMs(port: number, token: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/stats/summary?period=year&date=2025-06-15&type=expense`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`summary answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function run() {
  const data = await ensureBenchData();
  const tokens = createTokenService(SECRET);
  const server = await startBenchServer({ DATABASE_URL: data.url, JWT_SECRET: SECRET, PORT: '39191' });
  const base = `http://127.0.0.1:${server.port}`;
  const c = new pg.Client({ connectionString: data.url });
  await c.connect();
  const writer = data.listUsers[0]!;
  const { rows } = await c.query("select id from categories where user_id = $1 and kind = 'expense' order by sort limit 1", [writer]);
  const categoryId = rows[0].id as number;
  await c.end();
  try {
    // create: API vs raw INSERTs, same rows, same concurrency
    const writerToken = await tokens.signAccess(writer, 'user');
    const body = JSON.stringify({ kind: 'expense', amount: '12.34', category_id: categoryId, date: '2026-11-20', note: 'lunch' });
    await cannon({ url: `${base}/api/transactions`, method: 'POST', headers: { authorization: `Bearer ${writerToken}`, 'content-type': 'application/json' }, body, duration: 3 });
    const create = await cannon({ url: `${base}/api/transactions`, method: 'POST', headers: { authorization: `Bearer ${writerToken}`, 'content-type': 'application/json' }, body });
    const raw = await rawInsertRate(data.url, writer, categoryId, 10, 50);

    // summary: API vs the same aggregates in SQL
    const statsToken = await tokens.signAccess(data.statsUser, 'user');
    await apiSummaryMs(server.port, statsToken, 5);
    const apiMs = await apiSummaryMs(server.port, statsToken, 60);
    const sqlMs = await rawSummaryMs(data.url, data.statsUser, 60);

    // filtered list over 1,000,000 rows of 100 users, 50 connections, a different user per request
    const listTokens = await Promise.all(data.listUsers.map((id) => tokens.signAccess(id, 'user')));
    let i = 0;
    const list = await cannon({
      url: `${base}/api/transactions`,
      requests: [
        {
          setupRequest: (req) => {
            const token = listTokens[i++ % listTokens.length];
            const month = String((i % 12) + 1).padStart(2, '0');
            return {
              ...req,
              path: `/api/transactions?startDate=2025-${month}-01&endDate=2025-${month}-28&kind=expense&min_amount=0&max_amount=900&sort=date_desc&pageSize=20`,
              headers: { authorization: `Bearer ${token}` },
            };
          },
        },
      ],
    });
    return {
      create: {
        api: summary('POST /api/transactions', create),
        raw_insert_rows_per_s: Math.round(raw),
        'api / raw': Math.round((create.requests.average / raw) * 100) / 100,
      },
      summary_year_100k_rows: { api_median_ms: Math.round(apiMs * 100) / 100, sql_median_ms: Math.round(sqlMs * 100) / 100, 'api / sql': Math.round((apiMs / sqlMs) * 100) / 100 },
      list_1m_rows_100_users: summary('GET /api/transactions (filtered)', list),
    };
  } finally {
    await server.stop();
    // the rows the create benchmark wrote go away so that runs stay comparable
    const cleanup = new pg.Client({ connectionString: data.url });
    await cleanup.connect();
    await cleanup.query("delete from transactions where user_id = $1 and note = 'lunch'", [writer]);
    await cleanup.end();
  }
}
