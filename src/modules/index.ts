import type { FastifyInstance } from 'fastify';
import { accountsRoutes } from './accounts/index.ts';
import { adminRoutes } from './admin/index.ts';
import { backupsRoutes } from './backups/index.ts';
import { budgetAlertTask, budgetsRoutes } from './budgets/index.ts';
import { categoriesRoutes } from './categories/index.ts';
import { demoPurgeTask } from './demo/index.ts';
import { exportRoutes } from './export/index.ts';
import { feedbackRoutes } from './feedback/index.ts';
import { filtersRoutes } from './filters/index.ts';
import { groupsRoutes } from './groups/index.ts';
import { apiTokensRoutes, identityRoutes } from './identity/index.ts';
import { importPurgeTask, importRoutes } from './import/index.ts';
import { logsRoutes } from './logs/index.ts';
import { meRoutes } from './me/index.ts';
import { notificationsRoutes } from './notifications/index.ts';
import { ratesRoutes } from './rates/index.ts';
import { ratesFetchTask } from './rates/index.ts';
import { recurringRoutes } from './recurring/index.ts';
import { recurringTask } from './recurring/index.ts';
import type { SchedulerTask } from './scheduler.ts';
import { splitsRoutes } from './splits/index.ts';
import { statsRoutes } from './stats/index.ts';
import { systemRoutes } from './system/index.ts';
import { tagsRoutes } from './tags/index.ts';
import { trackRoutes } from './track/index.ts';
import { transactionsRoutes } from './transactions/index.ts';
import { createQuickEntryService, quickEntryRoutes } from './quick-entry/index.ts';

import { createAccountService } from './accounts/index.ts';
import { createAdminService } from './admin/index.ts';
import { createBackupService } from './backups/index.ts';
import { createBillImportService } from './import/index.ts';
import { createBudgetService } from './budgets/index.ts';
import { createCategoryService } from './categories/index.ts';
import { createConfigService } from './system/index.ts';
import { createFeedbackService } from './feedback/index.ts';
import { createFilterService } from './filters/index.ts';
import { createGroupsService } from './groups/index.ts';
import { createLogsService } from './logs/index.ts';
import { createMeService } from './me/index.ts';
import { createNotificationsService } from './notifications/index.ts';
import { createRateService } from './rates/index.ts';
import { createRecurringService } from './recurring/index.ts';
import { createSplitsService } from './splits/index.ts';
import { createStatsService } from './stats/index.ts';
import { createTagService } from './tags/index.ts';
import { createTrackService } from './track/index.ts';
import { createTransactionService } from './transactions/index.ts';

/**
 * The composition root: every feature service is built here once, from the dependencies it names
 * (database, clock, the configuration slice it reads, the hooks it calls), and each feature's routes
 * are registered with the services they use. Route plugins never build a service themselves.
 */
export function buildServices(app: FastifyInstance) {
  const categories = createCategoryService({ db: app.db, clock: app.clock, config: app.config });
  return {
    quickEntry: createQuickEntryService({ db: app.db, clock: app.clock, config: app.config, categories }),
    accounts: createAccountService({ db: app.db, clock: app.clock, config: app.config }),
    admin: createAdminService({ db: app.db, clock: app.clock, config: app.config, onUserChanged: (id) => app.userState.invalidate(id) }),
    backups: createBackupService({ db: app.db, clock: app.clock, config: app.config, log: app.log }),
    billImport: createBillImportService({ db: app.db, clock: app.clock, config: app.config }),
    budgets: createBudgetService({ db: app.db, clock: app.clock, config: app.config }),
    categories,
    systemConfig: createConfigService({ db: app.db, clock: app.clock, config: app.config }),
    feedback: createFeedbackService({ db: app.db, clock: app.clock }),
    filters: createFilterService({ db: app.db, clock: app.clock }),
    groups: createGroupsService({ db: app.db, clock: app.clock, defaultCurrency: app.config.defaultCurrency }),
    logs: createLogsService({ clock: app.clock, config: app.config }),
    me: createMeService({ db: app.db, clock: app.clock }),
    notifications: createNotificationsService({ db: app.db, clock: app.clock }),
    rates: createRateService({ db: app.db, clock: app.clock, config: app.config }),
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
  await app.register(exportRoutes);
  await app.register(importRoutes, { billImport: services.billImport });
  await app.register(recurringRoutes, { recurring: services.recurring });
  await app.register(quickEntryRoutes, { quickEntry: services.quickEntry });
}

/** Jobs of the minute scheduler, run at start-up and then every minute. */
export const tasks: SchedulerTask[] = [recurringTask, demoPurgeTask, ratesFetchTask, importPurgeTask, budgetAlertTask];
