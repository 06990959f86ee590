import type { FastifyInstance } from 'fastify';
import { ErrorBody, NoContent } from '../../lib/schemas.ts';
import { registerSignInMethodRoutes } from './sign-in-methods.routes.ts';
import { LoginBody, LoginResult, PasswordLoginBody, RefreshBody, RegisterBody, TokenPair } from './auth.schemas.ts';
import { pickLocale } from '../categories/index.ts';
import type { AuthService } from './auth.service.ts';
import { clientOf } from './client.ts';
import type { PasskeyService } from './passkeys.service.ts';
import { registerPasskeyRoutes } from './passkeys.routes.ts';
import type { SessionService } from './sessions.service.ts';
import { registerSessionRoutes } from './sessions.routes.ts';
import type { SignInMethodsService } from './sign-in-methods.service.ts';
import type { OidcService } from './oidc.service.ts';
import { registerOidcRoutes } from './oidc.routes.ts';
import { typed, type TypedApp } from '../routes.ts';
import { registerTotpRoutes, SecondFactorChallenge } from './totp.routes.ts';
import type { TotpService } from './totp.service.ts';

/** The services identity's sign-in, passkey, session and sign-in-method routes call. */
export interface IdentityRouteServices {
  auth: AuthService;
  passkeys: PasskeyService;
  sessions: SessionService;
  signInMethods: SignInMethodsService;
  totp: TotpService;
  oidc: OidcService;
}

const pub = { auth: 'public' as const };

export default async function authRoutes(fastify: FastifyInstance, services: IdentityRouteServices) {
  const app = typed(fastify);
  registerSignUpAndSignIn(app, services.auth);
  registerTokenRoutes(app, services.auth);
  registerSignInMethodRoutes(app, services.signInMethods);
  registerPasskeyRoutes(app, services.passkeys);
  registerSessionRoutes(app, services.sessions);
  registerTotpRoutes(app, services.totp);
  registerOidcRoutes(app, services.oidc);
}

/** An account registered, and signing in with a password or a code. */
function registerSignUpAndSignIn(app: TypedApp, service: IdentityRouteServices['auth']) {
  app.post(
    '/api/auth/register',
    {
      config: pub,
      schema: {
        summary: 'Create an account with a username and password',
        description:
          'Always a plain user. Username taken (case-insensitively): 40901; a password the policy refuses: 42201 ' +
          'with `reason`; REGISTRATION=closed: 40301.',
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
          'A wrong username or password: 40105, the same answer whether or not the user exists. Repeated failures ' +
          'per username and per address are answered more slowly, then locked for a while (42901 with Retry-After). ' +
          'Disabled or deleted: 40104. A person with a confirmed TOTP second factor gets no tokens yet but 202 with ' +
          'a ticket: POST /api/auth/totp/verify with it and a code finishes the sign-in. Everyone else: 200 as ever.',
        body: PasswordLoginBody,
        response: { 200: LoginResult, 202: SecondFactorChallenge },
      },
    },
    async (req, reply) => {
      const answer = await service.passwordLogin(req.body, clientOf(req));
      return 'ticket' in answer ? reply.code(202).send(answer) : answer;
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: pub,
      schema: {
        summary: 'Sign in with a third-party (WeChat) login code',
        description:
          'Creates the user with the default categories on first login, named in the language of Accept-Language ' +
          '(Chinese or English). Provider refusal: 40103; provider unreachable: 50301. Off (40401, no Retry-After) ' +
          'when the server has no provider settings (WECHAT_APPID, WECHAT_SECRET).',
        body: LoginBody,
        response: { 200: LoginResult, 503: ErrorBody },
      },
    },
    async (req) => service.login(req.body.code, pickLocale(req.headers['accept-language']), clientOf(req)),
  );
}

/** The demo sign-in, and a session refreshed or ended. */
function registerTokenRoutes(app: TypedApp, service: IdentityRouteServices['auth']) {
  app.post(
    '/api/auth/demo-login',
    {
      config: pub,
      schema: {
        summary: 'Sign in as a fresh demo user with a month of sample data',
        description:
          'Off (404) when DEMO_LOGIN=false. Demo users are purged after 24 hours unless they set a username and ' +
          'password (or add a passkey or WeChat). Categories and sample data are in the language of Accept-Language ' +
          '(Chinese or English).',
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
        description:
          'The presented token is revoked. Presenting a rotated token again revokes its family (40102), except ' +
          'within 60 s of its rotation.',
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
      schema: {
        summary: "Revoke a refresh token's family (sign the session out)",
        body: RefreshBody,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.logout(req.body.refresh_token);
      return reply.code(204).send(null);
    },
  );
}
