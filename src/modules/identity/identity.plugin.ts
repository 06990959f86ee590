import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Errors } from '../../lib/errors.ts';
import type { ApiTokenService } from './api-tokens.service.ts';
import { createAuthenticator } from './authenticator.ts';
import { hasConfirmedFactor } from './totp.repo.ts';
import { createUserStateCache } from './user-state.ts';

/**
 * Identity's part of the instance: the cached user-state lookup (`app.userState`) and
 * `app.authenticator`, which the auth plugin relies on. The personal API token service is the one
 * the composition root built (src/modules/index.ts), handed over as an option.
 */
export default fp<{ apiTokens: ApiTokenService }>(
  async (app, { apiTokens }) => {
    app.decorate('userState', createUserStateCache(app.db, app.config.authCacheTtlMs));
    const authenticator = createAuthenticator({
      tokens: app.tokens,
      userState: () => app.userState,
      apiTokens: apiTokens.authenticator(),
    });
    app.decorate('authenticator', authenticator);
    if (app.config.requireAdminTotp) requireAdminSecondFactor(app);
  },
  { name: 'identity', fastify: '5.x', dependencies: ['database', 'tokens'] },
);

/**
 * REQUIRE_ADMIN_TOTP: an administrator without a confirmed second factor signs in as ever (to set
 * it up on the security page), but every administrator route answers 403 (40303) until it is
 * confirmed. Whoever is not a signed-in administrator passes on to the auth gate's own answer.
 */
function requireAdminSecondFactor(app: FastifyInstance) {
  const check = async (request: FastifyRequest) => {
    const user = request.user;
    if (request.is404 || user?.role !== 'admin') return;
    if (!(await hasConfirmedFactor(app.db, user.id))) throw Errors.secondFactorRequired();
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.auth !== 'admin') return;
    const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [...own, check] as typeof route.onRequest;
  });
}
