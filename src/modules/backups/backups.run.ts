// Taking a backup: recorded as pending, written in the background, its starter told how it ended.
import { randomBytes } from 'node:crypto';
import { mkdir, unlink } from 'node:fs/promises';
import { sendSystemNotice } from '../notifications/index.ts';
import { writeBackup } from './backups.archive.ts';
import { backupDir, fileOf, type BackupDeps } from './backups.deps.ts';
import type * as backupsRepo from './backups.repo.ts';

/** Records a pending backup and writes it in the background; answers at once. */
export async function createBackup(deps: BackupDeps, userId: number): Promise<{ id: number }> {
  const stamp = new Date(deps.clock.now().getTime())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const name = `backup-${stamp}-${randomBytes(4).toString('hex')}`;
  const row = await deps.repo.insertPending(deps.db, name, userId);
  const job = run(deps, row.id, name).finally(() => deps.running.delete(job));
  deps.running.add(job);
  return { id: row.id };
}

/**
 * At start-up: a backup still pending was being written by a process that has stopped. On the
 * embedded database this process is the only one; on PostgreSQL another process may be writing
 * one right now, so only those older than any backup could take are given up.
 */
export async function recoverInterrupted({ db, clock, repo }: BackupDeps, embedded: boolean): Promise<number> {
  const now = clock.now().getTime();
  return repo.failInterrupted(db, new Date(embedded ? now : now - 6 * 3600_000));
}

/** Waits for the backups still being written (the app waits on close). */
export async function idle({ running }: BackupDeps): Promise<void> {
  while (running.size) await Promise.allSettled([...running]);
}

/** Writes the backup's file and records how it ended; a backup deleted meanwhile loses its file. */
async function run(deps: BackupDeps, id: number, name: string): Promise<void> {
  const { db, config, log, repo } = deps;
  const file = fileOf(deps, name);
  try {
    await mkdir(backupDir(deps), { recursive: true });
    const { size } = await writeBackup(db, file, config.dataDir);
    const row = await repo.finish(db, id, { status: 'completed', size });
    // deleted while it ran: nobody will ever ask for the file
    if (!row) await unlink(file).catch(() => {});
    else {
      log.info({ backupId: id, size }, 'backup completed');
      await tell(deps, row);
    }
  } catch (err) {
    log.error({ err, backupId: id }, 'backup failed');
    const message = err instanceof Error ? err.message : String(err);
    const row = await repo
      .finish(db, id, { status: 'failed', error: message.slice(0, 500) })
      .catch((e: unknown) => void log.error({ err: e, backupId: id }, 'could not record the failed backup'));
    if (row) await tell(deps, row);
  }
}

/** Tells the administrator who started a backup how it ended; a failure to tell is only logged. */
async function tell({ db, log }: BackupDeps, row: backupsRepo.BackupRow): Promise<void> {
  if (row.createdBy === null) return;
  const done = row.status === 'completed';
  await sendSystemNotice(db, {
    userId: row.createdBy,
    ...(done
      ? {
          key: 'backup.completed' as const,
          params: { name: row.name, size: Number(row.size) },
          title: '备份已完成 · Backup completed',
        }
      : { key: 'backup.failed' as const, params: { name: row.name }, title: '备份失败 · Backup failed' }),
    content: row.name,
    link: '/admin/backups',
    createdBy: null,
  }).catch((err: unknown) => log.error({ err, backupId: row.id }, 'could not notify about the backup'));
}
