import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { Database, Db } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { accessToken, clientOf, loginAs, type Client } from './http.ts';

// one data folder for the test process (backups written through the API land in it), removed when
// the process ends
const processDataDir = mkdtempSync(path.join(tmpdir(), 'ledger-test-data-'));
process.on('exit', () => rmSync(processDataDir, { recursive: true, force: true }));

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789abcdef';

export function testConfig(overrides: Partial<Config> = {}): Readonly<Config> {
  return Object.freeze({
    version: '1.0.0-test',
    port: 0,
    host: '127.0.0.1',
    databaseUrl: null,
    dataDir: processDataDir,
    embeddedDbDir: null,
    jwtSecret: TEST_SECRET,
    jwtSecretGenerated: false,
    logDir: path.join(processDataDir, 'logs'),
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
    registration: 'open',
    publicUrl: 'http://localhost:3200',
    // cheap hashing keeps the suite fast; the production cost is tested on its own
    passwordHashing: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    trustProxy: false,
    timeouts: { requestMs: 60_000, headersMs: 10_000, keepAliveMs: 72_000, connectionMs: 120_000 },
    defaultCurrency: 'CNY',
    shutdownGraceMs: 25_000,
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: Database;
  testDb: TestDatabase;
  /** requests signed in as this user (a fresh access token per client) */
  as(user: { id: number; role?: string | null }): Client;
  /** a freshly signed access token for this user, for a `?token=` or a hand-made header */
  tokenFor(user: { id: number; role?: string | null }): Promise<string>;
  /** requests with no credentials */
  anon: Client;
  /** requests carrying this bearer token (from a login response, or made by hand) */
  withToken(token: string): Client;
  /** requests sending these headers (another scheme, a forged header, ...) */
  withHeaders(headers: Record<string, string>): Client;
  close(): Promise<void>;
}

/**
 * An app on a fresh database of its own: call once per test file (in `before`), close in `after`.
 * With `opts.database`, a second app instance on that same database (closing it leaves the database).
 */
export async function build(overrides: Partial<Config> = {}, opts: { database?: TestDatabase } = {}): Promise<TestApp> {
  const shared = opts.database;
  const testDb = shared ?? (await createTestDatabase());
  // TEST_LOG=debug shows the app's log on stderr while debugging a test
  const logger = process.env.TEST_LOG ? pino({ level: process.env.TEST_LOG }, pino.destination(2)) : undefined;
  let app: FastifyInstance;
  try {
    app = await buildApp(testConfig(overrides), { database: testDb.database, logger });
    await app.ready();
  } catch (err) {
    if (!shared) await testDb.drop();
    throw err;
  }
  return {
    app,
    db: testDb.database.db,
    database: testDb.database,
    testDb,
    as: (user) => clientOf(app, () => loginAs(app, user)),
    tokenFor: (user) => accessToken(app, user),
    anon: clientOf(app, () => ({})),
    withToken: (token) => clientOf(app, () => ({ authorization: `Bearer ${token}` })),
    withHeaders: (headers) => clientOf(app, () => headers),
    async close() {
      await app.close();
      if (!shared) await testDb.drop();
    },
  };
}
