import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../src/app.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { testConfig } from './helpers/app.ts';
import { runCli } from './helpers/cli.ts';

const cli = (args: string[], input: string, dataDir: string) => runCli(args, { DATA_DIR: dataDir }, input);

describe('cli user:create', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cli-user-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates an administrator and a user with passwords read from standard input, refusing weak passwords and taken names', async () => {
    const admin = cli(['user:create', 'boss', '--admin'], 'a strong admin secret\n', dir);
    assert.equal(admin.status, 0, admin.stderr);
    assert.match(admin.stdout, /created admin boss/);
    assert.ok(!admin.stdout.includes('a strong admin secret') && !admin.stderr.includes('a strong admin secret'));
    const plain = cli(['user:create', 'clerk', '--nickname', 'The Clerk'], 'another fine secret\nignored line\n', dir);
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(plain.stdout, /created user clerk/);

    const weak = cli(['user:create', 'weakling'], 'password\n', dir);
    assert.equal(weak.status, 1);
    assert.match(weak.stderr, /password refused: .*common/);
    const taken = cli(['user:create', 'BOSS'], 'yet another secret\n', dir);
    assert.equal(taken.status, 1);
    assert.match(taken.stderr, /taken/);
    for (const bad of [
      ['user:create'],
      ['user:create', 'x'],
      ['user:create', 'a', 'b'],
      ['user:create', 'ok_name', '--password', 'inline secret'],
    ]) {
      const res = cli(bad, 'some other secret\n', dir);
      assert.equal(res.status, 1, `${bad.join(' ')}: ${res.stdout}`);
    }

    // they sign in through the API with those passwords
    const database: Database = await createDatabase({ databaseUrl: null, embeddedDbDir: path.join(dir, 'db') });
    const app = await buildApp(testConfig({ dataDir: dir }), { database });
    try {
      const login = (username: string, password: string) =>
        app.inject({ method: 'POST', url: '/api/auth/password-login', payload: { username, password } });
      const boss = await login('boss', 'a strong admin secret');
      assert.equal(boss.statusCode, 200, boss.body);
      assert.equal(boss.json().user.role, 'admin');
      const clerk = await login('clerk', 'another fine secret');
      assert.equal(clerk.statusCode, 200, clerk.body);
      assert.equal(clerk.json().user.role, 'user');
      assert.equal(clerk.json().user.nickname, 'The Clerk');
      assert.equal((await login('weakling', 'password')).json().code, 40105);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
