import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorBody, NoContent } from '../../lib/schemas.ts';
import { LoginBody, LoginResult, RefreshBody, TokenPair } from './auth.schemas.ts';
import { pickLocale } from '../categories/categories.defaults.ts';
import { createAuthService } from './auth.service.ts';
import { createWechatProvider } from './wechat.ts';

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const service = createAuthService({
    db: app.db,
    tokens: app.tokens,
    provider: createWechatProvider(app.config.wechat),
    config: app.config,
    onUserChanged: (id) => app.userState.invalidate(id),
    clock: app.clock,
  });
  const pub = { auth: 'public' as const };

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
    async (req) => service.login(req.body.code, pickLocale(req.headers['accept-language'])),
  );

  app.post(
    '/api/auth/demo-login',
    {
      config: pub,
      schema: {
        summary: 'Sign in as a fresh demo user with a month of sample data',
        description: 'Off (404) when DEMO_LOGIN=false. Demo users are purged after 24 hours. Categories and sample data are in the language of Accept-Language (Chinese or English).',
        response: { 200: LoginResult },
      },
    },
    async (req) => service.demoLogin(pickLocale(req.headers['accept-language'])),
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
    async (req) => service.refresh(req.body.refresh_token),
  );

  app.post(
    '/api/auth/logout',
    {
      config: pub,
      schema: { summary: "Revoke a refresh token's family", body: RefreshBody, response: { 204: NoContent } },
    },
    async (req, reply) => {
      await service.logout(req.body.refresh_token);
      return reply.code(204).send(null);
    },
  );
}
