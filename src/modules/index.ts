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

import { createAccountService } from './accounts/accounts.service.ts';
import { createAdminService } from './admin/admin.service.ts';
import { createBackupService } from './backups/backups.service.ts';
import { createBillImportService } from './bill-import/bill-import.service.ts';
import { createBudgetService } from './budgets/budgets.service.ts';
import { createCategoryService } from './categories/categories.service.ts';
import { createConfigService } from './system/config.service.ts';
import { createFeedbackService } from './feedback/feedback.service.ts';
import { createFilterService } from './filters/filters.service.ts';
import { createGroupsService } from './groups/groups.service.ts';
import { createLogsService } from './logs/logs.service.ts';
import { createMeService } from './me/me.service.ts';
import { createNotificationsService } from './notifications/notifications.service.ts';
import { createRateService } from './rates/rates.service.ts';
import { createRecurringService } from './recurring/recurring.service.ts';
import { createSplitsService } from './splits/splits.service.ts';
import { createStatsService } from './stats/stats.service.ts';
import { createTagService } from './tags/tags.service.ts';
import { createTrackService } from './track/track.service.ts';
import { createTransactionService } from './transactions/transactions.service.ts';

/**
 * The composition root: every feature service is built here once, from the dependencies it names
 * (database, clock, the configuration slice it reads, the hooks it calls), and each feature's routes
 * are registered with the services they use. Route plugins never build a service themselves.
 */
export function buildServices(app: FastifyInstance) {
  return {
    accounts: createAccountService({ db: app.db, clock: app.clock, config: app.config }),
    admin: createAdminService({ db: app.db, clock: app.clock, config: app.config, onUserChanged: (id) => app.userState.invalidate(id) }),
    backups: createBackupService({ db: app.db, clock: app.clock, config: app.config, log: app.log }),
    billImport: createBillImportService({ db: app.db, clock: app.clock, config: app.config }),
    budgets: createBudgetService({ db: app.db, clock: app.clock, config: app.config }),
    categories: createCategoryService({ db: app.db, clock: app.clock, config: app.config }),
    systemConfig: createConfigService({ db: app.db, clock: app.clock, config: app.config }),
    feedback: createFeedbackService({ db: app.db, clock: app.clock }),
    filters: createFilterService({ db: app.db, clock: app.clock }),
    groups: createGroupsService({ db: app.db, clock: app.clock, defaultCurrency: app.config.defaultCurrency }),
    logs: createLogsService({ clock: app.clock, config: app.config }),
    me: createMeService({ db: app.db, clock: app.clock }),
    notifications: createNotificationsService({ db: app.db, clock: app.clock }),
    rates: createRateService({ db: app.db, clock: app.clock, config: {} }),
    recurring: createRecurringService({ db: app.db, clock: app.clock, config: app.config }),
    splits: createSplitsService({ db: app.db, clock: app.clock, config: app.config }),
    stats: createStatsService({ db: app.db, clock: app.clock, config: app.config }),
    tags: createTagService({ db: app.db, clock: app.clock }),
    track: createTrackService({ db: app.db, clock: app.clock, config: app.config }),
    transactions: createTransactionService({ db: app.db, clock: app.clock }),
  };
}

export type Services = ReturnType<typeof buildServices>;

/** Every feature's routes, in this order, after the plugins they depend on (called by buildApp). */
export async function registerModules(app: FastifyInstance, services: Services = buildServices(app)): Promise<void> {
  await app.register(systemRoutes, { systemConfig: services.systemConfig });
  await app.register(identityRoutes);
  await app.register(meRoutes, { me: services.me });
  await app.register(apiTokensRoutes);
  await app.register(transactionsRoutes, { transactions: services.transactions });
  await app.register(accountsRoutes, { accounts: services.accounts });
  await app.register(ratesRoutes, { rates: services.rates });
  await app.register(tagsRoutes, { tags: services.tags });
  await app.register(filtersRoutes, { filters: services.filters });
  await app.register(categoriesRoutes, { categories: services.categories });
  await app.register(statsRoutes, { stats: services.stats });
  await app.register(budgetsRoutes, { budgets: services.budgets });
  await app.register(groupsRoutes, { groups: services.groups, splits: services.splits });
  await app.register(splitsRoutes, { splits: services.splits });
  await app.register(notificationsRoutes, { notifications: services.notifications });
  await app.register(feedbackRoutes, { feedback: services.feedback });
  await app.register(adminRoutes, { admin: services.admin });
  await app.register(backupsRoutes, { backups: services.backups });
  await app.register(logsRoutes, { logs: services.logs });
  await app.register(trackRoutes, { track: services.track });
  await app.register(exportImportRoutes);
  await app.register(billImportRoutes, { billImport: services.billImport });
  await app.register(recurringRoutes, { recurring: services.recurring });
}

/** Jobs of the minute scheduler, run at start-up and then every minute. */
export const tasks: SchedulerTask[] = [recurringTask, demoPurgeTask, ratesFetchTask, importPurgeTask];
