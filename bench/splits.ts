// Group balances on PostgreSQL: GET /api/groups/:id/balances of a group of 50 members with 100,000
// expenses (each shared by 2 to 4 members), median latency beside the very statements the service
// sends for it, captured from the app and replayed directly through pg on one connection.
import pg from 'pg';
import { createTokenService } from '../src/modules/identity/index.ts';
import { captureStatements, median, PG_URL, replay, startBenchServer, type CapturedStatement } from './lib.ts';

const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const DB_NAME = process.env.BENCH_SPLITS_DB ?? 'ledger_bench_splits';
const MEMBERS = 50;
const EXPENSES = 100_000;

function urlOf(db: string): string {
  const u = new URL(PG_URL);
  u.pathname = `/${db}`;
  return u.toString();
}

/** A fresh database; the server's start-up migrates it, then one group is seeded in SQL. */
async function seed(url: string): Promise<{ groupId: number; memberId: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('begin');
    const users = await c.query(
      `insert into users (nickname) select 'member' || i from generate_series(1, ${MEMBERS}) i returning id`,
    );
    const ids = users.rows.map((r) => r.id as number);
    const owner = ids[0]!;
    const cat = await c.query(
      `insert into categories (user_id, name, color, kind) values ($1, 'Food', '#F5A623', 'expense') returning id`,
      [owner],
    );
    const g = await c.query(
      `insert into groups (name, owner_id, invite_code, currency) values ('Bench', $1, 'BENCHSPL', 'CNY') returning id`,
      [owner],
    );
    const groupId = g.rows[0].id as number;
    await c.query(
      `insert into group_members (group_id, user_id, role) select $1, u, case when u = $2 then 'owner' else 'member' end from unnest($3::int[]) u`,
      [groupId, owner, ids],
    );
    // expenses recorded by the owner for a payer among the members; amounts 1.00 to 500.00
    await c.query(
      `insert into transactions (user_id, kind, amount_cents, category_id, date, group_id, paid_by, account_id, currency, base_amount)
       select $1, 'expense', a, $2, date '2025-01-01' + (i % 365), $3, ($4::int[])[1 + (i * 7) % ${MEMBERS}], null, 'CNY', a
       from (select i, 100 + (i * 7919) % 49900 as a from generate_series(1, ${EXPENSES}) i) s`,
      [owner, cat.rows[0].id, groupId, ids],
    );
    // each expense shared equally by 2 to 4 members: the first k take the leftover cents
    await c.query(
      `insert into transaction_shares (transaction_id, user_id, group_id, amount_cents, mode, value)
       select t.id, ($2::int[])[1 + (t.id * 13 + j * 17) % ${MEMBERS}], $1,
              t.amount_cents / k + case when j < t.amount_cents % k then 1 else 0 end, 'equal', null
       from (select id, amount_cents, 2 + id % 3 as k from transactions where group_id = $1) t, generate_series(0, 3) j
       where j < t.k`,
      [groupId, ids],
    );
    await c.query('commit');
    await c.query('analyze');
    return { groupId, memberId: ids[1]! };
  } finally {
    await c.end();
  }
}

async function directMs(url: string, statements: CapturedStatement[], runs: number): Promise<number> {
  const c = new pg.Client({ connectionString: url, options: '-c work_mem=32MB' });
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

async function apiMs(port: number, token: string, path: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function run() {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const url = urlOf(DB_NAME);
  const server = await startBenchServer({
    DATABASE_URL: url,
    JWT_SECRET: SECRET,
    PORT: process.env.BENCH_PORT ?? '39193',
  });
  try {
    const { groupId, memberId } = await seed(url);
    const token = await createTokenService(SECRET).signAccess(memberId, 'user');
    const path = `/api/groups/${groupId}/balances`;
    await apiMs(server.port, token, path, 5);
    const api = await apiMs(server.port, token, path, 40);
    const statements = await captureStatements(url, SECRET, token, path);
    const sql = await directMs(url, statements, 40);
    return {
      balances: {
        members: MEMBERS,
        expenses: EXPENSES,
        api_median_ms: Math.round(api * 100) / 100,
        same_sql_median_ms: Math.round(sql * 100) / 100,
        'api / sql': Math.round((api / sql) * 100) / 100,
        statements: statements.length,
      },
    };
  } finally {
    await server.stop();
  }
}
