import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UseCaseArgs } from '../service.ts';
import type { BackupDeps } from './backups.deps.ts';
import { downloadBackup, listBackups, removeBackup } from './backups.files.ts';
import * as backupsRepo from './backups.repo.ts';
import { createBackup, idle, recoverInterrupted } from './backups.run.ts';

export { backupFileName, DOWNLOAD_TTL_MS, signDownloadToken, verifyDownloadToken } from './backups.tokens.ts';

export interface BackupServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'dataDir' | 'jwtSecret'>;
  log: FastifyBaseLogger;
  repo?: typeof backupsRepo;
}

/**
 * The backups, one named use case each: taking one in the background, recovering those a stopped
 * process left and waiting for those still running (backups.run.ts); listing, deleting and
 * downloading them (backups.files.ts).
 */
export function createBackupService({ db, clock, config, log, repo = backupsRepo }: BackupServiceDeps) {
  const deps: BackupDeps = { db, clock, config, log, repo, running: new Set() };
  return {
    list: (...a: UseCaseArgs<typeof listBackups>) => listBackups(deps, ...a),
    create: (...a: UseCaseArgs<typeof createBackup>) => createBackup(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removeBackup>) => removeBackup(deps, ...a),
    download: (...a: UseCaseArgs<typeof downloadBackup>) => downloadBackup(deps, ...a),
    recoverInterrupted: (...a: UseCaseArgs<typeof recoverInterrupted>) => recoverInterrupted(deps, ...a),
    idle: (...a: UseCaseArgs<typeof idle>) => idle(deps, ...a),
  };
}
