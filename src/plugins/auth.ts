import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { AppError, Errors } from '../lib/errors.ts';
import type { TokenService } from '../lib/tokens.ts';
import type { AuthUser } from '../types.ts';

export interface UserState {
  role: 'user' | 'admin';
  status: 'active' | 'disabled';
  deleted: boolean;
}

export interface UserStateCache {
  /** role, status and deletion of a user; null when there is no such user */
  get(userId: number): Promise<UserState | null>;
  /** drop a cached entry at once (after a change of role, status or deletion) */
  invalidate(userId: number): void;
  clear(): void;
}

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
      const state = row ? { role: row.role, status: row.status, deleted: row.deletedAt !== null } : null;
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

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ \t]+([A-Za-z0-9\-_.]+)[ \t]*$/i.exec(header);
  return m ? m[1]! : null;
}

export interface Authenticator {
  tokens: TokenService;
  userState: UserStateCache;
}

/** Verifies an access token and the user's current state; throws 40101/40104. */
export async function authenticateAccessToken({ tokens, userState }: Authenticator, token: string): Promise<AuthUser> {
  const claims = await tokens.verifyAccess(token);
  const state = await userState.get(claims.userId);
  if (!state || state.deleted || state.status === 'disabled') throw Errors.accountBlocked();
  return { id: claims.userId, role: state.role };
}

/** The signed-in user of a route whose auth mode is `user` or `admin`. */
export function userOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw Errors.unauthorized();
  return request.user;
}

/**
 * Who is calling: `request.user` from the bearer access token, checked against the user's current
 * state (`app.userState`, cached). Routes say who may call them with `config.auth` (default `user`).
 */
export default fp(
  async (app) => {
    app.decorate('userState', createUserStateCache(app.db, app.config.authCacheTtlMs));
    app.decorateRequest('user', null);
    app.decorateRequest('authError', null);
    // onRequest runs before body parsing and validation, which gives the contract's order:
    // unknown route, then authentication, then administrator role, then body size and validation.
    // A refused token is only noted here: the rate limiter counts the request (per IP) before the
    // gate below refuses it, so guessing tokens is rate limited like anything else.
    app.addHook('onRequest', async (request) => {
      if (request.is404) return;
      const mode = request.routeOptions.config.auth ?? 'user';
      if (mode === 'public' || mode === 'token') return;
      const token = bearerToken(request.headers.authorization);
      if (!token) {
        request.authError = Errors.unauthorized('access token missing');
        return;
      }
      try {
        request.user = await authenticateAccessToken(app, token);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 401) throw err;
        request.authError = err;
      }
    });
  },
  { name: 'auth', fastify: '5.x', dependencies: ['database', 'tokens', 'errors'] },
);

/**
 * Refuses what authentication noted (40101, 40104) and non-administrators on administrator routes
 * (40301). A route-level hook added after the rate limiter's, so refused requests are counted.
 */
export const authGate = fp(
  async (app) => {
    const gate = async (request: FastifyRequest) => {
      if (request.is404) return;
      if (request.authError) throw request.authError;
      if (request.routeOptions.config.auth === 'admin' && request.user?.role !== 'admin') throw Errors.adminRequired();
    };
    app.addHook('onRoute', (route) => {
      const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [...own, gate] as typeof route.onRequest;
    });
  },
  { name: 'auth-gate', fastify: '5.x', dependencies: ['auth', 'rate-limit'] },
);
