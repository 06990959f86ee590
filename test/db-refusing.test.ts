import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createDatabase, runMigrations } from '../src/db/client.ts';
import {
  assertError,
  blankPgDatabase,
  build,
  createUser,
  PG_SERVER,
  pgServerAnswers,
  pgServerLabel,
  type TestApp,
  type TestDatabase,
} from './helpers/index.ts';

async function onServer(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_SERVER });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

// PostgreSQL only (also from the embedded suite, on the local server): a database closed to new
// connections answers SQLSTATE 55000, which must read as an outage (503), not an internal error.
describe('a PostgreSQL database that refuses connections', () => {
  let t: TestApp | null = null;
  let name = '';
  let own: TestDatabase | null = null;

  before(async () => {
    if (!(await pgServerAnswers())) return;
    const blank = await blankPgDatabase('ledger_refusing');
    name = new URL(blank.url).pathname.slice(1);
    const database = await createDatabase({
      databaseUrl: blank.url,
      embeddedDbDir: null,
      poolSize: 4,
      connectTimeoutMs: 3000,
    });
    await runMigrations(database);
    own = {
      database,
      url: blank.url,
      async drop() {
        await database.close();
        await blank.drop();
      },
    };
    t = await build({}, { database: own });
  });

  after(async () => {
    if (name) await onServer(`alter database "${name}" allow_connections true`).catch(() => {});
    await t?.close();
    await own?.drop();
  });

  it('answers 503 (50301) with Retry-After, then serves again once it accepts them', async (ctx) => {
    if (!t) {
      ctx.skip(`no PostgreSQL at ${pgServerLabel()}`);
      return;
    }
    const user = await createUser(t.db);
    const client = t.as(user);
    assert.equal((await client.get('/api/categories')).statusCode, 200);

    await onServer(`alter database "${name}" allow_connections false`);
    // the pool's open connections are closed by the server; new ones are refused with 55000
    await onServer(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
    );
    for (const path of ['/api/categories', '/api/me', '/api/transactions']) {
      const res = await client.get(path);
      assertError(res, 503, 50301);
      assert.ok(Number(res.headers['retry-after']) > 0, `${path}: Retry-After`);
      assert.doesNotMatch(res.body, /accepting connections|55000/, 'the reason stays in the log');
    }
    const health = await t.anon.get('/api/health');
    assert.equal(health.statusCode, 503);

    await onServer(`alter database "${name}" allow_connections true`);
    assert.equal((await client.get('/api/categories')).statusCode, 200);
  });
});
