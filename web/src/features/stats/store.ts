// The statistics page's data: the summary of the chosen period and the budget of its month, read
// together for the latest choice (an answer for an earlier choice arriving late is dropped).
import { defineStore } from 'pinia';
import { computed } from 'vue';
import type { Budget, Summary } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { fetchBudget } from '../budget';
import { fetchSummary } from './api';
import { summaryQuery, type StatsChoice } from './query';

export { rangeOk, summaryQuery, type Period, type StatsChoice } from './query';

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
