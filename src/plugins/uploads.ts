import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';

export const MULTIPART_FILE_LIMIT = 20 * 1024 * 1024;

/** Multipart uploads (avatars, imports, backup restores): one file of at most 20 MB per request. */
export default fp(
  async (app) => {
    await app.register(multipart, { limits: { fileSize: MULTIPART_FILE_LIMIT, files: 1, fields: 10, parts: 12 } });
  },
  { name: 'uploads', fastify: '5.x', dependencies: ['errors'] },
);
