import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { Database, Db } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789abcdef';

export function testConfig(overrides: Partial<Config> = {}): Readonly<Config> {
  return Object.freeze({
    version: '1.0.0-test',
    port: 0,
    host: '127.0.0.1',
    databaseUrl: null,
    dataDir: '/tmp/ledger-test-data',
    embeddedDbDir: null,
    jwtSecret: TEST_SECRET,
    jwtSecretGenerated: false,
    logDir: '/tmp/ledger-test-logs',
    logLevel: 'silent',
    logToStdout: false,
    appTimezone: 'UTC',
    demoLogin: true,
    wechat: { appId: 'wx-test-app', secret: 'wx-test-secret', apiBase: 'http://127.0.0.1:9' },
    adminOpenids: [],
    redisUrl: null,
    corsOrigins: [],
    rateLimit: { enabled: false, global: 600, auth: 30, demo: 5 },
    authCacheTtlMs: 60_000,
    scheduler: false,
    webClient: true,
    trustProxy: false,
    timeouts: { requestMs: 60_000, headersMs: 10_000, keepAliveMs: 72_000, connectionMs: 120_000 },
    shutdownGraceMs: 25_000,
    ...overrides,
  });
}

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  database: Database;
  testDb: TestDatabase;
  close(): Promise<void>;
}

/**
 * An app on a fresh database of its own. Call once per test file (in `before`) and close in `after`.
 * Pass `database` to put a second app instance on the same database.
 */
export async function createTestApp(overrides: Partial<Config> = {}, shared?: TestDatabase): Promise<TestContext> {
  const testDb = shared ?? (await createTestDatabase());
  // TEST_LOG=debug shows the app's log on stderr while debugging a test
  const logger = process.env.TEST_LOG ? pino({ level: process.env.TEST_LOG }, pino.destination(2)) : undefined;
  const app = await buildApp(testConfig(overrides), { database: testDb.database, logger });
  await app.ready();
  return {
    app,
    db: testDb.database.db,
    database: testDb.database,
    testDb,
    async close() {
      await app.close();
      if (!shared) await testDb.drop();
    },
  };
}
