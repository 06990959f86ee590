import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEFAULT_BRUTE_FORCE } from '../../config.ts';
import { ErrorBody, NoContent } from '../../lib/schemas.ts';
import { registerSignInMethodRoutes } from './sign-in-methods.routes.ts';
import { LoginBody, LoginResult, PasswordLoginBody, RefreshBody, RegisterBody, TokenPair } from './auth.schemas.ts';
import { pickLocale } from '../categories/index.ts';
import { createAuthService } from './auth.service.ts';
import { clientOf } from './client.ts';
import { createMemoryCounterStore, createRedisCounterStore, createSignInGuard } from './lockout.ts';
import { createPasswordHasher } from './passwords.ts';
import { createWechatProvider } from './wechat.ts';
import { registerPasskeyRoutes } from './passkeys.routes.ts';
import { registerSessionRoutes } from './sessions.routes.ts';

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const namespace = app.config.rateLimit.namespace ?? 'ledger';
  const store = app.config.redisUrl
    ? createRedisCounterStore(app.config.redisUrl, namespace, (err) => app.log.warn({ err: err.message }, 'redis error (sign-in counters)'))
    : createMemoryCounterStore();
  app.addHook('onClose', async () => store.close());
  const guard = createSignInGuard(store, app.config.bruteForce ?? DEFAULT_BRUTE_FORCE);
  const hasher = createPasswordHasher(app.config.passwordHashing);
  const provider = createWechatProvider(app.config.wechat);
  const onUserChanged = (id: number) => app.userState.invalidate(id);
  const service = createAuthService({ db: app.db, tokens: app.tokens, provider, hasher, guard, config: app.config, onUserChanged, clock: app.clock });
  const pub = { auth: 'public' as const };

  app.post(
    '/api/auth/register',
    {
      config: pub,
      schema: {
        summary: 'Create an account with a username and password',
        description:
          'Always a plain user. Username taken (case-insensitively): 40901; a password the policy refuses: 42201 with `reason`; REGISTRATION=closed: 40301.',
        body: RegisterBody,
        response: { 200: LoginResult, 403: ErrorBody },
      },
    },
    async (req) => service.register(req.body, clientOf(req), pickLocale(req.headers['accept-language'])),
  );

  app.post(
    '/api/auth/password-login',
    {
      config: pub,
      schema: {
        summary: 'Sign in with a username and password',
        description:
          'A wrong username or password: 40105, the same answer whether or not the user exists. Repeated failures per username and per address are answered more slowly, then locked for a while (42901 with Retry-After). Disabled or deleted: 40104.',
        body: PasswordLoginBody,
        response: { 200: LoginResult },
      },
    },
    async (req) => service.passwordLogin(req.body, clientOf(req)),
  );

  app.post(
    '/api/auth/login',
    {
      config: pub,
      schema: {
        summary: 'Sign in with a third-party (WeChat) login code',
        description: 'Creates the user with the default categories on first login, named in the language of Accept-Language (Chinese or English). Provider refusal: 40103; provider unreachable: 50301.',
        body: LoginBody,
        response: { 200: LoginResult, 503: ErrorBody },
      },
    },
    async (req) => service.login(req.body.code, pickLocale(req.headers['accept-language']), clientOf(req)),
  );

  app.post(
    '/api/auth/demo-login',
    {
      config: pub,
      schema: {
        summary: 'Sign in as a fresh demo user with a month of sample data',
        description:
          'Off (404) when DEMO_LOGIN=false. Demo users are purged after 24 hours unless they set a username and password (or add a passkey or WeChat). Categories and sample data are in the language of Accept-Language (Chinese or English).',
        response: { 200: LoginResult },
      },
    },
    async (req) => service.demoLogin(pickLocale(req.headers['accept-language']), clientOf(req)),
  );

  app.post(
    '/api/auth/refresh',
    {
      config: pub,
      schema: {
        summary: 'Exchange a refresh token for a new token pair (rotation)',
        description: 'The presented token is revoked. Presenting a rotated token again revokes its family (40102), except within 60 s of its rotation.',
        body: RefreshBody,
        response: { 200: TokenPair },
      },
    },
    async (req) => service.refresh(req.body.refresh_token, clientOf(req)),
  );

  app.post(
    '/api/auth/logout',
    {
      config: pub,
      schema: { summary: "Revoke a refresh token's family (sign the session out)", body: RefreshBody, response: { 204: NoContent } },
    },
    async (req, reply) => {
      await service.logout(req.body.refresh_token);
      return reply.code(204).send(null);
    },
  );

  registerSignInMethodRoutes(app, { hasher, guard, provider, onUserChanged, clock: app.clock });
  registerPasskeyRoutes(app, service);
  registerSessionRoutes(app);
}
