import type { SchedulerTask } from '../scheduler.ts';
import { purgeExpired } from './bills.repo.ts';

/** Import previews live a day: expired ones go with their rows. */
export const importPurgeTask: SchedulerTask = {
  name: 'import-preview-purge',
  run: async ({ db, log }, now) => {
    const purged = await purgeExpired(db, now);
    if (purged) log.info({ purged }, 'expired import previews purged');
    return { purged };
  },
};
