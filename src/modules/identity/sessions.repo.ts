import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { refreshTokens, sessions } from '../../db/schema/index.ts';

/** The user's sessions that still have a usable refresh token, latest used first. */
export async function listLive(db: Executor, userId: number, at: Date) {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.family} = ${sessions.family} and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > ${at.toISOString()})`,
      ),
    )
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.id));
}

export async function findOwnLive(db: Executor, userId: number, id: number) {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  return row;
}

export async function hasLiveToken(db: Executor, family: string, at: Date): Promise<boolean> {
  const rows = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.family, family), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, at)))
    .limit(1);
  return rows.length > 0;
}
