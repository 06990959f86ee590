import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import { addDays, diffDays, isValidDate, periodRange, previousPeriodRange, todayIn } from '../../lib/dates.ts';
import type { CategoryKind as TransactionKind } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import { baseCurrencyOf, requireAccount, requireGroupMember, requireTag, userTimezone } from '../books/index.ts';
import type * as statsRepo from './stats.repo.ts';
import type { DateRange, StatsScope } from './stats.repo.ts';
import type { StatsQuery } from './stats.schemas.ts';

/** What the statistics use cases are built from. */
export interface StatsDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appTimezone'>;
  repo: typeof statsRepo;
}

/** a custom range longer than this many days is charted per month */
const DAILY_TREND_MAX_DAYS = 62;
/** the longest custom range: ten years */
const CUSTOM_MAX_DAYS = 3660;

/** A statistics query checked and made concrete: whose rows, which ranges, in which currency. */
export interface Resolved {
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
  if (diffDays(range.start, range.end) + 1 > CUSTOM_MAX_DAYS)
    throw Errors.field('end', `must be at most ${CUSTOM_MAX_DAYS} days after start`);
  return range;
}

/** Checks the query (40001), the tag (the caller's, else 40001) and the group (member, else 40302). */
export async function resolve(deps: StatsDeps, userId: number, q: StatsQuery): Promise<Resolved> {
  const { db, clock, config } = deps;
  await checkFilters(deps, userId, q);
  const base = await baseCurrencyOf(db, userId);
  const today = todayIn(await userTimezone(db, userId, config.appTimezone), clock.now());
  const { current, previous, unit } = rangesOf(q, today);
  return {
    scope: {
      userId,
      groupId: q.group_id,
      memberId: q.user_id,
      tagId: q.tag_id,
      accountId: q.account_id,
      view: q.view,
    },
    base,
    major: (minor: number) => toMajorUnits(minor, base),
    unit,
    previous,
    type: q.type ?? 'expense',
    today,
    current,
  };
}

/** The date, and the tag, group, member and account filters the caller may use together. */
async function checkFilters({ db }: StatsDeps, userId: number, q: StatsQuery): Promise<void> {
  if (q.date !== undefined && !isValidDate(q.date)) throw Errors.field('date', 'must be a valid date YYYY-MM-DD');
  // the period and the one before it must stay within the years 1 to 9999 that dates can hold
  if (q.date !== undefined && (q.date < '0002-01-01' || q.date > '9998-12-31'))
    throw Errors.field('date', 'must be between 0002-01-01 and 9998-12-31');
  if (q.tag_id !== undefined) await requireTag(db, userId, q.tag_id);
  if (q.group_id !== undefined && q.view === 'share')
    throw Errors.field('view', 'is only for personal statistics (without group_id)');
  if (q.group_id !== undefined) await requireGroupMember(db, q.group_id, userId);
  if (q.user_id !== undefined && q.group_id === undefined)
    throw Errors.field('user_id', 'filters a group view by member: give group_id as well');
  if (q.account_id !== undefined) {
    // accounts are personal: a group view is filtered by member instead
    if (q.group_id !== undefined)
      throw Errors.field('account_id', 'cannot be combined with group_id: filter a group view by member (user_id)');
    await requireAccount(db, userId, q.account_id, { field: 'account_id' });
  }
}

/** The period asked for (the month of today by default), the one compared with, and the trend's unit. */
function rangesOf(q: StatsQuery, today: string): Pick<Resolved, 'current' | 'previous' | 'unit'> {
  const period = q.period ?? 'month';
  if (period === 'custom') {
    const current = customRange(q);
    const days = diffDays(current.start, current.end) + 1;
    const previous = { start: addDays(current.start, -days), end: addDays(current.start, -1) };
    return { current, previous, unit: days > DAILY_TREND_MAX_DAYS ? 'month' : 'day' };
  }
  if (q.start !== undefined || q.end !== undefined)
    throw Errors.field(q.start !== undefined ? 'start' : 'end', 'is only for period=custom');
  const current = periodRange(period, q.date ?? today);
  const previous = previousPeriodRange(period, current.start);
  return { current, previous, unit: period === 'year' ? 'month' : 'day' };
}
