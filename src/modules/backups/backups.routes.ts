import type { ReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { BackupCreated, BackupList, BackupListQuery, DownloadQuery } from './backups.schemas.ts';
import { type createBackupService } from './backups.service.ts';

export default async function backupsRoutes(
  fastify: FastifyInstance,
  { backups: service }: { backups: ReturnType<typeof createBackupService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // a backup still being written is finished before the database closes
  app.addHook('preClose', async () => service.idle());
  app.addHook('onClose', async () => service.idle());
  await service.recoverInterrupted(app.database.kind === 'pglite');
  const admin = { auth: 'admin' as const };

  app.get(
    '/api/backup',
    {
      config: admin,
      schema: {
        summary: 'Backups, newest first',
        description: 'Completed backups carry a `downloadToken` valid for 10 minutes.',
        querystring: BackupListQuery,
        response: { 200: BackupList },
      },
    },
    async (req) => service.list(req.query),
  );

  app.post(
    '/api/backup',
    {
      config: admin,
      schema: {
        summary: 'Start a backup of the whole database',
        description:
          'Answers at once with the new id; the backup runs in the background (status pending, then completed or ' +
          'failed). ' +
          'The file is a gzip of JSON lines: a header with the schema version, every row of every table, and an end ' +
          'marker. ' +
          'Restore it into an empty database with `npm run cli -- backup:restore <file>`.',
        response: { 201: BackupCreated },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(userOf(req).id)),
  );

  app.delete(
    '/api/backup/:id',
    {
      config: admin,
      schema: { summary: 'Delete a backup and its file', params: IdParams, response: { 204: NoContent } },
    },
    async (req, reply) => {
      await service.remove(req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/backup/:id/download',
    {
      config: { auth: 'token' },
      schema: {
        summary: 'Download a completed backup',
        description:
          'Authorized by `?token=` alone (the `downloadToken` of this backup from the list); a missing, invalid, ' +
          'expired or ' +
          "another backup's token: 40101. Streams the gzip file as an attachment.",
        params: IdParams,
        querystring: DownloadQuery,
        produces: ['application/gzip'],
        response: {
          200: Type.Unsafe<ReadStream>({ type: 'string', format: 'binary', description: 'the backup file (.json.gz)' }),
        },
      },
    },
    async (req, reply) => {
      const file = await service.download(req.params.id, req.query.token);
      return reply
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .header('Content-Length', file.size)
        .type('application/gzip')
        .send(file.stream);
    },
  );
}
