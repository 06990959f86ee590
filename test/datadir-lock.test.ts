import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { isZombie, lockDataDir, processAlive } from '../src/lib/datadir-lock.ts';

const HOLDER = path.resolve('test/fixtures/processes/hold-data-dir.ts');
const started: ChildProcess[] = [];

/** lines a child writes, as they come */
function lines(child: ChildProcess): () => Promise<string> {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      const w = waiting.shift();
      if (w) w(line);
      else queue.push(line);
    }
  });
  return () => {
    const line = queue.shift();
    return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
  };
}

/**
 * A process holding the folder's lock whose parent never reaps it: `sh` starts the holder, prints
 * its id, then becomes `sleep`, which never waits for children. Killed, the holder stays a zombie.
 */
async function unreapedHolder(dir: string): Promise<{ pid: number; parent: ChildProcess }> {
  const parent = spawn(
    'sh',
    ['-c', `"${process.execPath}" --import tsx "${HOLDER}" "$0" & echo $!; exec sleep 300`, dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  started.push(parent);
  const next = lines(parent);
  const pid = Number(await next());
  assert.equal(await next(), 'locked');
  return { pid, parent };
}

async function untilZombie(pid: number): Promise<void> {
  for (let i = 0; i < 100 && !isZombie(pid); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(isZombie(pid), `process ${pid} is a zombie`);
}

const linux = process.platform === 'linux';

describe('the data folder lock after a kill -9', { skip: !linux && 'zombies are read from /proc (Linux)' }, () => {
  after(() => {
    for (const c of started) c.kill('SIGKILL');
  });

  it('takes the folder over at once from a killed owner its parent has not reaped (a zombie)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-zombie-'));
    try {
      const { pid } = await unreapedHolder(dir);
      await assert.rejects(
        lockDataDir(dir, () => {}),
        /in use by another running instance/,
        'a live owner refuses',
      );
      process.kill(pid, 'SIGKILL');
      await untilZombie(pid);
      assert.equal(processAlive(pid), false, 'a zombie is not alive');
      // the main thread shows as a zombie a moment before the process's other threads have
      // exited and its files (the kernel lock among them) are closed: a short bounded wait covers it
      const t0 = Date.now();
      const release = await lockDataDir(dir, () => {}, { waitMs: 2000 });
      assert.ok(Date.now() - t0 < 2000, `taken over in ${Date.now() - t0} ms`);
      await release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('treats a lock file naming a zombie as its owner as stale', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-zombie-file-'));
    try {
      // a zombie of our own making: a child of `sleep`, which never reaps it. The child outlives the
      // shell's exec, so the shell can never have reaped it first
      const parent = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 300'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      started.push(parent);
      const pid = Number(await lines(parent)());
      await untilZombie(pid);
      mkdirSync(path.join(dir, '.lock'));
      writeFileSync(path.join(dir, '.lock-owner'), `${pid}\n`);
      const release = await lockDataDir(dir, () => {});
      await release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses while the owner lives, after waiting at most the bound given', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-live-'));
    try {
      await unreapedHolder(dir);
      const t0 = Date.now();
      await assert.rejects(
        lockDataDir(dir, () => {}, { waitMs: 800 }),
        /in use by another running instance/,
      );
      const waited = Date.now() - t0;
      assert.ok(waited >= 800 && waited < 5000, `waited ${waited} ms`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits for an owner killed meanwhile instead of exiting at once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-wait-'));
    try {
      const { pid } = await unreapedHolder(dir);
      const t0 = Date.now();
      setTimeout(() => process.kill(pid, 'SIGKILL'), 1000);
      const release = await lockDataDir(dir, () => {}, { waitMs: 15_000 });
      const waited = Date.now() - t0;
      assert.ok(waited >= 900 && waited < 10_000, `taken after ${waited} ms`);
      await release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
