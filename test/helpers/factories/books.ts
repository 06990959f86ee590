import { and, eq, sql } from 'drizzle-orm';
import { query, type Executor } from '../../../src/db/client.ts';
import { accounts, categories, tags, transactions, transactionTags } from '../../../src/db/schema/index.ts';
import { defaultAccount } from '../../../src/modules/books/index.ts';
import { unique } from './seq.ts';

/** The user's first category of a kind, by sort order. */
export async function firstCategory(db: Executor, userId: number, kind: 'expense' | 'income' = 'expense') {
  const [row] = await db
    .select()
    .from(categories)
    .where(and(eq(categories.userId, userId), eq(categories.kind, kind)))
    .orderBy(categories.sort)
    .limit(1);
  return row!;
}

export async function createCategory(
  db: Executor,
  userId: number,
  overrides: Partial<typeof categories.$inferInsert> = {},
) {
  const [row] = await db
    .insert(categories)
    .values({ userId, name: `cat${unique()}`, color: '#123456', kind: 'expense', ...overrides })
    .returning();
  return row!;
}

/**
 * One more account of the user, straight into the table: a debit card in CNY opened on 2026-01-01, sorted first, unless
 * told.
 */
export async function createAccount(
  db: Executor,
  userId: number,
  overrides: Partial<typeof accounts.$inferInsert> = {},
) {
  const [row] = await db
    .insert(accounts)
    .values({
      userId,
      name: `acct${unique()}`.slice(0, 30),
      type: 'debit_card',
      currency: 'CNY',
      openingDate: '2026-01-01',
      sort: 1,
      ...overrides,
    })
    .returning();
  return row!;
}

export async function createTag(db: Executor, userId: number, overrides: Partial<typeof tags.$inferInsert> = {}) {
  const [row] = await db
    .insert(tags)
    .values({ userId, name: `tag${unique()}`.slice(0, 20), ...overrides })
    .returning();
  return row!;
}

/** A transaction of 10.00 on 2026-11-01 in the user's first category of its kind, unless told. */
export async function createTransaction(
  db: Executor,
  userId: number,
  overrides: Partial<typeof transactions.$inferInsert> = {},
) {
  const kind = overrides.kind ?? 'expense';
  const categoryId =
    overrides.categoryId ??
    (kind === 'expense' || kind === 'income' ? (await firstCategory(db, userId, kind)).id : null);
  const amountMinor = overrides.amountMinor ?? 1000;
  const [row] = await db
    .insert(transactions)
    .values({
      userId,
      kind,
      amountMinor,
      date: '2026-11-01',
      note: '',
      ...(await inDefaultAccount(db, userId, amountMinor)),
      ...overrides,
      categoryId,
    })
    .returning();
  return row!;
}

/** The booking columns of `amountMinor` in the user's default account (in their base currency). */
export async function inDefaultAccount(db: Executor, userId: number, amountMinor: number) {
  const account = await defaultAccount(db, userId);
  return { accountId: account.id, currency: account.currency, baseAmount: amountMinor };
}

/** Puts tags on a transaction. */
export async function tagTransaction(db: Executor, transactionId: number, tagIds: number[]): Promise<void> {
  if (tagIds.length) await db.insert(transactionTags).values(tagIds.map((tagId) => ({ transactionId, tagId })));
}

/** `n` transactions for a user in one statement: dates cycle over `days` days from `from`, amounts 1.00, 2.00, ... */
export async function bulkTransactions(
  db: Executor,
  userId: number,
  categoryId: number,
  n: number,
  from = '2026-01-01',
  days = 3,
): Promise<void> {
  await query(
    db,
    sql`insert into transactions (user_id, kind, amount_cents, category_id, note, date, account_id, currency, base_amount)
        select ${userId}::int, 'expense', g * 100, ${categoryId}::int, 'bulk ' || g, ${from}::date + (g % ${days}::int), a.id, a.currency, g * 100
        from generate_series(1, ${n}::int) g, accounts a where a.user_id = ${userId}::int and a.is_default`,
  );
}

export async function countTransactions(db: Executor, userId: number): Promise<number> {
  const [row] = await query<{ n: number }>(
    db,
    sql`select count(*)::int as n from transactions where user_id = ${userId}`,
  );
  return Number(row!.n);
}
