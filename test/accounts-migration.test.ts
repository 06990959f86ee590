import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { createDatabase, query, runMigrations, type Database } from '../src/db/client.ts';
import { blankPgDatabase, onPostgres } from './helpers/db.ts';

/** The committed migrations up to (not including) `upTo`, as a folder of their own. */
function migrationsBefore(upTo: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledger-migrations-'));
  cpSync('migrations', dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < upTo);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe('the migration to money accounts', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  const folder = migrationsBefore(3);

  before(async () => {
    if (onPostgres) {
      const blank = await blankPgDatabase('ledger_money_migration');
      drop = blank.drop;
      database = await createDatabase({ databaseUrl: blank.url, embeddedDbDir: null });
      const client = await database.pool!.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: folder });
      } finally {
        client.release();
      }
    } else {
      database = await createDatabase({ databaseUrl: null, embeddedDbDir: null, blank: true });
      await migratePglite(database.db as never, { migrationsFolder: folder });
    }
    // yesterday's books: a Chinese-speaking user with rows, an English-speaking one without any
    await query(
      database.db,
      sql`insert into users (id, provider, provider_subject, nickname, created_at) overriding system value values
      (1, 'wechat', 'zh-user', '小王', '2026-03-05T00:00:00Z'), (2, 'wechat', 'en-user', 'Ann', '2026-04-01T00:00:00Z')`,
    );
    await query(
      database.db,
      sql`insert into categories (id, user_id, name, color, kind) overriding system value values
      (1, 1, '餐饮', '#F5A623', 'expense'), (2, 1, '工资', '#7ED321', 'income'), (3, 2, 'Food', '#F5A623', 'expense')`,
    );
    await query(
      database.db,
      sql`insert into transactions (user_id, kind, amount_cents, category_id, note, date) values
      (1, 'expense', 1250, 1, '午饭', '2026-03-01'), (1, 'income', 800000, 2, '', '2026-03-10'), (1, 'expense', 99, 1, '', '2026-03-11')`,
    );
    await runMigrations(database, { defaultCurrency: 'EUR' });
  });
  after(async () => {
    await database.close();
    await drop?.();
    rmSync(folder, { recursive: true, force: true });
  });

  it('gives every existing user one default cash account, named in their language, in the default currency', async () => {
    const rows = await query<{
      user_id: number;
      name: string;
      type: string;
      currency: string;
      is_default: boolean;
      opening_date: string;
      opening_balance: string;
    }>(
      database.db,
      sql`select user_id, name, type, currency, is_default, to_char(opening_date, 'YYYY-MM-DD') as opening_date, opening_balance::text from accounts order by user_id`,
    );
    assert.deepEqual(
      rows.map((r) => ({ ...r })),
      [
        {
          user_id: 1,
          name: '现金',
          type: 'cash',
          currency: 'EUR',
          is_default: true,
          opening_date: '2026-03-01',
          opening_balance: '0',
        },
        {
          user_id: 2,
          name: 'Cash',
          type: 'cash',
          currency: 'EUR',
          is_default: true,
          opening_date: '2026-04-01',
          opening_balance: '0',
        },
      ],
    );
    const users = await query<{ base_currency: string }>(database.db, sql`select base_currency from users`);
    assert.ok(users.every((u) => u.base_currency === 'EUR'));
  });

  it("puts every existing transaction in its owner's account, with its amount as the base amount", async () => {
    const rows = await query<{ n: number; in_account: number; same: number }>(
      database.db,
      sql`select count(*)::int as n,
                 count(*) filter (where a.user_id = t.user_id and a.is_default and t.currency = a.currency)::int as in_account,
                 count(*) filter (where t.base_amount = t.amount_cents and t.rate is null)::int as same
          from transactions t left join accounts a on a.id = t.account_id`,
    );
    assert.deepEqual({ ...rows[0] }, { n: 3, in_account: 3, same: 3 });
  });
});
