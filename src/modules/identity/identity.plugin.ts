import fp from 'fastify-plugin';
import { createApiTokenService, type ApiTokenAuthenticator } from './api-tokens.service.ts';
import { createAuthenticator } from './authenticator.ts';
import type { TokenService } from './tokens.ts';
import { createUserStateCache, type UserStateCache } from './user-state.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
    userState: UserStateCache;
    apiTokens: ApiTokenAuthenticator;
  }
}

/**
 * Identity's part of the instance: the cached user-state lookup (`app.userState`), the personal
 * API token check (`app.apiTokens`) and `app.authenticator`, which the auth plugin relies on.
 */
export default fp(
  async (app) => {
    app.decorate('userState', createUserStateCache(app.db, app.config.authCacheTtlMs));
    app.decorate('apiTokens', createApiTokenService({ db: app.db, clock: app.clock }).authenticator());
    app.decorate('authenticator', createAuthenticator({ tokens: app.tokens, userState: () => app.userState, apiTokens: app.apiTokens }));
  },
  { name: 'identity', fastify: '5.x', dependencies: ['database', 'tokens'] },
);
