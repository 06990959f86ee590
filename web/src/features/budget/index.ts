// The budget feature's face: the month's budget card shown beside the statistics, and the read of a
// month's budget that the statistics page makes with its own answers. Other features import this file only.
export { default as BudgetCard } from './components/BudgetCard.vue';
export { useBudgetStore } from './store';
export { fetchBudget } from './api';
