import { availableParallelism } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_BRUTE_FORCE, DEFAULT_RECEIPTS, DEFAULT_WEBHOOKS } from '../config.ts';
import { accountsRoutes } from './accounts/index.ts';
import { adminRoutes } from './admin/index.ts';
import {
  ATTACHMENT_MAX_PIXELS,
  attachmentsRoutes,
  createAttachmentService,
  sweepAfterRemovals,
} from './attachments/index.ts';
import { backupsRoutes } from './backups/index.ts';
import { createReceiptService, createRecognizer, receiptsRoutes } from './receipts/index.ts';
import { budgetAlertTask, budgetsRoutes } from './budgets/index.ts';
import { categoriesRoutes } from './categories/index.ts';
import { demoPurgeTask } from './demo/index.ts';
import { exportRoutes } from './export/index.ts';
import { feedbackRoutes } from './feedback/index.ts';
import { filtersRoutes } from './filters/index.ts';
import { groupsRoutes } from './groups/index.ts';
import { createGroupImportService, groupImportRoutes } from './group-import/index.ts';
import {
  apiTokensRoutes,
  createApiTokenService,
  createAuthService,
  createMemoryCounterStore,
  createPasskeyService,
  createPasswordHasher,
  createRedisCounterStore,
  createSessionService,
  createSignInGuard,
  createSignInMethodsService,
  createSecondFactorGate,
  createTotpService,
  createWechatProvider,
  createOidcService,
  identityRoutes,
} from './identity/index.ts';
import { importPurgeTask, importRoutes } from './import/index.ts';
import { logsRoutes } from './logs/index.ts';
import { mcpRoutes } from './mcp/index.ts';
import { meRoutes } from './me/index.ts';
import { notificationsRoutes } from './notifications/index.ts';
import { ratesRoutes } from './rates/index.ts';
import { ratesFetchTask } from './rates/index.ts';
import { recurringRoutes } from './recurring/index.ts';
import { recurringTask } from './recurring/index.ts';
import { startScheduler, type SchedulerTask } from './scheduler.ts';
import { splitsRoutes } from './splits/index.ts';
import { statsRoutes } from './stats/index.ts';
import { systemRoutes } from './system/index.ts';
import { tagsRoutes } from './tags/index.ts';
import { trackRoutes } from './track/index.ts';
import { transactionsRoutes } from './transactions/index.ts';
import { createQuickEntryService, quickEntryRoutes } from './quick-entry/index.ts';
import { afterWrite } from './books/index.ts';
import { booksListener, createDeliverer, createWebhookService, webhooksRoutes } from './webhooks/index.ts';

import { createAccountService } from './accounts/index.ts';
import { createAdminService } from './admin/index.ts';
import { createBackupService } from './backups/index.ts';
import { createBillImportService } from './import/index.ts';
import { createBudgetService } from './budgets/index.ts';
import { createCategoryService } from './categories/index.ts';
import { createConfigService } from './system/index.ts';
import { createFeedbackService } from './feedback/index.ts';
import { createFilterService } from './filters/index.ts';
import { createGroupsService, groupById } from './groups/index.ts';
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
 * Identity's services: sign-in (with its lockout counters, password hasher and WeChat provider),
 * passkeys, sessions, sign-in methods and personal API tokens. The API token service is built once
 * here: the identity plugin checks bearer tokens with it and its routes manage them.
 */
function buildIdentityServices(app: FastifyInstance) {
  const { config, db, clock } = app;
  const store = config.redisUrl
    ? createRedisCounterStore(config.redisUrl, config.rateLimit.namespace ?? 'ledger', (err) =>
        app.log.warn({ err: err.message }, 'redis error (sign-in counters)'),
      )
    : createMemoryCounterStore();
  app.addHook('onClose', async () => store.close());
  const guard = createSignInGuard(store, config.bruteForce ?? DEFAULT_BRUTE_FORCE);
  const hasher = createPasswordHasher(config.passwordHashing);
  const provider = createWechatProvider(config.wechat);
  // the user-state cache is read at each call: the shared-invalidation plugin may wrap it later
  const onUserChanged = (id: number) => app.userState.invalidate(id);
  const secondFactor = createSecondFactorGate({ db, tokens: app.tokens });
  const tokens = app.tokens;
  const auth = createAuthService({ db, tokens, provider, hasher, guard, config, onUserChanged, clock, secondFactor });
  return {
    auth,
    passkeys: createPasskeyService({ db, publicUrl: config.publicUrl, rpName: 'Ledger', auth, clock }),
    sessions: createSessionService({ db, onSessionsEnded: onUserChanged, clock }),
    signInMethods: createSignInMethodsService({ db, hasher, guard, provider, onUserChanged, clock }),
    oidc: createOidcService({ db, config, auth, clock }),
    apiTokens: createApiTokenService({ db, clock }),
    totp: createTotpService({
      db,
      clock,
      tokens,
      guard,
      auth,
      serverSecret: config.jwtSecret,
      requireAdminTotp: config.requireAdminTotp ?? false,
    }),
  };
}

/**
 * Receipt recognition: one at a time, its model run on every core (half the wait of one reading per
 * core, and one reading's memory instead of one per core), loaded at the first and closed with the app.
 */
function buildRecognizer(app: FastifyInstance) {
  const receipts = app.config.receipts ?? DEFAULT_RECEIPTS;
  const recognizer = createRecognizer({
    enabled: receipts.ocr,
    concurrency: 1,
    threads: availableParallelism(),
    queue: receipts.queue,
    maxPixels: ATTACHMENT_MAX_PIXELS,
    registry: app.metrics?.registry ?? null,
  });
  app.addHook('onClose', async () => recognizer.close());
  return recognizer;
}

/**
 * Webhooks: the books writer's events go to the outbox in the transaction of each change, and a
 * delivery worker in this process (when the scheduler runs) sends what is due every WEBHOOKS_POLL_MS.
 */
function buildWebhooks(app: FastifyInstance) {
  const config = app.config.webhooks ?? DEFAULT_WEBHOOKS;
  afterWrite.add(booksListener);
  const registry = app.metrics?.registry ?? null;
  const deliverer = createDeliverer({ db: app.db, clock: app.clock, config, log: app.log, registry });
  if (app.config.scheduler) {
    let worker: { stop(): Promise<void> } | null = null;
    const task: SchedulerTask = { name: 'webhook-deliveries', run: () => deliverer.deliverDue() };
    app.addHook('onReady', async () => {
      worker = startScheduler(app, [task], config.pollMs);
    });
    app.addHook('onClose', async () => worker?.stop());
  }
  return createWebhookService({ db: app.db, config, deliverer });
}

/**
 * The composition root: every feature service is built here once, from the dependencies it names
 * (database, clock, the configuration slice it reads, the hooks it calls), and each feature's routes
 * are registered with the services they use. Route plugins never build a service themselves.
 * Built once the database and token plugins are registered (src/app.ts): the identity plugin takes
 * its API token service from here.
 */
export function buildServices(app: FastifyInstance) {
  const categories = createCategoryService({ db: app.db, clock: app.clock, config: app.config });
  const attachments = createAttachmentService({
    db: app.db,
    dataDir: app.config.dataDir,
    receipts: app.config.receipts ?? DEFAULT_RECEIPTS,
  });
  return {
    identity: buildIdentityServices(app),
    quickEntry: createQuickEntryService({ db: app.db, clock: app.clock, config: app.config, categories }),
    accounts: createAccountService({ db: app.db, clock: app.clock, config: app.config }),
    admin: createAdminService({
      db: app.db,
      clock: app.clock,
      config: app.config,
      onUserChanged: (id) => app.userState.invalidate(id),
    }),
    attachments,
    receipts: createReceiptService({ db: app.db, recognizer: buildRecognizer(app), categories, attachments }),
    backups: createBackupService({ db: app.db, clock: app.clock, config: app.config, log: app.log }),
    billImport: createBillImportService({ db: app.db, clock: app.clock, config: app.config }),
    budgets: createBudgetService({ db: app.db, clock: app.clock, config: app.config }),
    categories,
    systemConfig: createConfigService({ db: app.db, clock: app.clock, config: app.config }),
    feedback: createFeedbackService({ db: app.db, clock: app.clock }),
    filters: createFilterService({ db: app.db, clock: app.clock }),
    groups: createGroupsService({ db: app.db, clock: app.clock, defaultCurrency: app.config.defaultCurrency }),
    groupImport: createGroupImportService({ db: app.db }),
    logs: createLogsService({ clock: app.clock, config: app.config }),
    me: createMeService({ db: app.db, clock: app.clock }),
    notifications: createNotificationsService({ db: app.db, clock: app.clock }),
    rates: createRateService({ db: app.db, clock: app.clock, config: app.config }),
    recurring: createRecurringService({ db: app.db, clock: app.clock, config: app.config }),
    splits: createSplitsService({ db: app.db, clock: app.clock, config: app.config, groupById }),
    stats: createStatsService({ db: app.db, clock: app.clock, config: app.config }),
    tags: createTagService({ db: app.db, clock: app.clock }),
    track: createTrackService({ db: app.db, clock: app.clock, config: app.config }),
    transactions: createTransactionService({ db: app.db, clock: app.clock }),
    webhooks: buildWebhooks(app),
  };
}

export type Services = ReturnType<typeof buildServices>;

/** Every feature's routes, in this order, after the plugins they depend on (called by buildApp). */
export async function registerModules(app: FastifyInstance, services: Services): Promise<void> {
  app.addHook('onResponse', sweepAfterRemovals(services.attachments));
  await app.register(systemRoutes, { systemConfig: services.systemConfig });
  await app.register(identityRoutes, services.identity);
  await app.register(meRoutes, { me: services.me });
  await app.register(apiTokensRoutes, { apiTokens: services.identity.apiTokens });
  await app.register(transactionsRoutes, { transactions: services.transactions });
  await app.register(attachmentsRoutes, { attachments: services.attachments });
  await app.register(receiptsRoutes, { receipts: services.receipts });
  await app.register(accountsRoutes, { accounts: services.accounts });
  await app.register(ratesRoutes, { rates: services.rates });
  await app.register(tagsRoutes, { tags: services.tags });
  await app.register(filtersRoutes, { filters: services.filters });
  await app.register(categoriesRoutes, { categories: services.categories });
  await app.register(statsRoutes, { stats: services.stats });
  await app.register(budgetsRoutes, { budgets: services.budgets });
  await app.register(groupsRoutes, { groups: services.groups, splits: services.splits });
  await app.register(splitsRoutes, { splits: services.splits });
  await app.register(groupImportRoutes, { groupImport: services.groupImport });
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
  await app.register(mcpRoutes);
  await app.register(webhooksRoutes, { webhooks: services.webhooks });
}

/** Jobs of the minute scheduler, run at start-up and then every minute. */
export const tasks: SchedulerTask[] = [recurringTask, demoPurgeTask, ratesFetchTask, importPurgeTask, budgetAlertTask];
