import { and, eq, isNull, Param, sql } from 'drizzle-orm';
import type { CategoryKind as TransactionKind } from '../../lib/domain.ts';
import { query, type Executor } from '../../db/client.ts';
import { accounts, categories, groupMembers, groups, tags } from '../../db/schema/index.ts';

// ---- export ----

export interface ExportRow {
  id: number;
  date: string;
  kind: TransactionKind;
  /** integer minor units of `currency` (hundredths when it is absent), as text */
  cents: string;
  /** null for a transfer or an adjustment */
  category_id: number | null;
  note: string;
  group_id: number | null;
  /** `YYYY-MM-DD HH:MM:SS[.ffffff]` in UTC */
  created_utc: string;
  // the money columns (absent in rows built by hand: then the row reads as before accounts existed)
  account?: string | null;
  currency?: string | null;
  to_account?: string | null;
  /** minor units of to_currency, as text */
  to_amount?: string | null;
  to_currency?: string | null;
  rate?: string | null;
}

export interface ExportFilter {
  startDate: string;
  endDate: string;
  type: TransactionKind | 'transfer' | 'adjustment' | 'all';
}

/**
 * One page of the caller's transactions in (date, id) order, after the keyset `after`. The order
 * is written NULLS FIRST so that it is exactly the backward order of transactions_user_date_idx
 * (user_id, date DESC NULLS LAST, id DESC NULLS LAST): each page is an index range read, never a
 * sort, however many rows the user has. The kind is compared through IS TRUE so that the planner
 * keeps that index instead of the kind index (which would need a sort per page). Values come as
 * text and are formatted by the caller, and category names come from exportCategoryNames, which
 * keeps the database's share of the work small.
 */
export async function exportPage(db: Executor, userId: number, f: ExportFilter, after: { date: string; id: number } | null, limit: number): Promise<ExportRow[]> {
  return query<ExportRow>(
    db,
    sql`select t.id, t.date::text as date, t.kind, t.amount_cents::text as cents, t.category_id, t.note, t.group_id,
          (t.created_at at time zone 'UTC')::text as created_utc,
          a.name as account, t.currency, ta.name as to_account, t.to_amount::text as to_amount, t.to_currency, t.rate
        from transactions t
        left join accounts a on a.id = t.account_id
        left join accounts ta on ta.id = t.to_account_id
        where t.user_id = ${userId} and t.date between ${f.startDate}::date and ${f.endDate}::date
          ${f.type === 'all' ? sql`` : sql`and (t.kind = ${f.type}) is true`}
          ${after ? sql`and (t.date, t.id) > (${after.date}::date, ${after.id}::int)` : sql``}
        order by t.date asc nulls first, t.id asc nulls first
        limit ${limit}`,
  );
}

/** The user's category names by id. */
export async function exportCategoryNames(db: Executor, userId: number): Promise<Map<number, string>> {
  const rows = await db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.userId, userId));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function userHasTags(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: tags.id }).from(tags).where(eq(tags.userId, userId)).limit(1);
  return row !== undefined;
}

/** Tag names of the given transactions (of the caller: the ids come from exportPage), by transaction, sorted by name. */
export async function exportTags(db: Executor, userId: number, transactionIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!transactionIds.length) return out;
  const rows = await query<{ transaction_id: number; name: string }>(
    db,
    sql`select tt.transaction_id, tg.name from transaction_tags tt join tags tg on tg.id = tt.tag_id
        where tt.transaction_id = any(${new Param(transactionIds)}::int[]) and tg.user_id = ${userId}
        order by tt.transaction_id, tg.name`,
  );
  for (const r of rows) {
    const id = Number(r.transaction_id);
    const list = out.get(id);
    if (list) list.push(r.name);
    else out.set(id, [r.name]);
  }
  return out;
}

// ---- import ----

export interface CategoryRef {
  id: number;
  kind: TransactionKind;
  name: string;
  sort: number;
}

export async function userCategories(db: Executor, userId: number): Promise<CategoryRef[]> {
  return db.select({ id: categories.id, kind: categories.kind, name: categories.name, sort: categories.sort }).from(categories).where(eq(categories.userId, userId));
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
  cents: number;
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
                      ${new Param(part.map((k) => k.cents))}::bigint[], ${new Param(part.map((k) => k.categoryId))}::int[],
                      ${new Param(part.map((k) => k.note))}::text[], ${new Param(part.map((k) => k.accountId))}::int[])
               with ordinality as k(date, kind, cents, category_id, note, account_id, i)
          join transactions t on t.user_id = ${userId} and t.date = k.date and t.kind = k.kind
                             and t.amount_cents = k.cents and t.category_id is not distinct from k.category_id and t.note = k.note
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

export async function insertCategories(tx: Executor, userId: number, rows: { kind: TransactionKind; name: string; sort: number }[]): Promise<void> {
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
export async function insertAccounts(tx: Executor, userId: number, rows: { name: string; currency: string; openingDate: string }[]): Promise<number[]> {
  const [top] = await query<{ s: number | string | null }>(tx, sql`select max(sort) as s from accounts where user_id = ${userId}`);
  let sort = Number(top?.s ?? -1) + 1;
  const out: number[] = [];
  for (const r of rows) {
    const [row] = await tx
      .insert(accounts)
      .values({ userId, name: r.name, type: 'other', currency: r.currency, openingDate: r.openingDate, sort: sort++ })
      .returning({ id: accounts.id });
    out.push(row!.id);
  }
  return out;
}
