// Balances on PostgreSQL: GET /api/accounts of a user with 20 accounts (in three currencies) and
// 100,000 rows (expenses, incomes and transfers between the accounts), median latency of sequential
// requests, beside the very statements the service sends for it, captured from the app and
// replayed directly through pg on one connection with the same session settings.
import pg from 'pg';
import { createDatabase, runMigrations } from '../src/db/client.ts';
import { createTokenService } from '../src/modules/identity/index.ts';
import { setUpNewUser } from '../src/modules/identity/index.ts';
import { captureStatements, median, PG_URL, replay, startBenchServer, type CapturedStatement } from './lib.ts';

const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
// a database of its own, so that the shared benchmark database is not reseeded
const DB_NAME = process.env.BENCH_ACCOUNTS_DB_NAME || 'ledger_bench_accounts';
const SEED_VERSION = 'accounts-v1';
const ACCOUNTS = 20;
const ROWS = 100_000;
const PATH = '/api/accounts?include_archived=true';

function dbUrl(): string {
  const url = new URL(PG_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

async function ensureData(): Promise<{ url: string; userId: number }> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  if (!(await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])).rowCount)
    await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const url = dbUrl();
  const database = await createDatabase({ databaseUrl: url, embeddedDbDir: null, poolSize: 4 });
  await runMigrations(database);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const seeded = await c.query("select value from system_config where key = 'bench_accounts_seed'");
    if (seeded.rows[0]?.value !== SEED_VERSION) {
      console.error(`seeding ${DB_NAME} (${ACCOUNTS} accounts, ${ROWS} rows)...`);
      await c.query('truncate users, transactions, categories, accounts, exchange_rates restart identity cascade');
      const { rows: u } = await c.query(
        "insert into users (provider, provider_subject, nickname) values ('bench', 'accounts', 'accounts') returning " +
          'id, created_at',
      );
      const userId = u[0].id as number;
      await setUpNewUser(
        database.db,
        { id: userId, baseCurrency: 'CNY', createdAt: u[0].created_at },
        'en',
        '2024-01-01',
      );
      // 19 more: every fifth in USD, every seventh in JPY
      await c.query(
        `insert into accounts (user_id, name, type, currency, opening_balance, opening_date, sort)
         select $1, 'account ' || g, 'debit_card', case when g % 5 = 0 then 'USD' when g % 7 = 0 then 'JPY' else 'CNY' end, g * 1000, '2024-01-01', g
         from generate_series(1, ${ACCOUNTS - 1}) g`,
        [userId],
      );
      await c.query(
        `insert into exchange_rates (user_id, currency, date, rate) values ($1, 'USD', '2024-01-01', '7.1234'), ($1, 'JPY', '2024-01-01', '0.0481'),
                ($1, 'USD', '2025-06-01', '7.2'), ($1, 'JPY', '2025-06-01', '0.049')`,
        [userId],
      );
      const { rows: cats } = await c.query(
        "select min(id) filter (where kind = 'expense') as e, min(id) filter (where kind = 'income') as i from " +
          'categories where user_id = $1',
        [userId],
      );
      // rows spread over the accounts; every tenth a transfer to the next account
      await c.query(
        `with acc as (select id, currency, row_number() over (order by id) - 1 as n from accounts where user_id = $1),
         g as (select g, (hashint4(g) & 1048575) % 99900 + 100 as amount from generate_series(1, ${ROWS}) g)
         insert into transactions (user_id, kind, amount_cents, category_id, note, date, account_id, currency, base_amount, rate, to_account_id, to_amount, to_currency)
         select $1,
                case when g.g % 10 = 0 then 'transfer' when g.g % 7 = 0 then 'income' else 'expense' end,
                g.amount,
                case when g.g % 10 = 0 then null when g.g % 7 = 0 then $3::int else $2::int end,
                'note ' || (g.g % 997),
                date '2024-01-01' + (hashint4(g.g + 7) & 65535) % 690,
                a.id, a.currency, g.amount, null,
                case when g.g % 10 = 0 then b.id end,
                case when g.g % 10 = 0 then g.amount end,
                case when g.g % 10 = 0 then b.currency end
         from g join acc a on a.n = g.g % ${ACCOUNTS} join acc b on b.n = (g.g + 1) % ${ACCOUNTS}`,
        [userId, cats[0].e, cats[0].i],
      );
      await c.query('vacuum analyze');
      await c.query(
        "insert into system_config (key, value) values ('bench_accounts_seed', $1) on conflict (key) do update set " +
          'value = excluded.value',
        [SEED_VERSION],
      );
    }
    const { rows } = await c.query("select id from users where provider = 'bench' and provider_subject = 'accounts'");
    return { url, userId: rows[0].id as number };
  } finally {
    await c.end();
    await database.close();
  }
}

/** the session settings the service's pool gives its connections (src/db/client.ts) */
const SESSION_OPTIONS = '-c work_mem=32MB';

/**
 * One request through the API, then its statements directly, `runs` times in turn: both medians are
 * taken under the same load of the machine.
 */
async function interleaved(port: number, token: string, url: string, statements: CapturedStatement[], runs: number) {
  const c = new pg.Client({ connectionString: url, options: SESSION_OPTIONS });
  await c.connect();
  const api: number[] = [];
  const direct: number[] = [];
  let accounts = 0;
  try {
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}${PATH}`, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`${PATH} answered ${res.status}: ${await res.text()}`);
      accounts = ((await res.json()) as { list: unknown[] }).list.length;
      api.push(performance.now() - t0);
      t0 = performance.now();
      for (const st of statements) await replay(c, st);
      direct.push(performance.now() - t0);
    }
  } finally {
    await c.end();
  }
  return { apiMs: median(api), sqlMs: median(direct), accounts };
}

export async function run() {
  const { url, userId } = await ensureData();
  const token = await createTokenService(SECRET).signAccess(userId, 'user');
  const server = await startBenchServer({
    DATABASE_URL: url,
    JWT_SECRET: SECRET,
    PORT: process.env.BENCH_ACCOUNTS_PORT ?? '3153',
  });
  try {
    const statements = (await captureStatements(url, SECRET, token, PATH)).filter(
      (st) => !/^(begin|commit)/i.test(st.text),
    );
    await interleaved(server.port, token, url, statements, 5);
    const r = await interleaved(server.port, token, url, statements, 80);
    if (r.accounts !== ACCOUNTS) throw new Error(`expected ${ACCOUNTS} accounts, got ${r.accounts}`);
    return {
      'GET /api/accounts, 20 accounts, 100,000 rows: median ms': Math.round(r.apiMs * 100) / 100,
      'its statements through pg, one after the other: median ms': Math.round(r.sqlMs * 100) / 100,
      statements: statements.length,
      'api / sql': Math.round((r.apiMs / r.sqlMs) * 100) / 100,
      limit: 1.5,
    };
  } finally {
    await server.stop();
  }
}
