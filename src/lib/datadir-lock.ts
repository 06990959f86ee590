import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * true when a process with this id exists and has not ended: signal 0 checks without sending
 * anything; a zombie (ended, not yet reaped by its parent: /proc/<pid>/stat state Z) counts as dead
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** Linux: the process has ended and only its exit status waits to be collected (state Z or X) */
export function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (command) S ...": the command may itself hold parentheses, the state follows the last one
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

/**
 * folders this process holds: a lock naming our own id that we do not hold was left by an earlier process given the
 * same id
 */
const held = new Set<string>();

function ownerOf(ownerFile: string): number | null {
  try {
    const pid = Number(readFileSync(ownerFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

type KernelLock = { state: 'held'; server: Server } | { state: 'busy' } | { state: 'unsupported' };

/**
 * A Unix socket in Linux's abstract namespace, named after the folder: the kernel frees it the
 * moment its process ends (killed, crashed, a zombie not yet reaped), and a second bind while it
 * lives fails with EADDRINUSE. Elsewhere, or where it cannot be bound, the lock file alone decides.
 */
function bindKernelLock(dir: string): Promise<KernelLock> {
  if (process.platform !== 'linux') return Promise.resolve({ state: 'unsupported' });
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    /* the folder was just created: its resolved name is fine */
  }
  const name = `\0ledger-data-dir-${createHash('sha256').update(real).digest('hex').slice(0, 40)}`;
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'EADDRINUSE' ? { state: 'busy' } : { state: 'unsupported' }),
    );
    server.listen(name, () => {
      // the socket accepts nothing; it must not keep the process alive on its own
      server.unref();
      resolve({ state: 'held', server });
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface DataDirLockOptions {
  /**
   * how long to wait for a lock held by a live owner to be freed (an owner killed but not yet gone,
   * a supervisor restarting the service at once) before refusing; 0 refuses at once
   */
  waitMs?: number;
}

/**
 * Holds an exclusive lock on the data folder while the embedded database is open: two processes
 * on one PGlite folder would silently lose writes. On Linux a kernel-held socket says whether any
 * live process holds the folder; the lock file records its owner's process id for other systems.
 * A lock whose owner is gone (killed, crashed, a zombie) is taken over at once; while the owner
 * lives the call waits up to `waitMs` for it to go, then refuses. A lock file without a readable
 * owner goes stale after 10 seconds.
 */
export async function lockDataDir(
  dir: string,
  onLost: (err: Error) => void,
  opts: DataDirLockOptions = {},
): Promise<() => Promise<void>> {
  mkdirSync(dir, { recursive: true });
  const waitMs = opts.waitMs ?? 0;
  const deadline = Date.now() + waitMs;
  const lockPath = path.join(dir, '.lock');
  // beside the lock folder, which must stay empty to be released
  const ownerFile = path.join(dir, '.lock-owner');
  const options = { lockfilePath: lockPath, stale: 10_000, update: 5_000, realpath: false, onCompromised: onLost };
  const inUse = (cause?: unknown) =>
    new Error(
      `the data folder ${dir} is in use by another running instance (only one process may open the embedded database; use DATABASE_URL for several)`,
      { cause },
    );

  let kernel = await bindKernelLock(dir);
  while (kernel.state === 'busy') {
    if (Date.now() >= deadline) throw inUse();
    await sleep(Math.min(250, Math.max(1, deadline - Date.now())));
    kernel = await bindKernelLock(dir);
  }
  const closeKernel = () =>
    kernel.state === 'held'
      ? new Promise<void>((r) => kernel.state === 'held' && kernel.server.close(() => r()))
      : Promise.resolve();

  let release: () => Promise<void>;
  try {
    for (;;) {
      try {
        release = await lockfile.lock(dir, options);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== 'ELOCKED') throw err;
        const owner = ownerOf(ownerFile);
        const alive = owner === process.pid ? held.has(path.resolve(dir)) : owner !== null && processAlive(owner);
        // holding the kernel lock proves that no live process holds the folder
        const dead = kernel.state === 'held' ? !(owner === process.pid && alive) : owner !== null && !alive;
        if (dead) {
          // the owner died without releasing it
          rmSync(lockPath, { recursive: true, force: true });
          release = await lockfile.lock(dir, options);
          break;
        }
        if (Date.now() >= deadline) throw inUse(err);
        await sleep(Math.min(250, Math.max(1, deadline - Date.now())));
      }
    }
  } catch (err) {
    await closeKernel();
    throw err;
  }
  writeFileSync(ownerFile, `${process.pid}\n`);
  const key = path.resolve(dir);
  held.add(key);
  return async () => {
    held.delete(key);
    rmSync(ownerFile, { force: true });
    try {
      await release();
    } finally {
      await closeKernel();
    }
  };
}
