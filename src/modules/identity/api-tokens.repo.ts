import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { apiTokens, users } from '../../db/schema/index.ts';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export async function insertToken(db: Executor, values: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
  const [row] = await db.insert(apiTokens).values(values).returning();
  return row!;
}

export async function listOwn(db: Executor, userId: number): Promise<ApiTokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

export async function countOwn(db: Executor, userId: number): Promise<number> {
  return (await db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.userId, userId))).length;
}

export async function deleteOwn(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/** Revokes every personal API token of the user; answers how many there were. */
export async function deleteAllOwn(db: Executor, userId: number): Promise<number> {
  const rows = await db.delete(apiTokens).where(eq(apiTokens.userId, userId)).returning({ id: apiTokens.id });
  return rows.length;
}

/** The token with this hash and its owner's state. */
export async function findByHash(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({ token: apiTokens, status: users.status, deletedAt: users.deletedAt })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, tokenHash));
  return row;
}

export async function touch(db: Executor, id: number, at: Date): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, id));
}
