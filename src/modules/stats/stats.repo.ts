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
  tagId?: number;
}

/** The WHERE of a scope over `transactions t`; the owner (user or group) is always part of it. */
function scopeWhere(scope: StatsScope, range: DateRange): SQL {
  const owner = scope.groupId !== undefined ? sql`t.group_id = ${scope.groupId}` : sql`t.user_id = ${scope.userId}`;
  const tag =
    scope.tagId !== undefined
      ? sql` and exists (select 1 from transaction_tags tt where tt.transaction_id = t.id and tt.tag_id = ${scope.tagId})`
      : sql``;
  return sql`${owner} and t.date between ${range.start}::date and ${range.end}::date${tag}`;
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
 * is one more index range read. Amounts stay integer cents (sums of bigint).
 */
export async function runStats(db: Executor, scope: StatsScope, req: StatsRequest): Promise<StatsRows> {
  const type = req.type;
  const none = sql`null`;
  const overview = req.overview ? totalsOf(sql`from agg`) : none;
  const previous = req.previous
    ? sql`(select json_build_object(
              'income', coalesce(sum(t.amount_cents) filter (where t.kind = 'income'), 0),
              'expense', coalesce(sum(t.amount_cents) filter (where t.kind = 'expense'), 0),
              'count', count(*))
            from transactions t where ${scopeWhere(scope, req.previous)})`
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
    ? sql`(select t.id from transactions t,
              (select m, day from agg where kind = ${type} order by m desc, day desc limit 1) top
            where ${scopeWhere(scope, req.current)} and t.kind = ${type} and t.date = top.day and t.amount_cents = top.m
            order by t.id desc limit 1)`
    : none;
  const needAgg = req.overview || req.share || req.trend || req.max;
  const agg = needAgg
    ? sql`with agg as (
            select t.kind, t.category_id, t.date as day, sum(t.amount_cents) as s, count(*) as n, max(t.amount_cents) as m
            from transactions t where ${scopeWhere(scope, req.current)}
            group by t.kind, t.category_id, t.date)`
    : sql``;
  const [row] = await query<{ overview: unknown; previous: unknown; share: unknown; trend: unknown; max_id: number | string | null }>(
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
