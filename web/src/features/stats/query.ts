// The statistics page's choice and the summary query it makes: kept apart from the store so that
// the start of the page (early.ts) can ask for the month's summary before the app has loaded.
import { ClientError } from '../../api/client';
import type { StatsQuery } from '../../api/types';

export type Period = 'week' | 'month' | 'year' | 'custom';

/** What the page shows: a period around a day (or a custom range), whose books, and which rows. */
export interface StatsChoice {
  period: Period;
  type: 'expense' | 'income';
  /** the day the week, month or year is taken around */
  anchor: string;
  /** the custom range */
  start: string;
  end: string;
  groupId: number | null;
  /** personal view only: one account, and group records counted as paid or as my share */
  accountId: number | null;
  view: 'paid' | 'share';
  tagId: number | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function rangeOk(c: Pick<StatsChoice, 'start' | 'end'>): boolean {
  return DATE.test(c.start) && DATE.test(c.end) && c.start <= c.end;
}

/** The summary's query for a choice; a custom range that ends before it starts is refused here. */
export function summaryQuery(c: StatsChoice): StatsQuery {
  if (c.period === 'custom' && !rangeOk(c)) throw new ClientError('stats.rangeOrder');
  const when = c.period === 'custom' ? { start: c.start, end: c.end } : { date: c.anchor };
  const whose = c.groupId
    ? { group_id: c.groupId }
    : {
        ...(c.accountId ? { account_id: c.accountId } : {}),
        ...(c.view === 'share' ? { view: 'share' as const } : {}),
      };
  return { period: c.period, type: c.type, ...when, ...whose, ...(c.tagId ? { tag_id: c.tagId } : {}) };
}

/** The choice the page opens with: this month's expense, personal or of the group shown. */
export function defaultChoice(today: string, groupId: number | null): StatsChoice {
  return {
    period: 'month',
    type: 'expense',
    anchor: today,
    start: `${today.slice(0, 8)}01`,
    end: today,
    groupId,
    accountId: null,
    view: 'paid',
    tagId: null,
  };
}
