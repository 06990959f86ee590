// The statistics use cases: each checks the query, runs one statement and shapes its rows.
import { Errors } from '../../lib/errors.ts';
import { loadTransactionViews } from '../transactions/index.ts';
import { compareOf, overviewOf, percentOf, shareOf, trendOf, zero } from './stats.figures.ts';
import { resolve, type StatsDeps } from './stats.resolve.ts';
import type {
  AccountBreakdown,
  CategoryShare,
  Compare,
  MaxResult,
  Overview,
  StatsQuery,
  Summary,
  Trend,
} from './stats.schemas.ts';

async function maxOf({ db }: StatsDeps, maxId: number | null): Promise<MaxResult> {
  if (maxId === null) return { transaction: null };
  const [view] = await loadTransactionViews(db, [maxId]);
  return { transaction: view ?? null };
}

export async function overview(deps: StatsDeps, userId: number, q: StatsQuery): Promise<Overview> {
  const r = await resolve(deps, userId, q);
  const rows = await deps.repo.runStats(deps.db, r.scope, { current: r.current, type: r.type, overview: true });
  return overviewOf(r, rows.overview ?? zero);
}

export async function categoryShare(deps: StatsDeps, userId: number, q: StatsQuery): Promise<CategoryShare> {
  const r = await resolve(deps, userId, q);
  const rows = await deps.repo.runStats(deps.db, r.scope, { current: r.current, type: r.type, share: true });
  return shareOf(r, rows.share ?? [], r.scope.groupId !== undefined);
}

export async function trend(deps: StatsDeps, userId: number, q: StatsQuery): Promise<Trend> {
  const r = await resolve(deps, userId, q);
  const rows = await deps.repo.runStats(deps.db, r.scope, { current: r.current, type: r.type, trend: r.unit });
  return trendOf(r, rows.trend ?? []);
}

export async function max(deps: StatsDeps, userId: number, q: StatsQuery): Promise<MaxResult> {
  const r = await resolve(deps, userId, q);
  const rows = await deps.repo.runStats(deps.db, r.scope, { current: r.current, type: r.type, max: true });
  return maxOf(deps, rows.max_id);
}

export async function compare(deps: StatsDeps, userId: number, q: StatsQuery): Promise<Compare> {
  const r = await resolve(deps, userId, q);
  const previous = r.previous;
  const rows = await deps.repo.runStats(deps.db, r.scope, {
    current: r.current,
    type: r.type,
    overview: true,
    previous,
  });
  return compareOf(r, previous, rows.overview ?? zero, rows.previous ?? zero);
}

/** Income and expense per account of the caller (personal view only). */
export async function byAccount(deps: StatsDeps, userId: number, q: StatsQuery): Promise<AccountBreakdown> {
  if (q.group_id !== undefined)
    throw Errors.field('group_id', 'accounts are personal: the by-account breakdown has no group view');
  const r = await resolve(deps, userId, q);
  const rows = await deps.repo.byAccount(deps.db, r.scope, r.current);
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
}

/** The five statistics from one statement (plus the largest transaction's view). */
export async function summary(deps: StatsDeps, userId: number, q: StatsQuery): Promise<Summary> {
  const r = await resolve(deps, userId, q);
  const previous = r.previous;
  const rows = await deps.repo.runStats(deps.db, r.scope, {
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
    max: await maxOf(deps, rows.max_id),
    compare: compareOf(r, previous, totals, rows.previous ?? zero),
  };
}
