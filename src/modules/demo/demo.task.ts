import type { SchedulerTask } from '../scheduler.ts';

export const demoPurgeTask: SchedulerTask = { name: 'demo-purge', run: async () => {} };
