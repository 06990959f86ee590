import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Errors } from '../../lib/errors.ts';
import { bearerToken, userOf } from '../../plugins/auth.ts';
import { ExportPrepareBody, ExportPrepareResult, ExportQuery } from './export.schemas.ts';
import { FORMAT_TEXT } from './export.format.ts';
import {
  authorizeDownload,
  downloadParams,
  exportStream,
  fileNameOf,
  prepareExport,
  type DownloadAuth,
  type DownloadAuthenticator,
} from './export.service.ts';

export default async function exportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // who is downloading, decided before query validation so that a bad token is 401 before any 400
  const downloads = new WeakMap<FastifyRequest, DownloadAuth>();
  const authn: DownloadAuthenticator = {
    tokens: app.tokens,
    get userState() {
      return app.userState;
    },
    authenticator: app.authenticator,
  };

  app.post(
    '/api/export/prepare',
    {
      schema: {
        summary: 'Prepare an export download: a signed token valid 5 minutes',
        description:
          'Checks the parameters (startDate <= endDate, valid dates: 40001) and signs them with the caller into a ' +
          'download token. ' +
          '`downloadUrl` (relative, token included) can be opened without an Authorization header, e.g. by a browser ' +
          'download.',
        body: ExportPrepareBody,
        response: { 200: ExportPrepareResult },
      },
    },
    async (req) => prepareExport(authn, userOf(req).id, req.body),
  );

  app.get(
    '/api/export',
    {
      config: { auth: 'token' },
      onRequest: async (req) => {
        const q = req.query as Record<string, unknown>;
        const token = typeof q.token === 'string' ? q.token : Array.isArray(q.token) ? String(q.token[0]) : undefined;
        const auth = await authorizeDownload(authn, token, bearerToken(req.headers.authorization));
        req.user = auth.user;
        downloads.set(req, auth);
      },
      schema: {
        summary: "Download the caller's transactions as a CSV or JSON file (streamed)",
        description:
          'Authorized by `Authorization: Bearer <access token>`, or by `?token=` holding an access token or the ' +
          'token of ' +
          'POST /api/export/prepare (whose parameters then win over the query; startDate and endDate may then be ' +
          'left out). ' +
          "A bad, expired or foreign token: 40101. The caller's own transactions (including those recorded in " +
          'groups) from ' +
          'startDate to endDate inclusive, of `type` (expense, income, transfer, adjustment or all, default all), ' +
          'ordered by date then id. ' +
          `${FORMAT_TEXT} Answered with Content-Disposition: attachment; filename="transactions-<startDate>-<endDate>.<csv|json>", ` +
          'Cache-Control: no-store and Referrer-Policy: no-referrer. The file is streamed page by page: memory does ' +
          'not grow with the number of rows.',
        querystring: ExportQuery,
        produces: ['text/csv', 'application/json'],
        response: {
          200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'the CSV or JSON file' }),
        },
      },
    },
    async (req, reply) => {
      const auth = downloads.get(req);
      if (!auth) throw Errors.unauthorized();
      const params = downloadParams(req.query, auth.params);
      return reply
        .header('Content-Disposition', `attachment; filename="${fileNameOf(params)}"`)
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .type(params.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .send(exportStream(app.db, auth.user.id, params));
    },
  );
}
