import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type * as backupsRepo from './backups.repo.ts';
import { backupFileName } from './backups.tokens.ts';

/** What the backup use cases are built from; `running` holds the backups this process is writing. */
export interface BackupDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'dataDir' | 'jwtSecret'>;
  log: FastifyBaseLogger;
  repo: typeof backupsRepo;
  running: Set<Promise<void>>;
}

/** The folder the backups are written to. */
export function backupDir({ config }: Pick<BackupDeps, 'config'>): string {
  return path.join(config.dataDir, 'backups');
}

/** The file of the backup named `name`. */
export function fileOf(deps: Pick<BackupDeps, 'config'>, name: string): string {
  return path.join(backupDir(deps), backupFileName(name));
}
