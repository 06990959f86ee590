import type { SchedulerTask } from '../scheduler.ts';
import { generateDue } from './recurring.service.ts';

/** Creates the due transactions of every active recurring rule (catch-up included). */
export const recurringTask: SchedulerTask = {
  name: 'recurring',
  run: async ({ db, config, log }, now) => {
    const result = await generateDue(db, config.appTimezone, now);
    if (result.created) log.info(result, 'recurring transactions generated');
    return result;
  },
};
