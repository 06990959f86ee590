import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** true when a process with this id exists (signal 0 checks without sending anything) */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** folders this process holds: a lock naming our own id that we do not hold was left by an earlier process given the same id */
const held = new Set<string>();

function ownerOf(ownerFile: string): number | null {
  try {
    const pid = Number(readFileSync(ownerFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Holds an exclusive lock on the data folder while the embedded database is open: two processes
 * on one PGlite folder would silently lose writes. The lock records its owner's process id; a lock
 * whose owner is gone (killed, crashed) is taken over at once, while a live owner still refuses a
 * second process. A lock without a readable owner goes stale after 10 seconds.
 */
export async function lockDataDir(dir: string, onLost: (err: Error) => void): Promise<() => Promise<void>> {
  mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, '.lock');
  // beside the lock folder, which must stay empty to be released
  const ownerFile = path.join(dir, '.lock-owner');
  const options = { lockfilePath: lockPath, stale: 10_000, update: 5_000, realpath: false, onCompromised: onLost };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, options);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ELOCKED') throw err;
    const owner = ownerOf(ownerFile);
    const alive = owner === process.pid ? held.has(path.resolve(dir)) : owner !== null && processAlive(owner);
    if (owner === null || alive) {
      throw new Error(`the data folder ${dir} is in use by another running instance (only one process may open the embedded database; use DATABASE_URL for several)`, { cause: err });
    }
    // the owner died without releasing it
    rmSync(lockPath, { recursive: true, force: true });
    release = await lockfile.lock(dir, options);
  }
  writeFileSync(ownerFile, `${process.pid}\n`);
  const key = path.resolve(dir);
  held.add(key);
  return async () => {
    held.delete(key);
    rmSync(ownerFile, { force: true });
    await release();
  };
}
