import type { SchedulerTask } from '../scheduler.ts';

export const recurringTask: SchedulerTask = { name: 'recurring', run: async () => {} };
