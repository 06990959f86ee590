import { and, asc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { refreshTokens, sessions, users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByProvider(
  db: Executor,
  provider: string,
  subject: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.provider, provider), eq(users.providerSubject, subject)));
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

export async function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  return row;
}

export async function updateUser(db: Executor, id: number, patch: Partial<typeof users.$inferInsert>): Promise<void> {
  await db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, id));
}

/** Counts a failed password sign-in on the account (shown to its owner after the next sign-in). */
/**
 * One more failed sign-in for the user of `username`, found the way findUserByUsername finds it.
 * One statement whether or not such a user exists (none: no row changes), so that a wrong
 * password and an unknown name do the same work.
 */
export async function countFailedSignIn(db: Executor, username: string): Promise<void> {
  await db
    .update(users)
    .set({ failedSignIns: sql`${users.failedSignIns} + 1` })
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
}

/** A session per refresh-token family: created with the family, touched on every refresh. */
export async function upsertSession(
  db: Executor,
  values: { userId: number; family: string; userAgent: string | null; ip: string | null; at: Date },
): Promise<number> {
  const [row] = await db
    .insert(sessions)
    .values({
      userId: values.userId,
      family: values.family,
      userAgent: values.userAgent,
      ip: values.ip,
      createdAt: values.at,
      lastUsedAt: values.at,
    })
    .onConflictDoUpdate({
      target: sessions.family,
      set: { lastUsedAt: values.at, userAgent: values.userAgent, ip: values.ip },
    })
    .returning({ id: sessions.id });
  return row!.id;
}

async function endSessions(db: Executor, userId: number, families: string[] | 'all', at: Date): Promise<void> {
  if (families !== 'all' && !families.length) return;
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        families === 'all' ? undefined : inArray(sessions.family, families),
      ),
    );
}

export async function revokeFamily(db: Executor, userId: number, family: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.family, family), isNull(refreshTokens.revokedAt)));
  await endSessions(db, userId, [family], at);
}

export async function revokeAllForUser(db: Executor, userId: number, at: Date = new Date()): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  await endSessions(db, userId, 'all', at);
}

/** Ends every session of a user but one (the caller's own; null ends them all). */
export async function revokeOtherSessions(
  db: Executor,
  userId: number,
  keepSessionId: number | null,
  at: Date,
): Promise<void> {
  const [keep] =
    keepSessionId === null
      ? []
      : await db
          .select({ family: sessions.family })
          .from(sessions)
          .where(and(eq(sessions.id, keepSessionId), eq(sessions.userId, userId)));
  if (!keep) return revokeAllForUser(db, userId, at);
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(
      and(eq(refreshTokens.userId, userId), ne(refreshTokens.family, keep.family), isNull(refreshTokens.revokedAt)),
    );
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), ne(sessions.family, keep.family), isNull(sessions.revokedAt)));
}

/** Revokes the oldest live tokens of a user beyond `keep`. */
export async function enforceTokenCap(db: Executor, userId: number, keep: number, at: Date): Promise<void> {
  const live = await db
    .select({ id: refreshTokens.id, family: refreshTokens.family })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, at)))
    .orderBy(asc(refreshTokens.createdAt), asc(refreshTokens.id));
  const excess = live.length - keep;
  if (excess <= 0) return;
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(
      inArray(
        refreshTokens.id,
        live.slice(0, excess).map((r) => r.id),
      ),
    );
  await endSessions(
    db,
    userId,
    live.slice(0, excess).map((r) => r.family),
    at,
  );
}

/** Drops token rows that can never be used again (expired for a day), keeping the table small. */
export async function purgeDeadTokens(db: Executor, userId: number, at: Date): Promise<void> {
  const dayAgo = new Date(at.getTime() - 86_400_000);
  await db.delete(refreshTokens).where(and(eq(refreshTokens.userId, userId), lt(refreshTokens.expiresAt, dayAgo)));
  // a session whose tokens are all gone, or that ended more than a day ago, is of no further use
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        sql`(${sessions.revokedAt} < ${dayAgo.toISOString()} or not exists (select 1 from ${refreshTokens} where ${refreshTokens.family} = ${sessions.family}))`,
      ),
    );
}
