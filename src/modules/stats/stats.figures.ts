// The statistics as the API answers them, shaped from the rows of one statement.
import { diffDays, eachDay, eachMonth } from '../../lib/dates.ts';
import type * as statsRepo from './stats.repo.ts';
import type { DateRange } from './stats.repo.ts';
import type { Resolved } from './stats.resolve.ts';
import type { CategoryShare, Compare, Overview, Trend } from './stats.schemas.ts';

/** Days of `range` up to `today`: all of them for a past period, at least 1 (a future period). */
export function elapsedDays(range: DateRange, today: string): number {
  if (today < range.start) return 1;
  const last = today < range.end ? today : range.end;
  return diffDays(range.start, last) + 1;
}

/** Percentage (2 decimals) of part in total, by integer arithmetic on minor units. */
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

export const zero: statsRepo.Totals = { income: 0, expense: 0, count: 0 };

export function overviewOf(r: Resolved, totals: statsRepo.Totals): Overview {
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
export function shareOf(r0: Resolved, rows: statsRepo.ShareRow[], merge: boolean): CategoryShare {
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

export function trendOf(r: Resolved, rows: statsRepo.TrendRow[]): Trend {
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

export function compareOf(r: Resolved, previous: DateRange, cur: statsRepo.Totals, prev: statsRepo.Totals): Compare {
  return {
    current: {
      start: r.current.start,
      end: r.current.end,
      income: r.major(cur.income),
      expense: r.major(cur.expense),
    },
    previous: {
      start: previous.start,
      end: previous.end,
      income: r.major(prev.income),
      expense: r.major(prev.expense),
    },
    change: {
      income_percent: changePercent(cur.income, prev.income),
      expense_percent: changePercent(cur.expense, prev.expense),
    },
  };
}
