import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, IdParams, NoContent, Nullable, Timestamp } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { MAX_TOKENS_PER_USER, type ApiTokenService } from './api-tokens.service.ts';

const Scope = Type.Union([Type.Literal('read'), Type.Literal('write')], {
  description: '`read`: GET and HEAD of user routes; `write`: every user route',
});

const ApiToken = Type.Object({
  id: Id,
  name: Type.String(),
  scopes: Type.Array(Scope),
  prefix: Type.String({ description: 'the first characters of the secret' }),
  expires_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  created_at: Timestamp,
});

const CreatedToken = Type.Object({
  ...ApiToken.properties,
  token: Type.String({
    description: 'the secret, shown only in this answer: `lgr_` + 30 random characters + a 6-character CRC32 checksum',
  }),
});

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50 }),
    scopes: Type.Array(Scope, { minItems: 1, maxItems: 2, uniqueItems: true }),
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'default 90' })),
  },
  { additionalProperties: false },
);

export default async function apiTokensRoutes(
  fastify: FastifyInstance,
  { apiTokens: service }: { apiTokens: ApiTokenService },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = { session: true };

  app.get(
    '/api/me/tokens',
    {
      config: session,
      schema: {
        summary: "The caller's personal API tokens (secrets are never shown again)",
        response: { 200: Type.Object({ list: Type.Array(ApiToken) }) },
      },
    },
    async (req) => service.list(userOf(req).id),
  );

  app.post(
    '/api/me/tokens',
    {
      config: session,
      schema: {
        summary: 'Create a personal API token for scripts',
        description: `Sent as \`Authorization: Bearer <token>\`. The secret is in this answer only; it is stored hashed. At most ${MAX_TOKENS_PER_USER} per user (42201).`,
        body: CreateBody,
        response: { 201: CreatedToken },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(userOf(req).id, req.body)),
  );

  app.delete(
    '/api/me/tokens/:id',
    {
      config: session,
      schema: { summary: 'Revoke a personal API token', params: IdParams, response: { 204: NoContent } },
    },
    async (req, reply) => {
      await service.remove(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
