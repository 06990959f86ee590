import type { FastifyInstance } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Type } from 'typebox';
import { Id, IdParams, NoContent, Nullable, Timestamp } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { clientOf } from './client.ts';
import { LoginResult } from './auth.schemas.ts';
import type { PasskeyService } from './passkeys.service.ts';
import { typed, type TypedApp } from '../routes.ts';

const B64 = Type.String({
  minLength: 1,
  maxLength: 65536,
  pattern: '^[A-Za-z0-9_-]*={0,2}$',
  description: 'base64url',
});

const Passkey = Type.Object({
  id: Id,
  name: Type.String(),
  device_type: Type.String({ description: '`singleDevice` or `multiDevice` (synced)' }),
  backed_up: Type.Boolean(),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});

/** WebAuthn options exactly as the browser's navigator.credentials API takes them (JSON form). */
const Options = (what: string) =>
  Type.Object(
    { challenge: Type.String(), timeout: Type.Optional(Type.Integer()) },
    { additionalProperties: true, description: `PublicKeyCredential${what}OptionsJSON` },
  );

/**
 * A credential is the browser's own JSON (PublicKeyCredential.toJSON()), which grows with the
 * WebAuthn standard: fields a browser adds are passed on to the verifier, not refused.
 */
const OPEN = { additionalProperties: true } as const;

const credentialBase = {
  id: B64,
  rawId: B64,
  type: Type.Literal('public-key'),
  clientExtensionResults: Type.Optional(Type.Object({}, { additionalProperties: true })),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
};

const RegistrationCredential = Type.Object(
  {
    ...credentialBase,
    response: Type.Object(
      {
        clientDataJSON: B64,
        attestationObject: B64,
        authenticatorData: Type.Optional(B64),
        publicKey: Type.Optional(B64),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
      },
      OPEN,
    ),
  },
  OPEN,
);

const AuthenticationCredential = Type.Object(
  {
    ...credentialBase,
    response: Type.Object(
      {
        clientDataJSON: B64,
        authenticatorData: B64,
        signature: B64,
        userHandle: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
      },
      OPEN,
    ),
  },
  OPEN,
);

const session = { session: true };
const off = 'Passkeys need PUBLIC_URL (the relying party); without it: 40401.';

export function registerPasskeyRoutes(fastify: FastifyInstance, service: PasskeyService): void {
  const app = typed(fastify);
  registerPasskeyEnrolment(app, service);
  registerOwnPasskeys(app, service);
}

/** A passkey registered, and signing in with one. */
function registerPasskeyEnrolment(app: TypedApp, service: PasskeyService) {
  app.post(
    '/api/auth/passkeys/register/options',
    {
      config: session,
      schema: {
        summary: 'Start adding a passkey to the signed-in account',
        description: `Challenge single-use, valid 5 minutes. ${off}`,
        response: { 200: Options('Creation') },
      },
    },
    async (req) => service.registrationOptions(userOf(req).id),
  );

  app.post(
    '/api/auth/passkeys/register/verify',
    {
      config: session,
      schema: {
        summary: "Finish adding a passkey with the authenticator's answer",
        description:
          'An answer that does not verify, or whose challenge is unknown, used or expired: 40001. Already ' +
          'registered: 40901.',
        body: Type.Object({
          credential: RegistrationCredential,
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
        }),
        response: { 201: Passkey },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await service.register(userOf(req).id, req.body.credential as RegistrationResponseJSON, req.body.name)),
  );

  app.post(
    '/api/auth/passkeys/login/options',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Start a passkey sign-in (discoverable credentials: no username)',
        description: off,
        response: { 200: Options('Request') },
      },
    },
    async () => service.authenticationOptions(),
  );

  app.post(
    '/api/auth/passkeys/login/verify',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Sign in with a passkey',
        description:
          'A passkey not registered here, a failed signature, or a challenge unknown, used or expired: 40106. ' +
          'Disabled or deleted: 40104.',
        body: Type.Object({ credential: AuthenticationCredential }),
        response: { 200: LoginResult },
      },
    },
    async (req) => service.login(req.body.credential as AuthenticationResponseJSON, clientOf(req)),
  );
}

/** One's passkeys: listed, renamed, removed. */
function registerOwnPasskeys(app: TypedApp, service: PasskeyService) {
  app.get(
    '/api/me/passkeys',
    {
      config: session,
      schema: { summary: "The caller's passkeys", response: { 200: Type.Object({ list: Type.Array(Passkey) }) } },
    },
    async (req) => service.list(userOf(req).id),
  );

  app.put(
    '/api/me/passkeys/:id',
    {
      config: session,
      schema: {
        summary: 'Rename a passkey',
        params: IdParams,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 50 }) }),
        response: { 200: Passkey },
      },
    },
    async (req) => service.rename(userOf(req).id, req.params.id, req.body.name),
  );

  app.delete(
    '/api/me/passkeys/:id',
    {
      config: session,
      schema: {
        summary: 'Remove a passkey (not the last sign-in method: 42201)',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.remove(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
