import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, Errors } from '../lib/errors.ts';
import type { AuthUser } from '../types.ts';

/** Who a request is from, once its credentials are accepted. */
export type Principal = AuthUser;

/**
 * What this plugin needs from identity: a bearer credential (an access token or a personal API
 * token) turned into a principal, or an AppError of status 401 (40101 invalid or expired, 40104
 * blocked user) when it is refused. Provided as `app.authenticator` by the identity module.
 */
export interface Authenticator {
  authenticate(token: string): Promise<Principal>;
}

export interface UserState {
  role: 'user' | 'admin';
  status: 'active' | 'disabled';
  deleted: boolean;
  /** sessions ended within an access token's lifetime: their access tokens are refused */
  endedSessions: number[];
}

/**
 * The cached lookup of a user's role, status and deletion that every authenticated request reads.
 * Provided as `app.userState` by the identity module; the shared-invalidation plugin wraps it.
 */
export interface UserStateCache {
  /** role, status and deletion of a user; null when there is no such user */
  get(userId: number): Promise<UserState | null>;
  /** drop a cached entry at once (after a change of role, status or deletion) */
  invalidate(userId: number): void;
  clear(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticator: Authenticator;
    userState: UserStateCache;
  }
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ \t]+([A-Za-z0-9\-_.]+)[ \t]*$/i.exec(header);
  return m ? m[1]! : null;
}

/** What a personal API token may do: its scope, never administrator or session-only routes. */
function checkTokenScope(request: FastifyRequest, user: AuthUser): void {
  const scopes = user.apiToken?.scopes;
  if (!scopes) return;
  const config = request.routeOptions.config;
  if (config.auth === 'admin') throw Errors.forbidden('API tokens cannot call administrator routes');
  if (config.session)
    throw Errors.forbidden('API tokens cannot manage sign-in methods, sessions or tokens; sign in instead');
  if (config.scopePerOperation) return;
  if (request.method !== 'GET' && request.method !== 'HEAD' && !scopes.includes('write'))
    throw Errors.forbidden('API token of read scope: only GET and HEAD');
}

/** The signed-in user of a route whose auth mode is `user` or `admin`. */
export function userOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw Errors.unauthorized();
  return request.user;
}

/**
 * Who is calling: `request.user` from the bearer access token, accepted by
 * `app.authenticator` (the identity module). Routes say who may call them with `config.auth` (default `user`).
 */
export default fp(
  async (app) => {
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
        request.user = await app.authenticator.authenticate(token);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 401) throw err;
        request.authError = err;
      }
    });
  },
  { name: 'auth', fastify: '5.x', dependencies: ['identity', 'errors'] },
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
