import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const webRoot = fileURLToPath(new URL('../../web', import.meta.url));

/** Serves the web client (plain files, no build step) at / on the same origin as the API. */
export async function registerWebClient(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, { root: webRoot, prefix: '/', index: ['index.html'], wildcard: false, cacheControl: true, maxAge: 0 });
}
