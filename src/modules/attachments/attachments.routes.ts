import { createReadStream, type ReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Errors } from '../../lib/errors.ts';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { readUpload } from '../../plugins/uploads.ts';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MAX_PIXELS } from './attachments.files.ts';
import { AttachmentList, AttachmentSchema, AttachmentUsage, ExportQuery } from './attachments.schemas.ts';
import { ATTACHMENTS_PER_TRANSACTION, type AttachmentService } from './attachments.service.ts';
import { typed, type TypedApp } from '../routes.ts';

const Binary = Type.Unsafe<ReadStream>({ type: 'string', format: 'binary', description: 'the file' });
const Zip = Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', format: 'binary', description: 'the zip' });

/** RFC 6266 filename with an ASCII fallback and the UTF-8 name */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A root hook: a transaction removed by the books takes its attachment rows with it (foreign key),
 * as does a person's or a group's removal; the files follow as soon as such an answer is sent. A
 * removal is a DELETE, or a correction of a record (its shares or split rows replaced); a new record
 * or a new attachment removes nothing, so the busiest write goes without the sweep.
 */
export function sweepAfterRemovals(service: AttachmentService) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode >= 300 || req.method === 'GET' || req.method === 'HEAD') return;
    const removes = req.method === 'DELETE' || (req.method !== 'POST' && req.url.startsWith('/api/transactions'));
    if (removes) service.sweep().catch((err: unknown) => req.log.warn({ err }, 'attachment sweep failed'));
  };
}

export default async function attachmentsRoutes(
  fastify: FastifyInstance,
  { attachments: service }: { attachments: AttachmentService },
) {
  const app = typed(fastify);
  registerTransactionFiles(app, service);
  registerAttachmentRoutes(app, service);
}

/** A transaction's attachments: added and listed. */
function registerTransactionFiles(app: TypedApp, service: AttachmentService) {
  app.post(
    '/api/transactions/:id/attachments',
    {
      schema: {
        tags: ['Transactions'],
        summary: 'Attach a file (multipart field `file`) to a transaction',
        description:
          `JPEG, PNG, WebP or PDF, at most ${ATTACHMENT_MAX_BYTES / 1048576} MiB and ${ATTACHMENT_MAX_PIXELS / 1e6} million pixels ` +
          `(41301), read from its bytes (else 41501, naming HEIC, SVG or HTML); a damaged image or PDF, a PDF with JavaScript or ` +
          `too many pages: 42201 or 41501. Location data (EXIF) is removed and a thumbnail made. At most ${ATTACHMENTS_PER_TRANSACTION} ` +
          'files a transaction and your storage quota (42201). The same file twice on one transaction is one ' +
          'attachment. ' +
          "Yours, or a group row of a group you are in; another's: 40401.",
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 201: AttachmentSchema },
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      if (!req.isMultipart()) throw Errors.unsupportedMedia('send the file as multipart/form-data, field "file"');
      const file = await req.file({ limits: { fileSize: ATTACHMENT_MAX_BYTES } });
      if (!file || file.fieldname !== 'file') throw Errors.field('file', 'is required');
      const bytes = await readUpload(file);
      const saved = await service.attach(user.id, req.params.id, { bytes, name: file.filename ?? '' });
      return reply.code(201).send(saved);
    },
  );

  app.get(
    '/api/transactions/:id/attachments',
    {
      schema: {
        tags: ['Transactions'],
        summary: "A transaction's attachments",
        params: IdParams,
        response: { 200: AttachmentList },
      },
    },
    async (req) => ({ list: await service.list(userOf(req).id, req.params.id) }),
  );
}

/** The storage one's attachments use, a zip of them, their files, and an attachment deleted. */
function registerAttachmentRoutes(app: TypedApp, service: AttachmentService) {
  app.get(
    '/api/attachments/usage',
    {
      schema: {
        tags: ['Transactions'],
        summary: 'Storage your attachments take, and your quota',
        response: { 200: AttachmentUsage },
      },
    },
    async (req) => service.usage(userOf(req).id),
  );

  app.get(
    '/api/attachments/export',
    {
      schema: {
        tags: ['Transactions'],
        summary: 'A zip of the attachments of your entries booked between two dates',
        description:
          'One folder a day (YYYY-MM-DD/<transaction id>-<attachment id>-<name>) and index.csv (UTF-8 with BOM): ' +
          'file, ' +
          'transaction_id, date, kind, amount, currency, note. Your own entries only.',
        querystring: ExportQuery,
        produces: ['application/zip'],
        response: { 200: Zip },
      },
    },
    async (req, reply) => {
      const { start_date: start, end_date: end } = req.query;
      const zip = await service.exportZip(userOf(req).id, start, end);
      return reply
        .header('Content-Disposition', disposition('attachment', `attachments-${start}-${end}.zip`))
        .header('Cache-Control', 'no-store')
        .type('application/zip')
        .send(zip.stream);
    },
  );

  registerAttachmentFiles(app, service);

  app.delete(
    '/api/attachments/:id',
    {
      schema: {
        tags: ['Transactions'],
        summary: 'Remove an attachment; its file goes with the last row that uses it',
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

/** An attachment's file and an image's thumbnail, sent so that a browser shows them but runs nothing in them. */
function registerAttachmentFiles(app: TypedApp, service: AttachmentService) {
  for (const thumbnail of [false, true]) {
    app.get(
      thumbnail ? '/api/attachments/:id/thumbnail' : '/api/attachments/:id/file',
      {
        schema: {
          tags: ['Transactions'],
          summary: thumbnail ? "An image attachment's thumbnail (WebP)" : 'An attachment file',
          description:
            'Sent with `X-Content-Type-Options: nosniff`, a `sandbox` Content-Security-Policy and ' +
            'Content-Disposition ' +
            "(inline for images, attachment for PDF). Readable by the transaction's owner and, for a group row, its " +
            'members.',
          params: IdParams,
          produces: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'],
          response: { 200: Binary },
        },
      },
      async (req, reply) => {
        const file = await service.open(userOf(req).id, req.params.id, thumbnail);
        return reply
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
          .header(
            'Content-Disposition',
            disposition(file.mime === 'application/pdf' ? 'attachment' : 'inline', file.name),
          )
          .header('Cache-Control', 'private, max-age=86400')
          .header('ETag', `"${file.sha256}${thumbnail ? '-t' : ''}"`)
          .type(file.mime)
          .send(createReadStream(file.path));
      },
    );
  }
}
