import { and, count, desc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { backups } from '../../db/schema/index.ts';

export type BackupRow = typeof backups.$inferSelect;

export async function insertPending(db: Executor, name: string, createdBy: number): Promise<BackupRow> {
  const [row] = await db.insert(backups).values({ name, createdBy, status: 'pending' }).returning();
  return row!;
}

export async function listBackups(
  db: Executor,
  limit: number,
  offset: number,
): Promise<{ rows: BackupRow[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db.select().from(backups).orderBy(desc(backups.createdAt), desc(backups.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(backups),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function findCompleted(db: Executor, id: number): Promise<BackupRow | undefined> {
  const [row] = await db
    .select()
    .from(backups)
    .where(and(eq(backups.id, id), eq(backups.status, 'completed')));
  return row;
}

/** Marks a pending backup finished; undefined when its row was deleted meanwhile. */
export async function finish(
  db: Executor,
  id: number,
  result: { status: 'completed'; size: number } | { status: 'failed'; error: string },
): Promise<BackupRow | undefined> {
  const [row] = await db
    .update(backups)
    .set(
      result.status === 'completed'
        ? { status: 'completed', size: result.size, completedAt: new Date() }
        : { status: 'failed', error: result.error, completedAt: new Date() },
    )
    .where(and(eq(backups.id, id), eq(backups.status, 'pending')))
    .returning();
  return row;
}

export async function deleteBackup(db: Executor, id: number): Promise<BackupRow | undefined> {
  const [row] = await db.delete(backups).where(eq(backups.id, id)).returning();
  return row;
}

/** Marks backups left pending by a process that stopped mid-way (started before `before`) as failed. */
export async function failInterrupted(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .update(backups)
    .set({
      status: 'failed',
      error: 'interrupted: the server stopped while the backup was being written',
      completedAt: new Date(),
    })
    .where(and(eq(backups.status, 'pending'), lt(backups.createdAt, before)))
    .returning({ id: backups.id });
  return rows.length;
}
