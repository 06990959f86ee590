import { mkdirSync } from 'node:fs';
import lockfile from 'proper-lockfile';

/**
 * Holds an exclusive lock on the data folder while the embedded database is open: two processes
 * on one PGlite folder would silently lose writes. A lock left by a killed process goes stale
 * after 10 seconds.
 */
export async function lockDataDir(dir: string, onLost: (err: Error) => void): Promise<() => Promise<void>> {
  mkdirSync(dir, { recursive: true });
  try {
    return await lockfile.lock(dir, { lockfilePath: `${dir}/.lock`, stale: 10_000, update: 5_000, realpath: false, onCompromised: onLost });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') {
      throw new Error(`the data folder ${dir} is in use by another running instance (only one process may open the embedded database; use DATABASE_URL for several)`, { cause: err });
    }
    throw err;
  }
}
