import { Type } from 'typebox';
import { ErrorBody, Id, IdParams, NoContent, Nullable, Timestamp } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { pickLocale } from '../categories/index.ts';
import { LoginResult } from './auth.schemas.ts';
import { clientOf } from './client.ts';
import type { OidcService } from './oidc.service.ts';
import type { TypedApp } from '../routes.ts';

const OidcStart = Type.Object({
  authorization_url: Type.String({ description: "the provider's authorization endpoint with this flow's parameters" }),
  state: Type.String({
    description: 'the state sent to the provider: keep it and finish only an answer that carries it (valid 10 minutes)',
  }),
  redirect_uri: Type.String({ description: 'where the provider sends the browser back: PUBLIC_URL + /signin/oidc' }),
});

const OidcCallbackBody = Type.Object(
  {
    state: Type.String({ minLength: 1, maxLength: 512, description: 'the `state` parameter of the redirect' }),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'the `code` parameter' })),
    iss: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'the `iss` parameter (RFC 9207)' })),
    error: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'the `error` parameter' })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  {
    additionalProperties: false,
    description: "The query parameters of the provider's redirect to the redirect URI, as they arrived",
  },
);

const OidcIdentity = Type.Object({
  id: Id,
  issuer: Type.String(),
  email: Nullable(Type.String({ description: "the provider's e-mail address: shown only, never used to match" })),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});

const REFUSALS =
  'A state that is unknown, expired, already used or of another flow: 40001 on `state` (start again). The ' +
  "provider's refusal (`error`, e.g. access_denied) or an answer openid-client does not accept (an ID token " +
  'of another issuer or audience, expired, with another nonce; a code the token endpoint refuses): 40103 with ' +
  '`reason`. Provider unreachable: 50301. Off (40401) when the server has no OIDC_ISSUER, OIDC_CLIENT_ID, ' +
  'OIDC_CLIENT_SECRET or no PUBLIC_URL.';
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 503: ErrorBody };

/** OpenID Connect: signing in with the provider, and one's linked provider accounts. */
export function registerOidcRoutes(app: TypedApp, service: OidcService): void {
  registerOidcSignIn(app, service);
  registerOidcLinks(app, service);
}

function registerOidcSignIn(app: TypedApp, service: OidcService): void {
  const pub = { auth: 'public' as const };

  app.post(
    '/api/auth/oidc/start',
    {
      config: pub,
      schema: {
        summary: 'Start signing in with the OpenID Provider (authorization code flow with PKCE)',
        description:
          'Answers the URL to send the browser to. The provider comes back to `redirect_uri` with `code`, `state` ' +
          'and `iss`, which go to POST /api/auth/oidc/callback. Off (40401) when not configured.',
        response: { 200: OidcStart, 404: ErrorBody, 503: ErrorBody },
      },
    },
    async () => service.startSignIn(),
  );

  app.post(
    '/api/auth/oidc/callback',
    {
      config: pub,
      schema: {
        summary: "Finish signing in with the provider's answer",
        description:
          'The first sign-in of a provider account creates a user (default categories in the language of ' +
          'Accept-Language); a person with the same e-mail address is never linked. ' +
          REFUSALS +
          ' Account disabled: 40104.',
        body: OidcCallbackBody,
        response: { 200: LoginResult, ...errors },
      },
    },
    async (req) => service.finishSignIn(req.body, pickLocale(req.headers['accept-language']), clientOf(req)),
  );
}

function registerOidcLinks(app: TypedApp, service: OidcService): void {
  const session = { session: true };

  app.get(
    '/api/me/oidc',
    {
      config: session,
      schema: {
        summary: "The caller's linked OpenID Provider accounts",
        response: { 200: Type.Object({ list: Type.Array(OidcIdentity) }) },
      },
    },
    async (req) => service.list(userOf(req).id),
  );

  app.post(
    '/api/me/oidc/start',
    {
      config: session,
      schema: {
        summary: "Start linking the OpenID Provider to the caller's account",
        description: 'As POST /api/auth/oidc/start; the answer goes to POST /api/me/oidc/callback by the same person.',
        response: { 200: OidcStart, 404: ErrorBody, 503: ErrorBody },
      },
    },
    async (req) => service.startLink(userOf(req).id),
  );

  app.post(
    '/api/me/oidc/callback',
    {
      config: session,
      schema: {
        summary: "Finish linking with the provider's answer",
        description:
          'The provider account is already linked here or to another user: 40901. ' +
          REFUSALS +
          ' A link started by another person counts as an unknown state.',
        body: OidcCallbackBody,
        response: { 201: OidcIdentity, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await service.finishLink(userOf(req).id, req.body)),
  );

  app.delete(
    '/api/me/oidc/:id',
    {
      config: session,
      schema: {
        summary: 'Unlink a provider account (not the last sign-in method: 42201)',
        params: IdParams,
        response: { 204: NoContent, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (req, reply) => {
      await service.unlink(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
