import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { writeBackup } from './backups.archive.ts';
import { sendSystemNotice } from '../notifications/index.ts';
import * as backupsRepo from './backups.repo.ts';
import type { Backup, BackupListQuery } from './backups.schemas.ts';

export const DOWNLOAD_TTL_MS = 10 * 60_000;
const NAME_RE = /^[A-Za-z0-9._-]{1,100}$/;
const TOKEN_RE = /^(\d{1,15})\.([0-9a-f]{64})$/;

/** A key of its own for download tokens, derived from the signing secret (never the secret itself). */
function downloadKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('backup-download').digest();
}

/** `${expiresAtMs}.${hex HMAC-SHA256 over "${id}.${expiresAtMs}"}` */
export function signDownloadToken(secret: string, id: number, expiresAtMs: number): string {
  const mac = createHmac('sha256', downloadKey(secret)).update(`${id}.${expiresAtMs}`).digest('hex');
  return `${expiresAtMs}.${mac}`;
}

export function verifyDownloadToken(secret: string, id: number, token: string | undefined, nowMs: number): boolean {
  const m = token ? TOKEN_RE.exec(token) : null;
  if (!m) return false;
  const expiresAt = Number(m[1]);
  if (!(expiresAt > nowMs)) return false;
  const expected = createHmac('sha256', downloadKey(secret)).update(`${id}.${expiresAt}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2]!, 'hex'));
}

export function backupFileName(name: string): string {
  if (!NAME_RE.test(name)) throw new Error(`unsafe backup name: ${name}`);
  return `${name}.json.gz`;
}

export interface BackupServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'dataDir' | 'jwtSecret'>;
  log: FastifyBaseLogger;
  repo?: typeof backupsRepo;
}

export function createBackupService({ db, clock, config, log, repo = backupsRepo }: BackupServiceDeps) {
  const { dataDir, jwtSecret: secret } = config;
  const now = () => clock.now().getTime();
  const dir = path.join(dataDir, 'backups');
  const fileOf = (name: string) => path.join(dir, backupFileName(name));
  const running = new Set<Promise<void>>();

  function toBackup(row: backupsRepo.BackupRow, at: number): Backup {
    const out: Backup = { id: row.id, name: row.name, size: Number(row.size), status: row.status, created_at: row.createdAt.toISOString() };
    if (row.status === 'completed') out.downloadToken = signDownloadToken(secret, row.id, at + DOWNLOAD_TTL_MS);
    return out;
  }

  /** Tells the administrator who started a backup how it ended; a failure to tell is only logged. */
  async function tell(row: backupsRepo.BackupRow): Promise<void> {
    if (row.createdBy === null) return;
    const done = row.status === 'completed';
    await sendSystemNotice(db, {
      userId: row.createdBy,
      ...(done
        ? { key: 'backup.completed' as const, params: { name: row.name, size: Number(row.size) }, title: '备份已完成 · Backup completed' }
        : { key: 'backup.failed' as const, params: { name: row.name }, title: '备份失败 · Backup failed' }),
      content: row.name,
      link: '/admin/backups',
      createdBy: null,
    }).catch((err: unknown) => log.error({ err, backupId: row.id }, 'could not notify about the backup'));
  }

  async function run(id: number, name: string): Promise<void> {
    const file = fileOf(name);
    try {
      await mkdir(dir, { recursive: true });
      const { size } = await writeBackup(db, file);
      const row = await repo.finish(db, id, { status: 'completed', size });
      // deleted while it ran: nobody will ever ask for the file
      if (!row) await unlink(file).catch(() => {});
      else {
        log.info({ backupId: id, size }, 'backup completed');
        await tell(row);
      }
    } catch (err) {
      log.error({ err, backupId: id }, 'backup failed');
      const message = err instanceof Error ? err.message : String(err);
      const row = await repo
        .finish(db, id, { status: 'failed', error: message.slice(0, 500) })
        .catch((e: unknown) => void log.error({ err: e, backupId: id }, 'could not record the failed backup'));
      if (row) await tell(row);
    }
  }

  return {
    async list(q: BackupListQuery): Promise<{ list: Backup[]; total: number }> {
      const { limit, offset } = pageOf(q);
      const { rows, total } = await repo.listBackups(db, limit, offset);
      const at = now();
      return { list: rows.map((r) => toBackup(r, at)), total };
    },

    /** Records a pending backup and writes it in the background; answers at once. */
    async create(userId: number): Promise<{ id: number }> {
      const stamp = new Date(now()).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
      const name = `backup-${stamp}-${randomBytes(4).toString('hex')}`;
      const row = await repo.insertPending(db, name, userId);
      const job = run(row.id, name).finally(() => running.delete(job));
      running.add(job);
      return { id: row.id };
    },

    async remove(id: number): Promise<void> {
      const row = await repo.deleteBackup(db, id);
      if (!row) throw Errors.notFound('backup');
      await unlink(fileOf(row.name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    },

    /** The file of a completed backup, for a valid download token of that backup (else 40101). */
    async download(id: number, token: string | undefined): Promise<{ stream: ReadStream; fileName: string; size: number }> {
      if (!verifyDownloadToken(secret, id, token, now())) throw Errors.unauthorized('download token missing, invalid or expired');
      const row = await repo.findCompleted(db, id);
      if (!row) throw Errors.notFound('backup');
      const file = fileOf(row.name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) throw Errors.notFound('backup file');
      return { stream: createReadStream(file), fileName: backupFileName(row.name), size: info.size };
    },

    /**
     * At start-up: a backup still pending was being written by a process that has stopped. On the
     * embedded database this process is the only one; on PostgreSQL another process may be writing
     * one right now, so only those older than any backup could take are given up.
     */
    async recoverInterrupted(embedded: boolean): Promise<number> {
      return repo.failInterrupted(db, new Date(embedded ? now() : now() - 6 * 3600_000));
    },

    /** Waits for the backups still being written (the app waits on close). */
    async idle(): Promise<void> {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}
