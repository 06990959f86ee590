import { and, eq, isNull, Param, sql } from 'drizzle-orm';
import type { AccountType, CategoryKind as TransactionKind } from '../../lib/domain.ts';
import { query, type Executor } from '../../db/client.ts';
import { accounts, categories, groupMembers, groups, tags } from '../../db/schema/index.ts';

/*
 * What an import reads of the books before it writes (categories, tags, accounts, live groups, how
 * many transactions already match a row) and the rows it adds besides transactions (categories,
 * tags, accounts). Transactions themselves are written by the books writer.
 */

export interface CategoryRef {
  id: number;
  kind: TransactionKind;
  name: string;
  sort: number;
}

export async function userCategories(db: Executor, userId: number): Promise<CategoryRef[]> {
  return db
    .select({ id: categories.id, kind: categories.kind, name: categories.name, sort: categories.sort })
    .from(categories)
    .where(eq(categories.userId, userId));
}

export async function userTags(db: Executor, userId: number): Promise<{ id: number; name: string }[]> {
  return db.select({ id: tags.id, name: tags.name }).from(tags).where(eq(tags.userId, userId));
}

/** Groups the user is a member of and that are not dissolved. */
export async function liveGroupIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: groups.id })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.userId, userId), isNull(groups.dissolvedAt)));
  return rows.map((r) => r.id);
}

export interface DupKey {
  date: string;
  kind: string;
  amountMinor: number;
  categoryId: number | null;
  note: string;
  accountId: number;
}

/** How many transactions the user already has for each key (same order as `keys`). */
export async function existingCounts(db: Executor, userId: number, keys: DupKey[]): Promise<number[]> {
  const out = new Array<number>(keys.length).fill(0);
  const BATCH = 10_000;
  for (let start = 0; start < keys.length; start += BATCH) {
    const part = keys.slice(start, start + BATCH);
    const rows = await query<{ i: number; n: number }>(
      db,
      sql`select k.i::int as i, count(*)::int as n
          from unnest(${new Param(part.map((k) => k.date))}::date[], ${new Param(part.map((k) => k.kind))}::text[],
                      ${new Param(part.map((k) => k.amountMinor))}::bigint[], ${new Param(part.map((k) => k.categoryId))}::int[],
                      ${new Param(part.map((k) => k.note))}::text[], ${new Param(part.map((k) => k.accountId))}::int[])
               with ordinality as k(date, kind, amount_minor, category_id, note, account_id, i)
          join transactions t on t.user_id = ${userId} and t.date = k.date and t.kind = k.kind
                             and t.amount_cents = k.amount_minor and t.category_id is not distinct from k.category_id and t.note = k.note
                             and t.account_id = k.account_id
          group by k.i`,
    );
    for (const r of rows) out[start + Number(r.i) - 1] = Number(r.n);
  }
  return out;
}

/** Serializes the imports of one user (across processes): the duplicate check must see the previous import. */
export async function lockUserImports(tx: Executor, userId: number): Promise<void> {
  await query(tx, sql`select pg_advisory_xact_lock(727274002, ${userId}::int)`);
}

export async function insertCategories(
  tx: Executor,
  userId: number,
  rows: { kind: TransactionKind; name: string; sort: number }[],
): Promise<void> {
  if (!rows.length) return;
  await tx
    .insert(categories)
    .values(rows.map((r) => ({ userId, kind: r.kind, name: r.name, sort: r.sort, color: '#9B9B9B', icon: '' })))
    .onConflictDoNothing();
}

export async function insertTags(tx: Executor, userId: number, names: string[]): Promise<void> {
  if (!names.length) return;
  await tx
    .insert(tags)
    .values(names.map((name) => ({ userId, name })))
    .onConflictDoNothing();
}

export interface AccountRef {
  id: number;
  name: string;
  currency: string;
  isDefault: boolean;
}

/** The user's accounts (archived ones included: history may be imported into them), in their order. */
export async function userAccounts(db: Executor, userId: number): Promise<AccountRef[]> {
  return db
    .select({ id: accounts.id, name: accounts.name, currency: accounts.currency, isDefault: accounts.isDefault })
    .from(accounts)
    .where(eq(accounts.userId, userId))
    .orderBy(accounts.sort, accounts.id);
}

/** Creates accounts named by an import, after the user's own; answers their ids in the same order. */
export async function insertAccounts(
  tx: Executor,
  userId: number,
  rows: { name: string; currency: string; openingDate: string; type?: AccountType }[],
): Promise<number[]> {
  const [top] = await query<{ s: number | string | null }>(
    tx,
    sql`select max(sort) as s from accounts where user_id = ${userId}`,
  );
  let sort = Number(top?.s ?? -1) + 1;
  const out: number[] = [];
  for (const r of rows) {
    const [row] = await tx
      .insert(accounts)
      .values({
        userId,
        name: r.name,
        type: r.type ?? 'other',
        currency: r.currency,
        openingDate: r.openingDate,
        sort: sort++,
      })
      .returning({ id: accounts.id });
    out.push(row!.id);
  }
  return out;
}
