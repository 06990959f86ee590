// Builds (once) the PostgreSQL benchmark database: 100 users with 10,000 transactions each
// (1,000,000 rows), one user with 100,000 (statistics) and one with 1,000,000 (export).
import pg from 'pg';
import { createDatabase, runMigrations } from '../src/db/client.ts';
import { eq } from 'drizzle-orm';
import { categories } from '../src/db/schema/index.ts';
import { setUpNewUser } from '../src/modules/identity/index.ts';
import { PG_URL } from './lib.ts';

// BENCH_DB_NAME gives a run a database of its own (dropped by hand afterwards)
export const BENCH_DB = process.env.BENCH_DB_NAME || 'ledger_bench';
const SEED_VERSION = 'seed-v2';

export function benchUrl(): string {
  const url = new URL(PG_URL);
  url.pathname = `/${BENCH_DB}`;
  return url.toString();
}

export interface BenchData {
  url: string;
  listUsers: number[];
  statsUser: number;
  exportUser: number;
}

async function fill(client: pg.Client, userId: number, rows: number, firstCategory: number): Promise<void> {
  // categories of a new user are consecutive: 10 expense ones, then 5 income ones
  await client.query(
    `insert into transactions (user_id, kind, amount_cents, category_id, note, date, created_at, updated_at, account_id, currency, base_amount)
     select $1,
            case when g % 7 = 0 then 'income' else 'expense' end,
            100 + (hashint4(g) & 1048575) % 99900,
            case when g % 7 = 0 then $3 + 10 + g % 5 else $3 + g % 10 end,
            'note ' || (g % 997),
            date '2025-01-01' + (hashint4(g + $1) & 65535) % 690,
            now(), now(), a.id, a.currency, 100 + (hashint4(g) & 1048575) % 99900
     from generate_series(1, $2) g, accounts a where a.user_id = $1 and a.is_default`,
    [userId, rows, firstCategory],
  );
}

export async function ensureBenchData(): Promise<BenchData> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [BENCH_DB])).rowCount;
  if (!exists) await admin.query(`create database ${BENCH_DB}`);
  await admin.end();

  const url = benchUrl();
  const database = await createDatabase({ databaseUrl: url, embeddedDbDir: null, poolSize: 4 });
  await runMigrations(database);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const seeded = await client.query("select value from system_config where key = 'bench_seed'");
    if (seeded.rows[0]?.value !== SEED_VERSION) {
      console.error('seeding the benchmark database (2.1 million transactions)...');
      await client.query(
        'truncate users, transactions, categories, refresh_tokens, idempotency_keys restart identity cascade',
      );
      const spec: [string, number][] = [
        ...Array.from({ length: 100 }, (_, i): [string, number] => [`list-${i}`, 10_000]),
        ['stats', 100_000],
        ['export', 1_000_000],
      ];
      for (const [name, rows] of spec) {
        const { rows: u } = await client.query(
          "insert into users (provider, provider_subject, nickname) values ('bench', $1, $1) returning id, created_at",
          [name],
        );
        await setUpNewUser(database.db, { id: u[0].id, baseCurrency: 'CNY', createdAt: u[0].created_at });
        const cats = await database.db
          .select({ id: categories.id })
          .from(categories)
          .where(eq(categories.userId, u[0].id));
        await fill(client, u[0].id, rows, Math.min(...cats.map((c) => c.id)));
      }
      // vacuum too: it sets the visibility map that index-only scans rely on (autovacuum may be off)
      await client.query('vacuum analyze');
      await client.query(
        "insert into system_config (key, value) values ('bench_seed', $1) on conflict (key) do update set value = " +
          'excluded.value',
        [SEED_VERSION],
      );
    }
    const { rows } = await client.query<{ id: number; nickname: string }>(
      "select id, nickname from users where provider = 'bench' order by id",
    );
    return {
      url,
      listUsers: rows.filter((r) => r.nickname.startsWith('list-')).map((r) => r.id),
      statsUser: rows.find((r) => r.nickname === 'stats')!.id,
      exportUser: rows.find((r) => r.nickname === 'export')!.id,
    };
  } finally {
    await client.end();
    await database.close();
  }
}
