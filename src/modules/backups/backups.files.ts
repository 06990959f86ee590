// The backups kept: their list with download tokens, deleting one, and downloading its file.
import { createReadStream, type ReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { fileOf, type BackupDeps } from './backups.deps.ts';
import type * as backupsRepo from './backups.repo.ts';
import type { Backup, BackupListQuery } from './backups.schemas.ts';
import { backupFileName, DOWNLOAD_TTL_MS, signDownloadToken, verifyDownloadToken } from './backups.tokens.ts';

/** A backup as the API shows it: a completed one carries a download token valid from `at` on. */
function toBackup(secret: string, row: backupsRepo.BackupRow, at: number): Backup {
  const out: Backup = {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
  if (row.status === 'completed') out.downloadToken = signDownloadToken(secret, row.id, at + DOWNLOAD_TTL_MS);
  return out;
}

export async function listBackups(
  { db, clock, config, repo }: BackupDeps,
  q: BackupListQuery,
): Promise<{ list: Backup[]; total: number }> {
  const { limit, offset } = pageOf(q);
  const { rows, total } = await repo.listBackups(db, limit, offset);
  const at = clock.now().getTime();
  return { list: rows.map((r) => toBackup(config.jwtSecret, r, at)), total };
}

/** Deletes a backup's record and its file (a file already gone is no error). */
export async function removeBackup(deps: BackupDeps, id: number): Promise<void> {
  const row = await deps.repo.deleteBackup(deps.db, id);
  if (!row) throw Errors.notFound('backup');
  await unlink(fileOf(deps, row.name)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** The file of a completed backup, for a valid download token of that backup (else 40101). */
export async function downloadBackup(
  deps: BackupDeps,
  id: number,
  token: string | undefined,
): Promise<{ stream: ReadStream; fileName: string; size: number }> {
  if (!verifyDownloadToken(deps.config.jwtSecret, id, token, deps.clock.now().getTime()))
    throw Errors.unauthorized('download token missing, invalid or expired');
  const row = await deps.repo.findCompleted(deps.db, id);
  if (!row) throw Errors.notFound('backup');
  const file = fileOf(deps, row.name);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw Errors.notFound('backup file');
  return { stream: createReadStream(file), fileName: backupFileName(row.name), size: info.size };
}
