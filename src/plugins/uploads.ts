import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Errors } from '../lib/errors.ts';

export const MULTIPART_FILE_LIMIT = 20 * 1024 * 1024;
/** room for the multipart boundaries and part headers around the file */
const MULTIPART_OVERHEAD = 64 * 1024;

/** Multipart uploads (avatars, imports, backup restores): one file of at most 20 MB per request. */
export default fp(
  async (app) => {
    await app.register(multipart, { limits: { fileSize: MULTIPART_FILE_LIMIT, files: 1, fields: 10, parts: 12 } });
    // a declared length over the limit is refused before a byte of the body is read (after
    // authentication: multipart bodies are read by the handler, not before validation)
    app.addHook('preValidation', async (request) => {
      const length = Number(request.headers['content-length']);
      if (request.isMultipart() && length > MULTIPART_FILE_LIMIT + MULTIPART_OVERHEAD)
        throw Errors.tooLarge(`the upload is larger than ${MULTIPART_FILE_LIMIT / 1048576} MiB`);
    });
  },
  { name: 'uploads', fastify: '5.x', dependencies: ['errors'] },
);

/**
 * The bytes of an uploaded file, refused with 41301 the moment it passes its size limit. (The
 * multipart parser's own `toBuffer()` notices the limit only when the part ends, after reading and
 * discarding everything the client sends; the answer here closes the connection at once.)
 */
export async function readUpload(file: MultipartFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const tooLarge = () => Errors.tooLarge('the file is larger than its limit');
  await new Promise<void>((resolve, reject) => {
    file.file.on('limit', () => {
      file.file.destroy();
      reject(tooLarge());
    });
    file.file.on('data', (c: Buffer) => chunks.push(c));
    file.file.on('error', reject);
    // a body that arrived at once may have passed the limit before anyone listened
    file.file.on('end', () => (file.file.truncated ? reject(tooLarge()) : resolve()));
  });
  return Buffer.concat(chunks);
}

/**
 * A signal that aborts when the client goes away before its answer is sent (the connection closed
 * or the request was aborted), so that reading a large upload stops with it.
 */
export function clientGone(req: FastifyRequest, reply: FastifyReply): AbortSignal {
  const ctl = new AbortController();
  const abort = () => {
    if (!reply.raw.writableEnded) ctl.abort();
  };
  // The socket outlives the request on a keep-alive connection: its listener goes when the answer
  // is done, or every upload on that connection would leave one behind.
  const socket = req.raw.socket;
  req.raw.once('aborted', abort);
  socket?.once('close', abort);
  reply.raw.once('close', () => {
    abort();
    req.raw.off('aborted', abort);
    socket?.off('close', abort);
  });
  return ctl.signal;
}
