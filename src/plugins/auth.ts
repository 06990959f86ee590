import { and, eq, gt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema/index.ts';
import { AppError, Errors } from '../lib/errors.ts';
import { ACCESS_TTL_S } from '../lib/tokens.ts';
import { createApiTokenService, TOKEN_PREFIX, type ApiTokenAuthenticator } from '../modules/api-tokens/api-tokens.service.ts';
import type { TokenService } from '../lib/tokens.ts';
import type { AuthUser } from '../types.ts';

export interface UserState {
  role: 'user' | 'admin';
  status: 'active' | 'disabled';
  deleted: boolean;
  /** sessions ended within an access token's lifetime: their access tokens are refused */
  endedSessions: number[];
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
      const ended = row
        ? await db
            .select({ id: sessions.id })
            .from(sessions)
            .where(and(eq(sessions.userId, userId), gt(sessions.revokedAt, new Date(Date.now() - ACCESS_TTL_S * 1000))))
        : [];
      const state = row ? { role: row.role, status: row.status, deleted: row.deletedAt !== null, endedSessions: ended.map((s) => s.id) } : null;
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
  /** personal API tokens (`lgr_...`); without it such a token is refused */
  apiTokens?: ApiTokenAuthenticator;
}

/**
 * Verifies an access token (or a personal API token) and the user's current state; throws
 * 40101/40104. An access token of a session that was signed out no longer works either.
 */
export async function authenticateAccessToken({ tokens, userState, apiTokens }: Authenticator, token: string): Promise<AuthUser> {
  if (token.startsWith(TOKEN_PREFIX)) {
    if (!apiTokens) throw Errors.unauthorized('API tokens are not accepted here');
    return apiTokens.authenticate(token);
  }
  const claims = await tokens.verifyAccess(token);
  const state = await userState.get(claims.userId);
  if (!state || state.deleted || state.status === 'disabled') throw Errors.accountBlocked();
  if (claims.sessionId !== null && state.endedSessions.includes(claims.sessionId)) throw Errors.unauthorized('the session was signed out');
  return { id: claims.userId, role: state.role, sessionId: claims.sessionId };
}

/** What a personal API token may do: its scope, never administrator or session-only routes. */
function checkTokenScope(request: FastifyRequest, user: AuthUser): void {
  const scopes = user.apiToken?.scopes;
  if (!scopes) return;
  const config = request.routeOptions.config;
  if (config.auth === 'admin') throw Errors.forbidden('API tokens cannot call administrator routes');
  if (config.session) throw Errors.forbidden('API tokens cannot manage sign-in methods, sessions or tokens; sign in instead');
  if (request.method !== 'GET' && request.method !== 'HEAD' && !scopes.includes('write')) throw Errors.forbidden('API token of read scope: only GET and HEAD');
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
    app.decorate('apiTokens', createApiTokenService({ db: app.db, clock: app.clock }).authenticator());
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
      if (request.user) checkTokenScope(request, request.user);
      if (request.routeOptions.config.auth === 'admin' && request.user?.role !== 'admin') throw Errors.adminRequired();
    };
    app.addHook('onRoute', (route) => {
      const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [...own, gate] as typeof route.onRequest;
    });
  },
  { name: 'auth-gate', fastify: '5.x', dependencies: ['auth', 'rate-limit'] },
);
