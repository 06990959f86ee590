import { sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import type { CategoryKind as Kind } from '../../lib/domain.ts';

export interface DateRange {
  start: string;
  end: string;
}

/** Whose transactions: the user's own (all of them, group ones included) or one group's. */
export interface StatsScope {
  userId: number;
  groupId?: number;
  /** group view only: one member's rows */
  memberId?: number;
  tagId?: number;
  /** personal view only: the rows of one of the caller's accounts */
  accountId?: number;
  /** personal statistics of group records: what the user paid (default) or their share */
  view?: 'paid' | 'share';
}

/**
 * The rows statistics read, as `t`. "My share": the user's personal rows plus their share of every
 * group record (whoever recorded it), with the share as the amount (shares are in the group
 * currency, taken as the user's base currency), plus their own group records that nobody shares
 * (a group that does not split costs): borne by the one who recorded them. Otherwise the
 * transactions table itself.
 */
export function source(scope: StatsScope): SQL {
  if (scope.groupId === undefined && scope.view === 'share') {
    return sql`(select x.id, x.kind, x.category_id, x.date, x.user_id, x.group_id, x.account_id, x.paid_by, x.base_amount from transactions x
                 where x.user_id = ${scope.userId} and x.group_id is null
                union all
                select x.id, x.kind, x.category_id, x.date, x.user_id, x.group_id, x.account_id, x.paid_by, s.amount_cents as base_amount
                 from transaction_shares s join transactions x on x.id = s.transaction_id where s.user_id = ${scope.userId}
                union all
                select x.id, x.kind, x.category_id, x.date, x.user_id, x.group_id, x.account_id, x.paid_by, x.base_amount from transactions x
                 where x.user_id = ${scope.userId} and x.group_id is not null
                   and not exists (select 1 from transaction_shares s where s.transaction_id = x.id))`;
  }
  return sql`transactions`;
}

/**
 * The WHERE of a scope over `source(scope) t`; the owner (user or group) is always part of it.
 * Statistics are about income and expense only: transfers and adjustments move money between or
 * within accounts and never count, whatever else the scope says. Sums read `base_amount`, the
 * amount in the owner's base currency fixed at booking time.
 */
export function scopeWhere(scope: StatsScope, range: DateRange): SQL {
  const owner =
    scope.groupId !== undefined
      ? sql`t.group_id = ${scope.groupId}`
      : scope.view === 'share'
        ? sql`true`
        : // what the user paid: their own rows, less those recorded for another payer in a group
          sql`t.user_id = ${scope.userId} and (t.paid_by is null or t.paid_by = t.user_id)`;
  const member =
    scope.groupId !== undefined && scope.memberId !== undefined ? sql` and t.user_id = ${scope.memberId}` : sql``;
  const account = scope.accountId !== undefined ? sql` and t.account_id = ${scope.accountId}` : sql``;
  const tag =
    scope.tagId !== undefined
      ? sql` and exists (select 1 from transaction_tags tt where tt.transaction_id = t.id and tt.tag_id = ${scope.tagId})`
      : sql``;
  return sql`${owner} and t.kind in ('expense', 'income') and t.date between ${range.start}::date and ${range.end}::date${member}${account}${tag}`;
}

export interface StatsRequest {
  current: DateRange;
  type: Kind;
  overview?: boolean;
  share?: boolean;
  trend?: 'day' | 'month';
  max?: boolean;
  /** totals of this earlier range as well (compare) */
  previous?: DateRange;
}

export interface Totals {
  income: number;
  expense: number;
  count: number;
}
export interface ShareRow {
  category_id: number;
  name: string;
  color: string;
  amount: number;
  count: number;
}
export interface TrendRow {
  date: string;
  amount: number;
  count: number;
}
export interface StatsRows {
  overview: Totals | null;
  previous: Totals | null;
  share: ShareRow[] | null;
  trend: TrendRow[] | null;
  max_id: number | null;
}

const totalsOf = (from: SQL) =>
  sql`(select json_build_object(
        'income', coalesce(sum(s) filter (where kind = 'income'), 0),
        'expense', coalesce(sum(s) filter (where kind = 'expense'), 0),
        'count', coalesce(sum(n), 0)) ${from})`;

/**
 * Every requested statistic in ONE statement. The period's rows are read once and folded into
 * `agg` (one row per kind, category and day: sum, count, largest amount); overview, share, trend
 * and the largest transaction are derived from that small set. The previous period, for compare,
 * is one more index range read. Amounts stay integer minor units (sums of bigint).
 */
export async function runStats(db: Executor, scope: StatsScope, req: StatsRequest): Promise<StatsRows> {
  const type = req.type;
  const none = sql`null`;
  const overview = req.overview ? totalsOf(sql`from agg`) : none;
  const previous = req.previous
    ? sql`(select json_build_object(
              'income', coalesce(sum(t.base_amount) filter (where t.kind = 'income'), 0),
              'expense', coalesce(sum(t.base_amount) filter (where t.kind = 'expense'), 0),
              'count', count(*))
            from ${source(scope)} t where ${scopeWhere(scope, req.previous)})`
    : none;
  const share = req.share
    ? sql`(select coalesce(json_agg(json_build_object('category_id', x.category_id, 'name', c.name, 'color', c.color, 'amount', x.s, 'count', x.n)
                   order by x.s desc, x.category_id), '[]'::json)
            from (select category_id, sum(s) as s, sum(n) as n from agg where kind = ${type} group by category_id) x
            join categories c on c.id = x.category_id)`
    : none;
  const bucket = req.trend === 'month' ? sql`to_char(day, 'YYYY-MM')` : sql`to_char(day, 'YYYY-MM-DD')`;
  const trend = req.trend
    ? sql`(select coalesce(json_agg(json_build_object('date', b, 'amount', s, 'count', n) order by b), '[]'::json)
            from (select ${bucket} as b, sum(s) as s, sum(n) as n from agg where kind = ${type} group by 1) y)`
    : none;
  // the largest amount, then its latest day, then the highest id on that day: an index lookup of one day
  const maxId = req.max
    ? sql`(select t.id from ${source(scope)} t,
              (select m, day from agg where kind = ${type} order by m desc, day desc limit 1) top
            where ${scopeWhere(scope, req.current)} and t.kind = ${type} and t.date = top.day and t.base_amount = top.m
            order by t.id desc limit 1)`
    : none;
  const needAgg = req.overview || req.share || req.trend || req.max;
  const agg = needAgg
    ? sql`with agg as (
            select t.kind, t.category_id, t.date as day, sum(t.base_amount) as s, count(*) as n, max(t.base_amount) as m
            from ${source(scope)} t where ${scopeWhere(scope, req.current)}
            group by t.kind, t.category_id, t.date)`
    : sql``;
  const [row] = await query<{
    overview: unknown;
    previous: unknown;
    share: unknown;
    trend: unknown;
    max_id: number | string | null;
  }>(
    db,
    sql`${agg} select ${overview} as overview, ${previous} as previous, ${share} as share, ${trend} as trend, ${maxId} as max_id`,
  );
  return {
    overview: parseJson<Totals>(row!.overview),
    previous: parseJson<Totals>(row!.previous),
    share: parseJson<ShareRow[]>(row!.share),
    trend: parseJson<TrendRow[]>(row!.trend),
    max_id: row!.max_id === null ? null : Number(row!.max_id),
  };
}

/** json columns arrive parsed on both drivers; a string is parsed here just in case. */
function parseJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export interface AccountRow {
  account_id: number;
  name: string;
  type: string;
  currency: string;
  color: string;
  archived: boolean;
  income: number;
  expense: number;
  count: number;
}

/**
 * Income and expense of the period per account of the caller (base currency), one row per account
 * that has income or expense in the period, in the accounts' own order. Transfers and adjustments
 * are left out by the scope, like everywhere in statistics.
 */
export async function byAccount(db: Executor, scope: StatsScope, range: DateRange): Promise<AccountRow[]> {
  const rows = await query<{
    account_id: number;
    name: string;
    type: string;
    currency: string;
    color: string;
    archived: boolean;
    income: string | number;
    expense: string | number;
    n: string | number;
  }>(
    db,
    sql`select a.id as account_id, a.name, a.type, a.currency, a.color, a.archived, x.income, x.expense, x.n
        from (select t.account_id,
                     coalesce(sum(t.base_amount) filter (where t.kind = 'income'), 0) as income,
                     coalesce(sum(t.base_amount) filter (where t.kind = 'expense'), 0) as expense,
                     count(*) as n
              from ${source(scope)} t where ${scopeWhere(scope, range)} and t.account_id is not null
              group by t.account_id) x
        join accounts a on a.id = x.account_id and a.user_id = ${scope.userId}
        order by a.sort, a.id`,
  );
  return rows.map((r) => ({
    account_id: Number(r.account_id),
    name: r.name,
    type: r.type,
    currency: r.currency,
    color: r.color,
    archived: Boolean(r.archived),
    income: Number(r.income),
    expense: Number(r.expense),
    count: Number(r.n),
  }));
}
