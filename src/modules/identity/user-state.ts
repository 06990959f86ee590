import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { ACCESS_TTL_S } from '../../lib/tokens.ts';
import type { UserState, UserStateCache } from '../../plugins/auth.ts';

/**
 * The deleted/disabled lookup of every authenticated request, cached for at most `ttlMs`
 * (the contract allows 5 minutes). Changes made through this process invalidate at once.
 */
export function createUserStateCache(db: Db, ttlMs: number, maxEntries = 50_000): UserStateCache {
  const entries = new Map<number, { state: UserState | null; at: number }>();
  return {
    async get(userId) {
      const hit = entries.get(userId);
      if (hit && Date.now() - hit.at < ttlMs) return hit.state;
      const [row] = await db
        .select({ role: users.role, status: users.status, deletedAt: users.deletedAt })
        .from(users)
        .where(eq(users.id, userId));
      const ended = row
        ? await db
            .select({ id: sessions.id })
            .from(sessions)
            .where(and(eq(sessions.userId, userId), gt(sessions.revokedAt, new Date(Date.now() - ACCESS_TTL_S * 1000))))
        : [];
      const state = row
        ? { role: row.role, status: row.status, deleted: row.deletedAt !== null, endedSessions: ended.map((s) => s.id) }
        : null;
      if (entries.size >= maxEntries) entries.clear();
      entries.set(userId, { state, at: Date.now() });
      return state;
    },
    invalidate(userId) {
      entries.delete(userId);
    },
    clear() {
      entries.clear();
    },
  };
}
