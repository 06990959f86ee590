import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { userOf } from '../../plugins/auth.ts';
import { NoContent } from '../../lib/schemas.ts';
import { TrackBody, TrackList, TrackListQuery, TrackStats } from './track.schemas.ts';
import { type createTrackService } from './track.service.ts';

export default async function trackRoutes(
  fastify: FastifyInstance,
  { track: service }: { track: ReturnType<typeof createTrackService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/api/track',
    {
      schema: {
        summary: 'Record an analytics event',
        description: '`data` larger than 4096 bytes once serialized as JSON: 40001 (field `data`).',
        body: TrackBody,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.record(userOf(req).id, req.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/logs/track/stats',
    {
      config: { auth: 'admin' },
      schema: {
        summary: "Analytics events: today's figures, a 7-day trend and the most frequent event types",
        description: 'Days are calendar days in APP_TIMEZONE. `users` counts distinct users.',
        response: { 200: TrackStats },
      },
    },
    async () => service.stats(),
  );

  app.get(
    '/api/logs/track/list',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Analytics events, newest first',
        description:
          '`startDate` and `endDate` are inclusive calendar days in APP_TIMEZONE; `event_type` matches exactly.',
        querystring: TrackListQuery,
        response: { 200: TrackList },
      },
    },
    async (req) => service.list(req.query),
  );
}
