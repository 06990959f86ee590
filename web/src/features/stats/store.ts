// The statistics page's data: the summary of the chosen period and the budget of its month, read
// together for the latest choice (an answer for an earlier choice arriving late is dropped).
import { defineStore } from 'pinia';
import { computed } from 'vue';
import { ClientError } from '../../api/client';
import type { Budget, StatsQuery, Summary } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { fetchBudget } from '../budget/api';
import { fetchSummary } from './api';

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
    : { ...(c.accountId ? { account_id: c.accountId } : {}), ...(c.view === 'share' ? { view: 'share' as const } : {}) };
  return { period: c.period, type: c.type, ...when, ...whose, ...(c.tagId ? { tag_id: c.tagId } : {}) };
}

export const useStatsStore = defineStore('stats', () => {
  let choice: StatsChoice | null = null;
  const page = createLoader(async (): Promise<{ summary: Summary; budget: Budget | null } | null> => {
    if (!choice) return null;
    const c = choice;
    const [summary, budget] = await Promise.all([
      fetchSummary(summaryQuery(c)),
      // the budget is a side card: the page shows without it
      fetchBudget(c.anchor.slice(0, 7), c.groupId).catch(() => null),
    ]);
    return { summary, budget };
  }, null);

  /** Shows a new choice. */
  function show(c: StatsChoice): Promise<void> {
    choice = { ...c };
    return page.load();
  }

  return {
    summary: computed(() => page.data.value?.summary ?? null),
    budget: computed(() => page.data.value?.budget ?? null),
    loading: page.loading,
    error: page.error,
    show,
    /** reads the current choice again (after a failure) */
    reload: page.load,
  };
});
