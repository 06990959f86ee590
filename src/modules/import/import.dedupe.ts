import { Param, sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { currencyInfo, requireCurrency, type CurrencyInfo } from '../../lib/currency.ts';
import * as books from '../books/index.ts';
import { fitHundredthsSql } from '../books/index.ts';

/*
 * Nothing counted twice between typing and importing. A bill's row and an entry typed by hand are
 * probably one payment when they have the same kind, currency and amount (the amount paid: an
 * entry's original amount when it has one), the same account (or the one the row's payment method
 * is mapped to), and dates at most MATCH_DAYS apart; when both sides know the time of the payment,
 * at most MATCH_MINUTES apart instead. An entry typed by hand knows its day, not its time (its
 * created_at is when it was typed), so a bill's row matches it by day; an imported row carries the
 * bill's time, which a caller checking a new entry may compare with a time of its own.
 */

export const MATCH_DAYS = 1;
export const MATCH_MINUTES = 10;
/** the reason of a bill's row that is probably an entry already typed */
export const PROBABLY_RECORDED = 'probably_recorded';

/**
 * The currency a bill's amounts are in: WeChat Pay and Alipay bills are in yuan; our own export and
 * a bank's file name no currency, so their amounts are in their account's currency.
 */
export function billCurrency(format: string): CurrencyInfo | null {
  return format === 'wechat' || format === 'alipay' ? requireCurrency('CNY') : null;
}

/** The currencies and their digits, as a SQL relation `cur(code, digits)`. */
function currencyTable(codes: Iterable<string>): SQL {
  const list = [...new Set(codes)].map((c) => currencyInfo(c)).filter((c): c is CurrencyInfo => c !== undefined);
  return sql`(select * from unnest(${new Param(list.map((c) => c.code))}::text[], ${new Param(list.map((c) => c.digits))}::int[]) as c(code, digits))`;
}

/**
 * The amount of a row as it was paid: its original amount when it has one, else its own (a row has
 * both original columns or neither). Written as two equalities, not a CASE, so that matching a
 * bill's rows against the books is a hash join on them instead of every row against every entry.
 */
const paidIs = (t: string, code: SQL, minor: SQL) =>
  sql`(coalesce(${sql.raw(t)}.original_currency, ${sql.raw(t)}.currency) = ${code}
       and coalesce(${sql.raw(t)}.original_amount_cents, ${sql.raw(t)}.amount_cents) = ${minor})`;

/**
 * Marks the bill's rows to import that are probably entries already typed: decision `duplicate`,
 * reason `probably_recorded`, `existing_id` the entry. Each entry stands for one row at most, the
 * closest in days first; the amounts are in the bill's currency (billCurrency). Rows without
 * an account, refunds, transfers and rows a person already forced in are left alone.
 */
export async function markProbablyRecorded(
  ex: Executor,
  userId: number,
  sessionId: number,
  format: string,
  /** rows the person just decided: left as they said */
  exceptRows: readonly number[] = [],
): Promise<number> {
  // our own export brings back its own rows (duplicates by their fields), not payments typed elsewhere
  if (format === 'ledger') return 0;
  const given = billCurrency(format)?.code ?? null;
  const codes = await query<{ currency: string }>(
    ex,
    sql`select distinct currency from accounts where user_id = ${userId}`,
  );
  const cur = currencyTable([...codes.map((c) => c.currency), ...(given ? [given] : [])]);
  const pairs = await query<{ row: number; id: number; days: number }>(
    ex,
    sql`with cur as ${cur},
        r as (
          select r.row, r.kind, r.date, r.account_id, m.account_id as mapped_id, d.code,
                 ${fitHundredthsSql(sql`r.amount_cents`, sql`d.digits`)} as minor
          from import_session_rows r
          join accounts a on a.id = r.account_id and a.user_id = ${userId}
          join cur d on d.code = coalesce(${given}::text, a.currency)
          left join import_account_maps m on m.user_id = ${userId} and m.method = r.method and r.method <> ''
          where r.session_id = ${sessionId} and r.decision = 'import' and r.reason is null and not r.refund
            and r.kind in ('expense', 'income') and not (r.row = any(${new Param([...exceptRows])}::int[]))
        ),
        -- the entries typed by hand in the bill's dates, read once: not every row against the books' index, which
        -- holds the imported entries too
        -- materialized: inlined, the planner may read the whole bill again for every typed entry
        span as materialized (select min(date) - ${MATCH_DAYS}::int as lo, max(date) + ${MATCH_DAYS}::int as hi
                 from import_session_rows where session_id = ${sessionId}),
        t as materialized (
          select t.id, t.kind, t.date, t.account_id, t.currency, t.amount_cents, t.original_currency, t.original_amount_cents
          from transactions t, span
          where t.user_id = ${userId} and t.external_id is null and t.kind in ('expense', 'income') and t.amount_cents > 0
            and t.parent_id is null and t.date between span.lo and span.hi
        )
        select r.row, t.id, abs(t.date - r.date)::int as days
        from r join t
          on t.kind = r.kind and t.date between r.date - ${MATCH_DAYS}::int and r.date + ${MATCH_DAYS}::int
         and (t.account_id = r.account_id or t.account_id = r.mapped_id)
         and ${paidIs('t', sql`r.code`, sql`r.minor`)}
        order by days, r.row, t.id`,
  );
  const rows: number[] = [];
  const ids: number[] = [];
  const taken = new Set<number>();
  const placed = new Set<number>();
  for (const p of pairs) {
    const row = Number(p.row);
    const id = Number(p.id);
    if (taken.has(id) || placed.has(row)) continue;
    taken.add(id);
    placed.add(row);
    rows.push(row);
    ids.push(id);
  }
  if (!rows.length) return 0;
  await query(
    ex,
    sql`update import_session_rows r set decision = 'duplicate', reason = ${PROBABLY_RECORDED}, existing_id = k.id
        from unnest(${new Param(rows)}::int[], ${new Param(ids)}::int[]) as k(row, id)
        where r.session_id = ${sessionId} and r.row = k.row`,
  );
  return rows.length;
}

/**
 * At a commit: the rows still marked as probably typed merge into their entries through the books
 * writer (the entry takes the row's id, time and counterparty; nothing new is booked). A row whose
 * entry has gone, or was given an id meanwhile, goes back to being imported. Answers how many merged.
 */
export async function mergeProbablyRecorded(
  ex: Executor,
  userId: number,
  sessionId: number,
  source: string | null,
): Promise<number> {
  const rows = await query<{
    row: number;
    existing_id: number;
    external_id: string | null;
    at: Date | string | null;
    counterparty: string;
    live: boolean;
  }>(
    ex,
    sql`select r.row, r.existing_id, r.external_id, r.original_created_at as at, r.counterparty,
               (t.id is not null and t.external_id is null) as live
        from import_session_rows r
        left join transactions t on t.id = r.existing_id and t.user_id = ${userId}
        where r.session_id = ${sessionId} and r.decision = 'duplicate' and r.reason = ${PROBABLY_RECORDED}
        order by r.row`,
  );
  const gone = rows.filter((r) => !r.live).map((r) => Number(r.row));
  if (gone.length) {
    await query(
      ex,
      sql`update import_session_rows set decision = 'import', reason = null, existing_id = null
          where session_id = ${sessionId} and row = any(${new Param(gone)}::int[])`,
    );
  }
  const merged = await books.write(ex, userId, {
    type: 'adopt',
    rows: rows
      .filter((r) => r.live)
      .map((r) => ({
        id: Number(r.existing_id),
        source: r.external_id ? source : null,
        externalId: r.external_id,
        at: r.at,
        counterparty: r.counterparty,
      })),
  });
  return merged.length;
}

/**
 * At a commit: the rows whose id an entry confirmed from a payment screenshot already carries are
 * that entry (a duplicate, nothing booked); the entry takes what the screenshot lacked, the bill's
 * time and counterparty, through the books writer. An entry this bill booked itself already has
 * the bill's time and is left as it is. Answers how many entries were completed.
 */
export async function completeRecordedOrders(
  ex: Executor,
  userId: number,
  sessionId: number,
  source: string,
): Promise<number> {
  const rows = await query<{ existing_id: number; external_id: string; at: Date | string; counterparty: string }>(
    ex,
    sql`select r.existing_id, r.external_id, r.original_created_at as at, r.counterparty
        from import_session_rows r
        join transactions t on t.id = r.existing_id and t.user_id = ${userId}
        where r.session_id = ${sessionId} and r.decision = 'duplicate' and r.reason = 'duplicate'
          and r.external_id is not null and t.source = ${source} and t.external_id = r.external_id
          and r.original_created_at is not null and t.created_at <> r.original_created_at
        order by r.row`,
  );
  const done = await books.write(ex, userId, {
    type: 'adopt',
    rows: rows.map((r) => ({
      id: Number(r.existing_id),
      source,
      externalId: r.external_id,
      at: r.at,
      counterparty: r.counterparty,
    })),
  });
  return done.length;
}

/** An entry about to be typed, as the check of imported rows sees it. */
export interface TypedEntry {
  kind: 'expense' | 'income';
  /** minor units of `currency`, the currency it was paid in */
  minor: number;
  currency: string;
  accountId: number;
  date: string;
  /** when the payment was made, if the caller knows */
  at?: Date;
}

/**
 * The caller's imported rows (with a bill's id) that a typed entry would count a second time, by
 * the rule above; closest first, at most `limit`.
 */
export async function importedLike(ex: Executor, userId: number, e: TypedEntry, limit = 5): Promise<number[]> {
  const near = e.at
    ? sql`abs(extract(epoch from (t.created_at - ${e.at.toISOString()}::timestamptz))) <= ${MATCH_MINUTES * 60}`
    : sql`t.date between ${e.date}::date - ${MATCH_DAYS}::int and ${e.date}::date + ${MATCH_DAYS}::int`;
  const rows = await query<{ id: number }>(
    ex,
    sql`select t.id from transactions t
        where t.user_id = ${userId} and t.external_id is not null and t.kind = ${e.kind} and t.amount_cents > 0
          and t.account_id = ${e.accountId} and ${near}
          and ${paidIs('t', sql`${e.currency}::text`, sql`${e.minor}::bigint`)}
        order by abs(t.date - ${e.date}::date), t.id desc
        limit ${limit}`,
  );
  return rows.map((r) => Number(r.id));
}
