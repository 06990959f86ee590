import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Errors } from '../../lib/errors.ts';
import { dataFileFormat } from '../../plugins/metrics.ts';
import { clientGone, readUpload } from '../../plugins/uploads.ts';
import { IDEMPOTENCY_KEY_PATTERN, withIdempotency } from '../idempotency/index.ts';
import { bearerToken, userOf } from '../../plugins/auth.ts';
import { ExportPrepareBody, ExportPrepareResult, ExportQuery, ImportQuery, ImportResult } from './export-import.schemas.ts';
import { authorizeDownload, downloadParams, exportStream, fileNameOf, prepareExport, type DownloadAuth, type DownloadAuthenticator } from './export.service.ts';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, importFile } from './import.service.ts';

const FORMAT_TEXT =
  'CSV: UTF-8 with BOM, header `date,kind,amount,category,note,tags,group_id,created_at,account,currency,to_account,to_amount,rate`; ' +
  'kind expense, income, transfer or adjustment; amount a plain decimal with the decimals of `currency` (`12.50` CNY, `1200` JPY; an adjustment\'s ' +
  'amount is signed), category empty for transfers and adjustments, tags joined by `|`, group_id empty for personal rows, created_at ISO 8601 UTC, ' +
  '`account` the name of the account the money left or arrived in (empty for a group row recorded for another payer), `currency` its ISO 4217 code, ' +
  '`to_account` and `to_amount` (in the receiving account\'s currency) for transfers only, `rate` the base-currency units per unit of `currency` ' +
  'used at booking (empty in the base currency). A transfer\'s fee is an expense row of its own. A text cell (category, note, tags, accounts) ' +
  'starting with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `\'` so that spreadsheets do not run it as a formula. ' +
  'JSON: one array of objects with the same keys (amount a number, tags an array of names, group_id a number or null).';

export default async function exportImportRoutes(fastify: FastifyInstance) {
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
          'Checks the parameters (startDate <= endDate, valid dates: 40001) and signs them with the caller into a download token. ' +
          '`downloadUrl` (relative, token included) can be opened without an Authorization header, e.g. by a browser download.',
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
          'Authorized by `Authorization: Bearer <access token>`, or by `?token=` holding an access token or the token of ' +
          'POST /api/export/prepare (whose parameters then win over the query; startDate and endDate may then be left out). ' +
          'A bad, expired or foreign token: 40101. The caller\'s own transactions (including those recorded in groups) from ' +
          'startDate to endDate inclusive, of `type` (expense, income, transfer, adjustment or all, default all), ordered by date then id. ' +
          `${FORMAT_TEXT} Answered with Content-Disposition: attachment; filename="transactions-<startDate>-<endDate>.<csv|json>", ` +
          'Cache-Control: no-store and Referrer-Policy: no-referrer. The file is streamed page by page: memory does not grow with the number of rows.',
        querystring: ExportQuery,
        produces: ['text/csv', 'application/json'],
        response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'the CSV or JSON file' }) },
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

  app.post(
    '/api/import',
    {
      schema: {
        summary: 'Import transactions from a CSV or JSON file (multipart field `file`)',
        description:
          `The file as the export writes it. ${FORMAT_TEXT} Import reads UTF-8 (with or without BOM) and GB18030/GBK, ` +
          'recognised from the bytes, and CSV or JSON, recognised from the content. CSV needs a header row naming at least ' +
          'date, kind, amount and category (note, tags, group_id, created_at, account, currency, to_account, to_amount and rate optional, other columns ignored; ' +
          'the `\'` formula prefix is removed). A file without the account columns still imports: its rows go to the default account, amounts in its currency. ' +
          'An `account` (or `to_account`) name the caller does not have is CREATED by the import (type other, in the row\'s `currency`, else the base currency, ' +
          'opening balance 0 on the date of its first row) and the answer\'s `accounts_created` names it; archived accounts are matched by name as well. ' +
          'Row errors of the money columns: a `currency` other than its account\'s, more decimals than that currency has, a row in a foreign currency ' +
          'without `rate` and without a rate in the caller\'s rates on or before its date, a transfer without to_account, to the same account, or between ' +
          'currencies without to_amount, a category on a transfer or an adjustment, a transfer or an adjustment in a group. ' +
          `At most ${IMPORT_MAX_BYTES / 1048576} MiB and ${IMPORT_MAX_ROWS} rows (more: 41301). A file that is not CSV or JSON at all: 40001. ` +
          'All or nothing: any invalid row answers 422 code 42203 with `errors: [{row, message}]` listing every bad row (row 1 = the first data row) and nothing is written. ' +
          'A row counts as a duplicate (skipped) while the caller already has as many transactions with the same date, kind, amount, category, note and account ' +
          'as the file holds so far; so importing the same file twice, or one\'s own export, adds nothing. Unknown category names are created with ' +
          'the row\'s kind (refused past 200 categories per user), unknown tag names are created. A group_id is kept only when the caller is a member of ' +
          'that live group; otherwise the row is imported as personal. created_at is kept when given, else the import time. ' +
          '`?dry_run=true` answers 200 with what a real run would do and writes nothing: with invalid rows, `imported: 0, skipped: 0` and the `errors`. ' +
          'An optional Idempotency-Key header (1 to 64 visible characters) replays the first answer for the same file and dry_run.',
        consumes: ['multipart/form-data'],
        querystring: ImportQuery,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN })) }),
        response: { 200: ImportResult },
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      if (!req.isMultipart()) throw Errors.unsupportedMedia('send the file as multipart/form-data, field "file"');
      const signal = clientGone(req, reply);
      const file = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES } });
      if (!file || file.fieldname !== 'file') throw Errors.field('file', 'is required');
      const bytes = await readUpload(file);
      const dryRun = req.query.dry_run === true;
      const measured = app.metrics.importTimer(dryRun ? 'import_dry_run' : 'import', bytes.length);
      const out = await withIdempotency(
        app.db,
        { userId: user.id, scope: 'import', key: req.headers['idempotency-key'], body: { file: bytes, dry_run: dryRun } },
        async (tx) => ({ status: 200, body: await importFile(tx, user.id, bytes, dryRun, signal) }),
      );
      if (!out.replayed && !out.body.errors.length) measured(dataFileFormat(bytes), out.body.imported + out.body.skipped);
      // only a 200 answer is ever stored and replayed
      return reply.code(out.status as 200).send(out.body);
    },
  );
}
