// The recurring feature's face: the recurring rules. Other features import this file only.
export { useRecurringStore } from './store';
