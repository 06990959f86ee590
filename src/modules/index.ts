import type { FastifyInstance } from 'fastify';
import accountsRoutes from './accounts/accounts.routes.ts';
import adminRoutes from './admin/admin.routes.ts';
import backupsRoutes from './backups/backups.routes.ts';
import billImportRoutes from './bill-import/bill-import.routes.ts';
import { importPurgeTask } from './bill-import/bill-import.task.ts';
import budgetsRoutes from './budgets/budgets.routes.ts';
import categoriesRoutes from './categories/categories.routes.ts';
import { demoPurgeTask } from './demo/demo.task.ts';
import exportImportRoutes from './export-import/export-import.routes.ts';
import feedbackRoutes from './feedback/feedback.routes.ts';
import filtersRoutes from './filters/filters.routes.ts';
import groupsRoutes from './groups/groups.routes.ts';
import { apiTokensRoutes, identityRoutes } from './identity/index.ts';
import logsRoutes from './logs/logs.routes.ts';
import meRoutes from './me/me.routes.ts';
import notificationsRoutes from './notifications/notifications.routes.ts';
import ratesRoutes from './rates/rates.routes.ts';
import { ratesFetchTask } from './rates/rates.fetch.ts';
import recurringRoutes from './recurring/recurring.routes.ts';
import { recurringTask } from './recurring/recurring.task.ts';
import type { SchedulerTask } from './scheduler.ts';
import splitsRoutes from './splits/splits.routes.ts';
import statsRoutes from './stats/stats.routes.ts';
import systemRoutes from './system/system.routes.ts';
import tagsRoutes from './tags/tags.routes.ts';
import trackRoutes from './track/track.routes.ts';
import transactionsRoutes from './transactions/transactions.routes.ts';

/** Every feature's routes, registered in this order by buildApp. */
export const modules: ((app: FastifyInstance) => Promise<void>)[] = [
  systemRoutes,
  identityRoutes,
  meRoutes,
  apiTokensRoutes,
  transactionsRoutes,
  accountsRoutes,
  ratesRoutes,
  tagsRoutes,
  filtersRoutes,
  categoriesRoutes,
  statsRoutes,
  budgetsRoutes,
  groupsRoutes,
  splitsRoutes,
  notificationsRoutes,
  feedbackRoutes,
  adminRoutes,
  backupsRoutes,
  logsRoutes,
  trackRoutes,
  exportImportRoutes,
  billImportRoutes,
  recurringRoutes,
];

/** Jobs of the minute scheduler, run at start-up and then every minute. */
export const tasks: SchedulerTask[] = [recurringTask, demoPurgeTask, ratesFetchTask, importPurgeTask];
