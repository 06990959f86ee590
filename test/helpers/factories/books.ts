import { and, eq, sql } from 'drizzle-orm';
import { query, type Executor } from '../../../src/db/client.ts';
import { categories, tags, transactions, transactionTags } from '../../../src/db/schema/index.ts';
import { unique } from './seq.ts';

/** The user's first category of a kind, by sort order. */
export async function firstCategory(db: Executor, userId: number, kind: 'expense' | 'income' = 'expense') {
  const [row] = await db.select().from(categories).where(and(eq(categories.userId, userId), eq(categories.kind, kind))).orderBy(categories.sort).limit(1);
  return row!;
}

export async function createCategory(db: Executor, userId: number, overrides: Partial<typeof categories.$inferInsert> = {}) {
  const [row] = await db
    .insert(categories)
    .values({ userId, name: `cat${unique()}`, color: '#123456', kind: 'expense', ...overrides })
    .returning();
  return row!;
}

export async function createTag(db: Executor, userId: number, overrides: Partial<typeof tags.$inferInsert> = {}) {
  const [row] = await db.insert(tags).values({ userId, name: `tag${unique()}`.slice(0, 20), ...overrides }).returning();
  return row!;
}

/** A transaction of 10.00 on 2026-11-01 in the user's first category of its kind, unless told. */
export async function createTransaction(db: Executor, userId: number, overrides: Partial<typeof transactions.$inferInsert> = {}) {
  const categoryId = overrides.categoryId ?? (await firstCategory(db, userId, overrides.kind ?? 'expense')).id;
  const [row] = await db
    .insert(transactions)
    .values({ userId, kind: 'expense', amountCents: 1000, date: '2026-11-01', note: '', ...overrides, categoryId })
    .returning();
  return row!;
}

/** Puts tags on a transaction. */
export async function tagTransaction(db: Executor, transactionId: number, tagIds: number[]): Promise<void> {
  if (tagIds.length) await db.insert(transactionTags).values(tagIds.map((tagId) => ({ transactionId, tagId })));
}

/** `n` transactions for a user in one statement: dates cycle over `days` days from `from`, amounts 1.00, 2.00, ... */
export async function bulkTransactions(db: Executor, userId: number, categoryId: number, n: number, from = '2026-01-01', days = 3): Promise<void> {
  await query(
    db,
    sql`insert into transactions (user_id, kind, amount_cents, category_id, note, date)
        select ${userId}::int, 'expense', g * 100, ${categoryId}::int, 'bulk ' || g, ${from}::date + (g % ${days}::int)
        from generate_series(1, ${n}::int) g`,
  );
}

export async function countTransactions(db: Executor, userId: number): Promise<number> {
  const [row] = await query<{ n: number }>(db, sql`select count(*)::int as n from transactions where user_id = ${userId}`);
  return Number(row!.n);
}
