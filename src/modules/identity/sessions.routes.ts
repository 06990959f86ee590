import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, IdParams, NoContent, Nullable, Timestamp } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import type { SessionService } from './sessions.service.ts';

const Session = Type.Object({
  id: Id,
  created_at: Timestamp,
  last_used_at: Timestamp,
  user_agent: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  current: Type.Boolean({ description: 'the session of the access token of this request' }),
});

export function registerSessionRoutes(fastify: FastifyInstance, service: SessionService): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = { session: true };

  app.get(
    '/api/me/sessions',
    {
      config: session,
      schema: {
        summary: 'Signed-in devices and browsers: one per refresh-token family',
        response: { 200: Type.Object({ list: Type.Array(Session) }) },
      },
    },
    async (req) => {
      const user = userOf(req);
      return service.list(user.id, user.sessionId ?? null);
    },
  );

  app.delete(
    '/api/me/sessions/:id',
    {
      config: session,
      schema: {
        summary: 'Sign a session out: its refresh and access tokens stop working',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.end(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/me/sessions',
    {
      config: session,
      schema: {
        summary: 'Sign out every session but the current one, or everywhere',
        description:
          'Without `everywhere`: every other session ends (their refresh and access tokens stop working); the ' +
          'current one and personal API tokens are kept. ' +
          'With `everywhere=true`: every session ends, the current one included, and every personal API token is ' +
          'revoked, at once. ' +
          'A password change signs the other sessions out but keeps API tokens (they are managed separately); use ' +
          '`everywhere=true` to revoke those as well.',
        querystring: Type.Object({
          everywhere: Type.Optional(
            Type.Boolean({
              default: false,
              description: 'also end the current session and revoke every personal API token',
            }),
          ),
        }),
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      if (req.query.everywhere) await service.endEverywhere(user.id);
      else await service.endOthers(user.id, user.sessionId ?? null);
      return reply.code(204).send(null);
    },
  );
}
