import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { lockDataDir } from '../src/lib/datadir-lock.ts';
import { isDatabaseUnavailable } from '../src/db/errors.ts';

describe('the data folder and the database connection', () => {
  it('takes over a data-folder lock whose owner died, but refuses while its owner lives', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-lock-'));
    try {
      const release = await lockDataDir(dir, () => {});
      await assert.rejects(
        lockDataDir(dir, () => {}),
        /in use by another running instance/,
      );
      await release();
      // a fresh lock left by a process that no longer exists (pid far above pid_max)
      mkdirSync(path.join(dir, '.lock'));
      writeFileSync(path.join(dir, '.lock-owner'), '99999999\n');
      const started = Date.now();
      const taken = await lockDataDir(dir, () => {});
      assert.ok(Date.now() - started < 1000, 'taken over at once');
      await taken();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('probes real files of the embedded database: health fails once its folder is gone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-health-'));
    const { createDatabase } = await import('../src/db/client.ts');
    const database = await createDatabase({ databaseUrl: null, embeddedDbDir: path.join(dir, 'db') });
    try {
      await database.ping();
      renameSync(path.join(dir, 'db'), path.join(dir, 'moved'));
      await assert.rejects(database.ping());
      renameSync(path.join(dir, 'moved'), path.join(dir, 'db'));
      await database.ping();
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('recognises a lost or refused database connection as an outage', () => {
    assert.equal(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
      true,
    );
    assert.equal(
      isDatabaseUnavailable(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
      true,
    );
    assert.equal(isDatabaseUnavailable(new Error('Connection terminated unexpectedly')), true);
    assert.equal(
      isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '08006' }) })),
      true,
    );
    assert.equal(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' })), false);
    assert.equal(isDatabaseUnavailable(new TypeError('x is undefined')), false);
  });
});
