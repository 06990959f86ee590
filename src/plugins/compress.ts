import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Answers of text, JSON, JavaScript, CSS, SVG and XML go out compressed (brotli, else gzip) when the
 * client accepts it and the answer is larger than 1 KiB: on a slow phone link the bytes are most of
 * the wait. Brotli runs at quality 4, which costs little CPU per answer; the web client's own files
 * are compressed at build time at the highest quality and sent as they are (src/plugins/web.ts),
 * so this hook leaves them alone (they already carry `Content-Encoding`). Binary answers (images,
 * backups, spreadsheets, gzip files) are not touched. Request bodies are never decompressed: an
 * upload's limits are checked on the bytes received.
 */
export const COMPRESSIBLE =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|javascript(?:;|$)|(?:\+|\/)xml(?:;|$)|^image\/svg\+xml/u;

async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: COMPRESSIBLE,
  });
}

export default fp(registerCompression, { name: 'compress', fastify: '5.x', dependencies: ['errors'] });
