import { and, asc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { refreshTokens, users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByProvider(db: Executor, provider: string, subject: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(and(eq(users.provider, provider), eq(users.providerSubject, subject)));
  return row;
}

export async function insertUser(db: Executor, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function findUser(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Locks the user's row: refreshes and logins of one user take turns, across processes too. */
export async function lockUser(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

export async function setRole(db: Executor, id: number, role: 'user' | 'admin'): Promise<void> {
  await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
}

export async function insertRefreshToken(db: Executor, values: typeof refreshTokens.$inferInsert): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

export async function findRefreshToken(db: Executor, jtiHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.jtiHash, jtiHash));
  return row;
}

export async function markRotated(db: Executor, id: number, at: Date): Promise<void> {
  await db.update(refreshTokens).set({ rotatedAt: at, revokedAt: at }).where(eq(refreshTokens.id, id));
}

export async function revokeFamily(db: Executor, userId: number, family: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.family, family), isNull(refreshTokens.revokedAt)));
}

export async function revokeAllForUser(db: Executor, userId: number, at: Date = new Date()): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: at }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** Revokes the oldest live tokens of a user beyond `keep`. */
export async function enforceTokenCap(db: Executor, userId: number, keep: number, at: Date): Promise<void> {
  const live = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, at)))
    .orderBy(asc(refreshTokens.createdAt), asc(refreshTokens.id));
  const excess = live.length - keep;
  if (excess <= 0) return;
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(inArray(refreshTokens.id, live.slice(0, excess).map((r) => r.id)));
}

/** Drops token rows that can never be used again (expired for a day), keeping the table small. */
export async function purgeDeadTokens(db: Executor, userId: number, at: Date): Promise<void> {
  await db.delete(refreshTokens).where(and(eq(refreshTokens.userId, userId), lt(refreshTokens.expiresAt, new Date(at.getTime() - 86_400_000))));
}
