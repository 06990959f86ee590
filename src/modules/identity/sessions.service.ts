import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import * as apiTokensRepo from './api-tokens.repo.ts';
import * as authRepo from './auth.repo.ts';
import * as repo from './sessions.repo.ts';

export interface SessionView {
  id: number;
  created_at: string;
  last_used_at: string;
  user_agent: string | null;
  ip: string | null;
  current: boolean;
}

export interface SessionServiceDeps {
  db: Db;
  /** after sessions end, so that their access tokens are refused at once */
  onSessionsEnded: (userId: number) => void;
  clock: Clock;
}

export function createSessionService(deps: SessionServiceDeps) {
  const { db } = deps;
  const now = () => deps.clock.now();
  return {
    async list(userId: number, currentId: number | null): Promise<{ list: SessionView[] }> {
      const rows = await repo.listLive(db, userId, now());
      return {
        list: rows.map((r) => ({
          id: r.id,
          created_at: r.createdAt.toISOString(),
          last_used_at: r.lastUsedAt.toISOString(),
          user_agent: r.userAgent,
          ip: r.ip,
          current: r.id === currentId,
        })),
      };
    },

    /** Signs one session out: its refresh tokens are revoked and its access tokens refused. */
    async end(userId: number, id: number): Promise<void> {
      const at = now();
      await db.transaction(async (tx) => {
        const row = await repo.findOwnLive(tx, userId, id);
        if (!row || !(await repo.hasLiveToken(tx, row.family, at))) throw Errors.notFound('session');
        await authRepo.revokeFamily(tx, userId, row.family, at);
      });
      deps.onSessionsEnded(userId);
    },

    /** Signs every other session out (all of them when the caller's own is not known). */
    async endOthers(userId: number, currentId: number | null): Promise<void> {
      await db.transaction((tx) => authRepo.revokeOtherSessions(tx, userId, currentId, now()));
      deps.onSessionsEnded(userId);
    },

    /**
     * Signs out everywhere: every session, the caller's own included, and every personal API
     * token, in one transaction. What to do after a lost device or a leaked password.
     */
    async endEverywhere(userId: number): Promise<void> {
      await db.transaction(async (tx) => {
        await authRepo.revokeOtherSessions(tx, userId, null, now());
        await apiTokensRepo.deleteAllOwn(tx, userId);
      });
      deps.onSessionsEnded(userId);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
