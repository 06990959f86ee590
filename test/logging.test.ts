import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DailyFileStream } from '../src/lib/logger.ts';
import { assertError } from './helpers/assert.ts';

describe('the log', () => {
  it('a log file that cannot be written falls back to stdout and says so', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-log-'));
    try {
      // a file where the log folder should be: every open fails
      const blocked = path.join(dir, 'logs');
      writeFileSync(blocked, 'not a folder');
      const lines: string[] = [];
      const stream = new DailyFileStream(blocked, 'UTC', { write: (l: string) => lines.push(l) });
      stream.write('{"msg":"one"}\n');
      assert.deepEqual(lines, ['{"msg":"one"}\n']);
      const health = stream.health();
      assert.equal(health.ok, false);
      assert.match(health.error!, /EEXIST|ENOTDIR/);
      stream.end();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an asynchronous write failure of the log file without throwing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-log-'));
    try {
      const lines: string[] = [];
      const stream = new DailyFileStream(dir, 'UTC', { write: (l: string) => lines.push(l) });
      stream.write('a\n');
      // the folder vanishes and is replaced by a file: the open of the next day fails asynchronously too
      (stream as unknown as { stream: NodeJS.WritableStream }).stream.emit(
        'error',
        Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
      );
      assert.equal(stream.health().ok, false);
      stream.write('b\n');
      assert.deepEqual(lines, ['b\n']);
      stream.end();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a third-party login the server has no settings for as a feature that is off (404, no Retry-After), without a stack trace in the log', async () => {
    const lines: Record<string, unknown>[] = [];
    const { default: pino } = await import('pino');
    const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const { buildApp } = await import('../src/app.ts');
    const { testConfig } = await import('./helpers/app.ts');
    const { createTestDatabase } = await import('./helpers/db.ts');
    const tdb = await createTestDatabase();
    const app = await buildApp(testConfig({ wechat: { appId: null, secret: null, apiBase: 'http://127.0.0.1:9' } }), {
      database: tdb.database,
      logger,
    });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { code: 'abc' } });
      // switched off by configuration: no retry can help, so it is answered as a feature that is off
      assertError(res, 404, 40401, 'not configured');
      assert.equal(res.headers['retry-after'], undefined);
      assert.doesNotMatch(JSON.stringify(lines), /"stack"/);
      assert.equal(lines.filter((l) => Number(l.level) >= 50).length, 0, 'nothing at error level');
    } finally {
      await app.close();
      await tdb.drop();
    }
  });
});
