import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { entryArgs } from './helpers/entry.ts';
import { tempDirs } from './helpers/temp.ts';

// temporary folders of this file, removed when it ends
const tempDir = tempDirs();

const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };

function startServer(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, entryArgs('server'), {
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** generous: CI starts these servers beside other suites on a busy machine */
async function waitHealthy(port: number, ms = 90_000): Promise<Response> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error('server did not become healthy');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('configuration', () => {
  it('validates every variable with a readable message', () => {
    const dir = tempDir('cfg-');
    const bad: Record<string, string>[] = [
      { JWT_SECRET: 'short' },
      { PORT: 'eighty' },
      { PORT: '70000' },
      { DATABASE_URL: 'mysql://x' },
      { LOG_LEVEL: 'loud' },
      { APP_TIMEZONE: 'Nowhere/Land' },
      { DEMO_LOGIN: 'maybe' },
      { REDIS_URL: 'http://x' },
      { WECHAT_API_BASE: 'not a url' },
      { CORS_ORIGINS: 'ftp://x' },
      { DEFAULT_CURRENCY: 'RMB' },
      { DEFAULT_CURRENCY: 'EURO' },
    ];
    for (const env of bad) assert.throws(() => loadConfig({ DATA_DIR: dir, ...env }), ConfigError, JSON.stringify(env));
    const cfg = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: 'x'.repeat(32),
      PORT: '8080',
      DEMO_LOGIN: 'false',
      ADMIN_OPENIDS: 'a, b',
      APP_TIMEZONE: 'Asia/Shanghai',
    });
    assert.equal(cfg.port, 8080);
    assert.equal(cfg.defaultCurrency, 'CNY');
    assert.equal(loadConfig({ DATA_DIR: dir, DEFAULT_CURRENCY: 'eur' }).defaultCurrency, 'EUR');
    assert.equal(cfg.demoLogin, false);
    assert.deepEqual(cfg.adminOpenids, ['a', 'b']);
    assert.equal(cfg.databaseUrl, null);
    assert.equal(cfg.embeddedDbDir, path.join(dir, 'db'));
    assert.ok(Object.isFrozen(cfg));
  });

  it('generates the JWT secret once, stores it in the data folder and reuses it', () => {
    const dir = tempDir('cfg-');
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    assert.equal(a.jwtSecretGenerated, true);
    assert.ok(a.jwtSecret.length >= 32);
    assert.equal(a.jwtSecret, b.jwtSecret);
    assert.equal(readFileSync(path.join(dir, 'jwt-secret'), 'utf8').trim(), a.jwtSecret);
  });
});

describe('the server process', () => {
  it('exits non-zero before listening when JWT_SECRET is too short', async () => {
    const dir = tempDir('srv-');
    const s = startServer({ DATA_DIR: dir, JWT_SECRET: 'too-short', PORT: '39071' });
    const code = await s.exited;
    assert.notEqual(code, 0);
    assert.match(s.output(), /JWT_SECRET must be at least 32 characters/);
    assert.ok(!existsSync(path.join(dir, 'db')), 'nothing was opened');
  });

  it('starts on the embedded database, logs to a daily file, refuses a second process on the same folder, and stops on SIGTERM', async () => {
    const dir = tempDir('srv-');
    const first = startServer({ DATA_DIR: dir, PORT: '39072' });
    try {
      const res = await waitHealthy(39072);
      assert.equal((await res.json()).db, 'ok');
      assert.match(first.output(), /JWT_SECRET is not set/);
      await fetch('http://127.0.0.1:39072/api/export?token=very-secret-token-value&x=1', {
        headers: { authorization: 'Bearer another-secret-value' },
      });
      const second = startServer({ DATA_DIR: dir, PORT: '39073' });
      const code = await second.exited;
      assert.notEqual(code, 0);
      assert.match(second.output(), /in use by another running instance/);
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0);
      const logs = readdirSync(path.join(dir, 'logs'));
      assert.equal(logs.length, 1);
      assert.match(logs[0]!, /^app-\d{4}-\d{2}-\d{2}\.log$/);
      const text = readFileSync(path.join(dir, 'logs', logs[0]!), 'utf8');
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.ok(lines.some((l) => l.req?.url?.includes('token=[REDACTED]')));
      assert.ok(!text.includes('very-secret-token-value') && !text.includes('another-secret-value'));
      for (const l of lines.filter((x) => x.req || x.res)) assert.ok(l.reqId, 'request lines carry the request id');
    } finally {
      first.child.kill('SIGKILL');
    }
    // the lock is released on a clean stop: the folder opens again
    const again = startServer({ DATA_DIR: dir, PORT: '39074' });
    try {
      await waitHealthy(39074);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  });
});
