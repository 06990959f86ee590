import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { savedFilters, users } from '../../db/schema/index.ts';

export type SavedFilterRow = typeof savedFilters.$inferSelect;

export async function listFilters(db: Executor, userId: number): Promise<SavedFilterRow[]> {
  return db.select().from(savedFilters).where(eq(savedFilters.userId, userId)).orderBy(asc(savedFilters.id));
}

export async function findFilter(db: Executor, userId: number, id: number): Promise<SavedFilterRow | undefined> {
  const [row] = await db
    .select()
    .from(savedFilters)
    .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId)));
  return row;
}

export async function countFilters(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(savedFilters)
    .where(eq(savedFilters.userId, userId));
  return Number(row?.n ?? 0);
}

/** Serializes a user's count-limited creations (no key update: inserts referencing the user are not blocked). */
export async function lockUserRow(db: Executor, userId: number): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

export async function insertFilter(
  db: Executor,
  values: { userId: number; name: string; criteria: Record<string, unknown> },
): Promise<SavedFilterRow> {
  const [row] = await db.insert(savedFilters).values(values).returning();
  return row!;
}

export async function updateFilter(
  db: Executor,
  userId: number,
  id: number,
  patch: { name?: string; criteria?: Record<string, unknown> },
): Promise<SavedFilterRow | undefined> {
  const [row] = await db
    .update(savedFilters)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId)))
    .returning();
  return row;
}

export async function deleteFilter(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(savedFilters)
    .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId)))
    .returning({ id: savedFilters.id });
  return rows.length > 0;
}
