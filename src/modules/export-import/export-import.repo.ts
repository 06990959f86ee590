import { and, eq, isNull, Param, sql } from 'drizzle-orm';
import type { CategoryKind as TransactionKind } from '../../lib/domain.ts';
import { query, type Executor } from '../../db/client.ts';
import { categories, groupMembers, groups, tags } from '../../db/schema/index.ts';

// ---- export ----

export interface ExportRow {
  id: number;
  date: string;
  kind: TransactionKind;
  /** integer cents, as text */
  cents: string;
  category_id: number;
  note: string;
  group_id: number | null;
  /** `YYYY-MM-DD HH:MM:SS[.ffffff]` in UTC */
  created_utc: string;
}

export interface ExportFilter {
  startDate: string;
  endDate: string;
  type: TransactionKind | 'all';
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
          (t.created_at at time zone 'UTC')::text as created_utc
        from transactions t
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
  categoryId: number;
  note: string;
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
                      ${new Param(part.map((k) => k.note))}::text[]) with ordinality as k(date, kind, cents, category_id, note, i)
          join transactions t on t.user_id = ${userId} and t.date = k.date and t.kind = k.kind
                             and t.amount_cents = k.cents and t.category_id = k.category_id and t.note = k.note
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

/** Reserves `n` transaction ids, so that tag links can be built without relying on RETURNING order. */
export async function allocateTransactionIds(tx: Executor, n: number): Promise<number[]> {
  if (n <= 0) return [];
  const rows = await query<{ id: number }>(tx, sql`select nextval(pg_get_serial_sequence('transactions', 'id'))::int as id from generate_series(1, ${n}::int)`);
  return rows.map((r) => Number(r.id));
}

export interface NewTransaction {
  id: number;
  kind: string;
  cents: number;
  categoryId: number;
  note: string;
  date: string;
  groupId: number | null;
  createdAt: string | null;
}

/** A multi-row insert into `account` (in the base currency): one statement per call, each column sent as one array. */
export async function insertTransactions(tx: Executor, userId: number, account: { id: number; currency: string }, rows: NewTransaction[]): Promise<void> {
  if (!rows.length) return;
  await query(
    tx,
    sql`insert into transactions (id, user_id, kind, amount_cents, category_id, note, date, group_id, created_at, updated_at, account_id, currency, base_amount)
        select k.id, ${userId}::int, k.kind, k.cents, k.category_id, k.note, k.date, k.group_id, coalesce(k.created_at, now()), now(),
               ${account.id}::int, ${account.currency}::text, k.cents
        from unnest(${new Param(rows.map((r) => r.id))}::int[], ${new Param(rows.map((r) => r.kind))}::text[],
                    ${new Param(rows.map((r) => r.cents))}::bigint[], ${new Param(rows.map((r) => r.categoryId))}::int[],
                    ${new Param(rows.map((r) => r.note))}::text[], ${new Param(rows.map((r) => r.date))}::date[],
                    ${new Param(rows.map((r) => r.groupId))}::int[], ${new Param(rows.map((r) => r.createdAt))}::timestamptz[])
             as k(id, kind, cents, category_id, note, date, group_id, created_at)`,
  );
}

export async function insertTransactionTags(tx: Executor, links: { transactionId: number; tagId: number }[]): Promise<void> {
  if (!links.length) return;
  await query(
    tx,
    sql`insert into transaction_tags (transaction_id, tag_id)
        select * from unnest(${new Param(links.map((l) => l.transactionId))}::int[], ${new Param(links.map((l) => l.tagId))}::int[])
        on conflict do nothing`,
  );
}
