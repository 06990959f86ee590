import type { SchedulerTask } from '../scheduler.ts';
import { generateDue } from './recurring.service.ts';

/** Creates the due transactions of every active recurring rule (catch-up included). */
export const recurringTask: SchedulerTask = {
  name: 'recurring',
  run: async (app, now) => {
    const result = await generateDue(app.db, app.config.appTimezone, now);
    if (result.created) app.log.info(result, 'recurring transactions generated');
    return result;
  },
};
