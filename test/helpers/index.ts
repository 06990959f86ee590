// The one entry every test file imports: the app on a fresh database, requests in a user's name,
// assertions on the contract's answers, and factories that write rows directly.
export { build, testConfig, TEST_SECRET, type TestApp } from './app.ts';
export { loginAs, type Client, type Query, type RequestOptions, type Response, type Upload } from './http.ts';
export {
  blankPgDatabase,
  createTestDatabase,
  onPostgres,
  PG_SERVER,
  pgServerAnswers,
  pgServerLabel,
  TEST_DATABASE_URL,
  type TestDatabase,
} from './db.ts';
export { runCli } from './cli.ts';
export { entryArgs } from './entry.ts';
export { assertError, expectOk } from './assert.ts';
export * from './factories/users.ts';
export * from './factories/books.ts';
export * from './factories/groups.ts';
export * from './factories/messages.ts';
export * from './factories/files.ts';
export { unique } from './factories/seq.ts';
export { documentedRoutes, isReferenceField, referenceKeys, type DocumentedRoute, type Method } from './openapi.ts';
export { REDIS_URL, redisAnswers } from './redis.ts';
export { startFakeWechat } from './wechat.ts';
