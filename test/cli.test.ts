import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { createDatabase, runMigrations } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { createUser } from './helpers/index.ts';

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
  });
}

describe('cli user:role', () => {
  it('makes a user an administrator on the embedded database', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-'));
    const database = await createDatabase({ databaseUrl: null, embeddedDbDir: path.join(dir, 'db') });
    await runMigrations(database);
    const user = await createUser(database.db);
    await database.close();
    const res = cli(['user:role', String(user.id), 'admin'], { DATA_DIR: dir });
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /is now admin/);
    const check = await createDatabase({ databaseUrl: null, embeddedDbDir: path.join(dir, 'db') });
    const [row] = await check.db.select().from(users).where(eq(users.id, user.id));
    assert.equal(row!.role, 'admin');
    await check.close();
    const missing = cli(['user:role', '999999', 'admin'], { DATA_DIR: dir });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no user with id 999999/);
    const bad = cli(['user:role', 'abc', 'king'], { DATA_DIR: dir });
    assert.equal(bad.status, 1);
    const unknown = cli(['frobnicate'], { DATA_DIR: dir });
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /unknown command/);
  });

  it('works against PostgreSQL through DATABASE_URL', async (ctx) => {
    // the suite's server when it runs on PostgreSQL, else the local one; skipped only when none answers
    const server = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
    } catch {
      ctx.skip(`no PostgreSQL server answers at ${server.replace(/\/\/[^@]*@/, '//')}`);
      return;
    }
    const name = `ledger_cli_${process.pid}_${Date.now()}`;
    await admin.query(`create database "${name}"`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    const database = await createDatabase({ databaseUrl: url.toString(), embeddedDbDir: null, poolSize: 2 });
    try {
      await runMigrations(database);
      const user = await createUser(database.db);
      const res = cli(['user:role', String(user.id), 'admin'], { DATABASE_URL: url.toString(), DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cli-')) });
      assert.equal(res.status, 0, res.stderr);
      const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
      assert.equal(row!.role, 'admin');
    } finally {
      await database.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
