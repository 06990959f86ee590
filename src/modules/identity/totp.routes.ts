import { Type } from 'typebox';
import { ErrorBody, NoContent, Nullable, Timestamp } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { LoginResult } from './auth.schemas.ts';
import { clientOf } from './client.ts';
import { TICKET_TTL_S, type TotpService } from './totp.service.ts';
import type { TypedApp } from '../routes.ts';

const Code = (description: string) => Type.String({ minLength: 1, maxLength: 32, description, examples: ['123456'] });

/** What a password sign-in answers (202) to a person with a confirmed second factor. */
export const SecondFactorChallenge = Type.Object(
  {
    second_factor: Type.Literal('totp', { description: 'the factor asked for' }),
    ticket: Type.String({
      description: `send it with a code to POST /api/auth/totp/verify within ${TICKET_TTL_S} seconds`,
    }),
    expires_in: Type.Integer({ description: `seconds the ticket is valid (${TICKET_TTL_S})` }),
  },
  { description: 'no tokens yet: the sign-in needs a code from the authenticator app (or a recovery code)' },
);

const TotpStatus = Type.Object({
  enabled: Type.Boolean({ description: 'a confirmed factor: asked after every password sign-in' }),
  pending: Type.Boolean({ description: 'a set-up waits for its first code (not asked at sign-in yet)' }),
  confirmed_at: Nullable(Timestamp),
  recovery_codes_left: Type.Integer({ minimum: 0, description: 'unused recovery codes' }),
  required: Type.Boolean({
    description: 'REQUIRE_ADMIN_TOTP and the caller is an administrator: administrator routes need the factor',
  }),
});

const SetUp = Type.Object({
  secret: Type.String({ description: 'the base32 secret, for typing into an authenticator app by hand' }),
  uri: Type.String({ description: 'the otpauth:// URI (SHA1, 6 digits, 30 s), as the QR code holds it' }),
  qr_image: Type.String({ description: 'the QR code of `uri` as a `data:image/svg+xml;base64,...` URL' }),
});

const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String({ description: '`xxxxx-xxxxx`' }), {
    minItems: 10,
    maxItems: 10,
    description: 'shown this once: only their hashes are kept; each works one time',
  }),
});

const WRONG_CODE =
  'A wrong, replayed or out-of-window code: 422 (42201, reason `bad_code`). Each code checked counts against the ' +
  'sign-in lockout of the person (42901 with Retry-After), which a correct password does not clear.';

/** The second factor: set-up and its recovery codes (session only), and the sign-in's second step. */
export function registerTotpRoutes(app: TypedApp, service: TotpService): void {
  registerSetUp(app, service);
  registerCodes(app, service);
}

/** The factor's state, and setting it up. */
function registerSetUp(app: TypedApp, service: TotpService): void {
  const session = { session: true };

  app.get(
    '/api/me/totp',
    {
      config: session,
      schema: { summary: 'Whether the TOTP second factor is set up', response: { 200: TotpStatus } },
    },
    async (req) => service.status(userOf(req)),
  );

  app.post(
    '/api/me/totp/setup',
    {
      config: session,
      schema: {
        summary: 'Start setting up the TOTP second factor: a new secret and its QR code',
        description:
          'Replaces a set-up not confirmed yet. Nothing changes at sign-in until POST /api/me/totp/confirm takes the ' +
          'first code. Already confirmed: 40901 (turn it off first).',
        response: { 200: SetUp, 409: ErrorBody },
      },
    },
    async (req) => service.setUp(userOf(req).id),
  );

  app.post(
    '/api/me/totp/confirm',
    {
      config: session,
      schema: {
        summary: 'Confirm the set-up with the first code; answers the ten recovery codes once',
        description: `From now on a password sign-in asks for a code. No set-up waiting, or already confirmed: 40901. ${WRONG_CODE}`,
        body: Type.Object({ code: Code('the 6 digits the authenticator app shows') }, { additionalProperties: false }),
        response: { 200: RecoveryCodes, 409: ErrorBody, 422: ErrorBody },
      },
    },
    async (req) => service.confirm(userOf(req).id, req.body.code, req.ip),
  );
}

/** What takes a code: new recovery codes, turning the factor off, and the sign-in's second step. */
function registerCodes(app: TypedApp, service: TotpService): void {
  const session = { session: true };

  app.post(
    '/api/me/totp/recovery-codes',
    {
      config: session,
      schema: {
        summary: 'Ten new recovery codes for a current code; the old ones stop working',
        description: `No confirmed factor: 40901. ${WRONG_CODE}`,
        body: Type.Object(
          { code: Code('a current authenticator code, or an unused recovery code') },
          { additionalProperties: false },
        ),
        response: { 200: RecoveryCodes, 409: ErrorBody, 422: ErrorBody },
      },
    },
    async (req) => service.regenerateRecoveryCodes(userOf(req).id, req.body.code, req.ip),
  );

  app.post(
    '/api/me/totp/disable',
    {
      config: session,
      schema: {
        summary: 'Turn the TOTP second factor off (its recovery codes go with it)',
        description:
          'A confirmed factor needs a current authenticator code or an unused recovery code; the password alone is ' +
          `not enough (no code: 40001). A set-up never confirmed, or none, needs nothing. ${WRONG_CODE}`,
        body: Type.Object(
          { code: Type.Optional(Code('a current authenticator code, or an unused recovery code')) },
          { additionalProperties: false },
        ),
        response: { 204: NoContent, 422: ErrorBody },
      },
    },
    async (req, reply) => {
      await service.disable(userOf(req).id, req.body.code, req.ip);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/auth/totp/verify',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Finish a password sign-in with a second-factor code',
        description:
          'The `ticket` a password sign-in answered (202) with a current authenticator code or an unused recovery ' +
          'code: the same answer a sign-in gives. A wrong, replayed or out-of-window code: 40107 (counted against ' +
          'the lockout: 42901 with Retry-After; the same ticket may try again). A ticket unknown, expired, or of a ' +
          'person whose factor was turned off meanwhile: 40108 (sign in again). Disabled or deleted: 40104.',
        body: Type.Object(
          {
            ticket: Type.String({ minLength: 1, maxLength: 2048, description: 'from the password sign-in' }),
            code: Code('6 digits from the authenticator app, or a recovery code (`xxxxx-xxxxx`)'),
          },
          { additionalProperties: false },
        ),
        response: { 200: LoginResult },
      },
    },
    async (req) => service.completeSignIn(req.body.ticket, req.body.code, clientOf(req)),
  );
}
