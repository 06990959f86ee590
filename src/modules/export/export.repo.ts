import { eq, Param, sql } from 'drizzle-orm';
import type { CategoryKind as TransactionKind } from '../../lib/domain.ts';
import { query, type Executor } from '../../db/client.ts';
import { categories, tags } from '../../db/schema/index.ts';

// ---- export ----

export interface ExportRow {
  id: number;
  date: string;
  kind: TransactionKind;
  /** integer minor units of `currency` (hundredths when it is absent), as text */
  amount_minor: string;
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
export async function exportPage(
  db: Executor,
  userId: number,
  f: ExportFilter,
  after: { date: string; id: number } | null,
  limit: number,
): Promise<ExportRow[]> {
  return query<ExportRow>(
    db,
    sql`select t.id, t.date::text as date, t.kind, t.amount_cents::text as amount_minor, t.category_id, t.note, t.group_id,
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
  const rows = await db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(eq(categories.userId, userId));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function userHasTags(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: tags.id }).from(tags).where(eq(tags.userId, userId)).limit(1);
  return row !== undefined;
}

/**
 * Tag names of the given transactions (of the caller: the ids come from exportPage), by transaction, sorted by name.
 */
export async function exportTags(
  db: Executor,
  userId: number,
  transactionIds: number[],
): Promise<Map<number, string[]>> {
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
