import { requireGroupMember, requireTag, userTimezone, baseCurrencyOf, requireAccount } from '../books/index.ts';
import { toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import type { ServiceDeps } from '../service.ts';
import type { CategoryKind as TransactionKind } from '../../lib/domain.ts';
import { addDays, diffDays, eachDay, eachMonth, isValidDate, periodRange, previousPeriodRange, todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { loadTransactionViews } from '../transactions/index.ts';
import * as statsRepo from './stats.repo.ts';
import type { DateRange, StatsScope } from './stats.repo.ts';
import type { AccountBreakdown, CategoryShare, Compare, MaxResult, Overview, StatsQuery, Summary, Trend } from './stats.schemas.ts';

/** Days of `range` up to `today`: all of them for a past period, at least 1 (a future period). */
export function elapsedDays(range: DateRange, today: string): number {
  if (today < range.start) return 1;
  const last = today < range.end ? today : range.end;
  return diffDays(range.start, last) + 1;
}

/** Percentage (2 decimals) of part in total, by integer arithmetic on cents. */
export function percentOf(part: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((part * 10000) / total) / 100;
}

/** Signed percentage change with 2 decimals, null when there is nothing to compare with. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  const ratio = ((current - previous) * 10000) / previous;
  return (Math.sign(ratio) * Math.round(Math.abs(ratio))) / 100 || 0;
}

/** a custom range longer than this many days is charted per month */
const DAILY_TREND_MAX_DAYS = 62;
/** the longest custom range: ten years */
const CUSTOM_MAX_DAYS = 3660;

interface Resolved {
  scope: StatsScope;
  /** the trend's points: per day, or per month (a year, a long custom range) */
  unit: 'day' | 'month';
  /** the range compared with: the period just before, or as many days just before a custom range */
  previous: DateRange;
  type: TransactionKind;
  today: string;
  current: DateRange;
  /** the caller's base currency: every statistic is in it */
  base: CurrencyInfo;
  /** minor units of the base currency to the major-unit number answered */
  major: (minor: number) => number;
}

export type StatsServiceDeps = ServiceDeps<typeof statsRepo, 'appTimezone'>;

/** The range of period=custom: both ends valid, in order, at most CUSTOM_MAX_DAYS days (40001). */
export function customRange(q: Pick<StatsQuery, 'start' | 'end'>): DateRange {
  for (const field of ['start', 'end'] as const) {
    const v = q[field];
    if (v === undefined) throw Errors.field(field, 'is required with period=custom');
    if (!isValidDate(v)) throw Errors.field(field, 'must be a valid date YYYY-MM-DD');
    // the range before it must stay within the years 1 to 9999 that dates can hold
    if (v < '0012-01-01' || v > '9998-12-31') throw Errors.field(field, 'must be between 0012-01-01 and 9998-12-31');
  }
  const range = { start: q.start!, end: q.end! };
  if (range.end < range.start) throw Errors.field('end', 'must be on or after start');
  if (diffDays(range.start, range.end) + 1 > CUSTOM_MAX_DAYS) throw Errors.field('end', `must be at most ${CUSTOM_MAX_DAYS} days after start`);
  return range;
}

export function createStatsService({ db, clock, config, repo = statsRepo }: StatsServiceDeps) {

  /** Checks the query (40001), the tag (the caller's, else 40001) and the group (member, else 40302). */
  async function resolve(userId: number, q: StatsQuery): Promise<Resolved> {
    if (q.date !== undefined && !isValidDate(q.date)) throw Errors.field('date', 'must be a valid date YYYY-MM-DD');
    // the period and the one before it must stay within the years 1 to 9999 that dates can hold
    if (q.date !== undefined && (q.date < '0002-01-01' || q.date > '9998-12-31')) throw Errors.field('date', 'must be between 0002-01-01 and 9998-12-31');
    if (q.tag_id !== undefined) await requireTag(db, userId, q.tag_id);
    if (q.group_id !== undefined && q.view === 'share') throw Errors.field('view', 'is only for personal statistics (without group_id)');
    if (q.group_id !== undefined) await requireGroupMember(db, q.group_id, userId);
    if (q.user_id !== undefined && q.group_id === undefined) throw Errors.field('user_id', 'filters a group view by member: give group_id as well');
    if (q.account_id !== undefined) {
      // accounts are personal: a group view is filtered by member instead
      if (q.group_id !== undefined) throw Errors.field('account_id', 'cannot be combined with group_id: filter a group view by member (user_id)');
      await requireAccount(db, userId, q.account_id, { field: 'account_id' });
    }
    const base = await baseCurrencyOf(db, userId);
    const today = todayIn(await userTimezone(db, userId, config.appTimezone), clock.now());
    const period = q.period ?? 'month';
    let current: DateRange;
    let previous: DateRange;
    let unit: 'day' | 'month';
    if (period === 'custom') {
      current = customRange(q);
      const days = diffDays(current.start, current.end) + 1;
      previous = { start: addDays(current.start, -days), end: addDays(current.start, -1) };
      unit = days > DAILY_TREND_MAX_DAYS ? 'month' : 'day';
    } else {
      if (q.start !== undefined || q.end !== undefined) throw Errors.field(q.start !== undefined ? 'start' : 'end', 'is only for period=custom');
      current = periodRange(period, q.date ?? today);
      previous = previousPeriodRange(period, current.start);
      unit = period === 'year' ? 'month' : 'day';
    }
    return {
      scope: { userId, groupId: q.group_id, memberId: q.user_id, tagId: q.tag_id, accountId: q.account_id, view: q.view },
      base,
      major: (minor: number) => toMajorUnits(minor, base),
      unit,
      previous,
      type: q.type ?? 'expense',
      today,
      current,
    };
  }

  function overviewOf(r: Resolved, totals: statsRepo.Totals): Overview {
    const typeTotal = r.type === 'income' ? totals.income : totals.expense;
    return {
      start: r.current.start,
      end: r.current.end,
      income: r.major(totals.income),
      expense: r.major(totals.expense),
      balance: r.major(totals.income - totals.expense),
      count: totals.count,
      daily_average: r.major(Math.round(typeTotal / elapsedDays(r.current, r.today))),
    };
  }

  /**
   * The share list. In a group view every member has categories of their own, often with the same
   * names ("Food" once per member): those are one line, named once, carrying all their ids, with
   * the color and id of the largest; a personal view keeps one line per category.
   */
  function shareOf(r0: Resolved, rows: statsRepo.ShareRow[], merge: boolean): CategoryShare {
    const total = rows.reduce((s, r) => s + r.amount, 0);
    const lines: (statsRepo.ShareRow & { ids: number[] })[] = [];
    const byName = new Map<string, statsRepo.ShareRow & { ids: number[] }>();
    for (const r of rows) {
      const same = merge ? byName.get(r.name) : undefined;
      if (same) {
        same.amount += r.amount;
        same.count += r.count;
        same.ids.push(r.category_id);
        continue;
      }
      const line = { ...r, ids: [r.category_id] };
      lines.push(line);
      byName.set(r.name, line);
    }
    lines.sort((a, b) => b.amount - a.amount || a.category_id - b.category_id);
    return {
      total: r0.major(total),
      list: lines.map((r) => ({
        category_id: r.category_id,
        category_ids: r.ids,
        name: r.name,
        color: r.color,
        amount: r0.major(r.amount),
        count: r.count,
        percent: percentOf(r.amount, total),
      })),
    };
  }

  function trendOf(r: Resolved, rows: statsRepo.TrendRow[]): Trend {
    const byKey = new Map(rows.map((p) => [p.date, p]));
    const unit = r.unit;
    const keys = unit === 'month' ? eachMonth(r.current.start, r.current.end) : eachDay(r.current.start, r.current.end);
    return {
      unit,
      list: keys.map((k) => {
        const p = byKey.get(k);
        return { date: k, amount: r.major(p?.amount ?? 0), count: p?.count ?? 0 };
      }),
    };
  }

  async function maxOf(maxId: number | null): Promise<MaxResult> {
    if (maxId === null) return { transaction: null };
    const [view] = await loadTransactionViews(db, [maxId]);
    return { transaction: view ?? null };
  }

  function compareOf(r: Resolved, previous: DateRange, cur: statsRepo.Totals, prev: statsRepo.Totals): Compare {
    return {
      current: { start: r.current.start, end: r.current.end, income: r.major(cur.income), expense: r.major(cur.expense) },
      previous: { start: previous.start, end: previous.end, income: r.major(prev.income), expense: r.major(prev.expense) },
      change: { income_percent: changePercent(cur.income, prev.income), expense_percent: changePercent(cur.expense, prev.expense) },
    };
  }

  const zero: statsRepo.Totals = { income: 0, expense: 0, count: 0 };
  const previousOf = (r: Resolved) => r.previous;

  return {
    async overview(userId: number, q: StatsQuery): Promise<Overview> {
      const r = await resolve(userId, q);
      const rows = await repo.runStats(db, r.scope, { current: r.current, type: r.type, overview: true });
      return overviewOf(r, rows.overview ?? zero);
    },

    async categoryShare(userId: number, q: StatsQuery): Promise<CategoryShare> {
      const r = await resolve(userId, q);
      const rows = await repo.runStats(db, r.scope, { current: r.current, type: r.type, share: true });
      return shareOf(r, rows.share ?? [], r.scope.groupId !== undefined);
    },

    async trend(userId: number, q: StatsQuery): Promise<Trend> {
      const r = await resolve(userId, q);
      const rows = await repo.runStats(db, r.scope, { current: r.current, type: r.type, trend: r.unit });
      return trendOf(r, rows.trend ?? []);
    },

    async max(userId: number, q: StatsQuery): Promise<MaxResult> {
      const r = await resolve(userId, q);
      const rows = await repo.runStats(db, r.scope, { current: r.current, type: r.type, max: true });
      return maxOf(rows.max_id);
    },

    async compare(userId: number, q: StatsQuery): Promise<Compare> {
      const r = await resolve(userId, q);
      const previous = previousOf(r);
      const rows = await repo.runStats(db, r.scope, { current: r.current, type: r.type, overview: true, previous });
      return compareOf(r, previous, rows.overview ?? zero, rows.previous ?? zero);
    },

    /** Income and expense per account of the caller (personal view only). */
    async byAccount(userId: number, q: StatsQuery): Promise<AccountBreakdown> {
      if (q.group_id !== undefined) throw Errors.field('group_id', 'accounts are personal: the by-account breakdown has no group view');
      const r = await resolve(userId, q);
      const rows = await repo.byAccount(db, r.scope, r.current);
      const income = rows.reduce((s, a) => s + a.income, 0);
      const expense = rows.reduce((s, a) => s + a.expense, 0);
      return {
        start: r.current.start,
        end: r.current.end,
        base_currency: r.base.code,
        income: r.major(income),
        expense: r.major(expense),
        list: rows.map((a) => ({
          account_id: a.account_id,
          name: a.name,
          type: a.type as AccountBreakdown['list'][number]['type'],
          currency: a.currency,
          color: a.color,
          archived: a.archived,
          income: r.major(a.income),
          expense: r.major(a.expense),
          balance: r.major(a.income - a.expense),
          count: a.count,
          expense_percent: percentOf(a.expense, expense),
        })),
      };
    },

    /** The five statistics from one statement (plus the largest transaction's view). */
    async summary(userId: number, q: StatsQuery): Promise<Summary> {
      const r = await resolve(userId, q);
      const previous = previousOf(r);
      const rows = await repo.runStats(db, r.scope, {
        current: r.current,
        type: r.type,
        overview: true,
        share: true,
        trend: r.unit,
        max: true,
        previous,
      });
      const totals = rows.overview ?? zero;
      return {
        overview: overviewOf(r, totals),
        category_share: shareOf(r, rows.share ?? [], r.scope.groupId !== undefined),
        trend: trendOf(r, rows.trend ?? []),
        max: await maxOf(rows.max_id),
        compare: compareOf(r, previous, totals, rows.previous ?? zero),
      };
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
