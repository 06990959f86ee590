import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const webRoot = fileURLToPath(new URL('../../web', import.meta.url));

/** Serves the web client (plain files, no build step) at / on the same origin as the API. */
async function registerWebClient(app: FastifyInstance): Promise<void> {
  if (!app.config.webClient) return;
  await app.register(fastifyStatic, { root: webRoot, prefix: '/', index: ['index.html'], wildcard: false, cacheControl: true, maxAge: 0 });
}

/** The not-found handler of `errors` answers unknown pages with the client's index page. */
export default fp(registerWebClient, { name: 'web-client', fastify: '5.x', dependencies: ['errors', 'openapi'] });
