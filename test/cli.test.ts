import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { createDatabase, runMigrations } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { blankPgDatabase, createUser, pgServerAnswers, pgServerLabel, runCli } from './helpers/index.ts';
import { tempDirs } from './helpers/temp.ts';

// temporary folders of this file, removed when it ends
const tempDir = tempDirs();

describe('cli user:role', () => {
  it('makes a user an administrator on the embedded database', async () => {
    const dir = tempDir('cli-');
    const database = await createDatabase({ databaseUrl: null, embeddedDbDir: path.join(dir, 'db') });
    await runMigrations(database);
    const user = await createUser(database.db);
    await database.close();
    const res = runCli(['user:role', String(user.id), 'admin'], { DATA_DIR: dir });
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /is now admin/);
    const check = await createDatabase({ databaseUrl: null, embeddedDbDir: path.join(dir, 'db') });
    const [row] = await check.db.select().from(users).where(eq(users.id, user.id));
    assert.equal(row!.role, 'admin');
    await check.close();
    const missing = runCli(['user:role', '999999', 'admin'], { DATA_DIR: dir });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no user with id 999999/);
    const bad = runCli(['user:role', 'abc', 'king'], { DATA_DIR: dir });
    assert.equal(bad.status, 1);
    const unknown = runCli(['frobnicate'], { DATA_DIR: dir });
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /unknown command/);
  });

  it('works against PostgreSQL through DATABASE_URL', async (ctx) => {
    // the suite's server when it runs on PostgreSQL, else the local one; skipped only when none answers
    if (!(await pgServerAnswers())) {
      ctx.skip(`no PostgreSQL server answers at ${pgServerLabel()}`);
      return;
    }
    const blank = await blankPgDatabase('ledger_cli');
    const database = await createDatabase({ databaseUrl: blank.url, embeddedDbDir: null, poolSize: 2 });
    try {
      await runMigrations(database);
      const user = await createUser(database.db);
      const res = runCli(['user:role', String(user.id), 'admin'], {
        DATABASE_URL: blank.url,
        DATA_DIR: tempDir('cli-'),
      });
      assert.equal(res.status, 0, res.stderr);
      const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
      assert.equal(row!.role, 'admin');
    } finally {
      await database.close();
      await blank.drop();
    }
  });
});
