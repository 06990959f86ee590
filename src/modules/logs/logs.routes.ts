import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { LogFiles, LogList, LogQuery, LogStats, StatsQuery } from './logs.schemas.ts';
import { type createLogsService } from './logs.service.ts';

export default async function logsRoutes(
  fastify: FastifyInstance,
  { logs: service }: { logs: ReturnType<typeof createLogsService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { auth: 'admin' as const };

  app.get(
    '/api/logs/files',
    { config: admin, schema: { summary: 'Daily log files in LOG_DIR, newest first', response: { 200: LogFiles } } },
    async () => service.files(),
  );

  app.get(
    '/api/logs/stats',
    {
      config: admin,
      schema: {
        summary: 'Entries per level and day',
        description:
          '`date` for one day, or `days` (1 to 90, default 7) for the last n days up to today in APP_TIMEZONE; both ' +
          'at once: 40001.',
        querystring: StatsQuery,
        response: { 200: LogStats },
      },
    },
    async (req) => service.stats(req.query),
  );

  app.get(
    '/api/logs/query',
    {
      config: admin,
      schema: {
        summary: "One day's log entries, newest first",
        description:
          '`date` defaults to today in APP_TIMEZONE. `level` keeps entries of exactly that level (not that level and ' +
          'above). ' +
          '`keyword` is a case-insensitive substring of the raw JSON line. Lines that are not JSON log entries are ' +
          'skipped.',
        querystring: LogQuery,
        response: { 200: LogList },
      },
    },
    async (req) => service.query(req.query),
  );
}
