import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerFirstScreen } from './first-screen.ts';

/** The built web client (`npm run build:web`, or `npm start`, which builds it when stale). */
export const webRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Serves the built web client at / on the same origin as the API. Hashed files under /assets/
 * are cached for a year; everything else (the index page, the manifests and the service worker
 * above all) is revalidated, so that a new build reaches the browser at once. Client routes fall
 * back to the index page in the not-found handler, which never answers for /api. A client that
 * accepts brotli or gzip gets the copy compressed at build time. /, /books and /stats may come with
 * their first screen rendered in (first-screen.ts).
 */
async function registerWebClient(app: FastifyInstance): Promise<void> {
  if (!app.config.webClient) return;
  if (!existsSync(path.join(webRoot, 'index.html'))) {
    app.log.warn({ webRoot }, 'the web client is not built: run npm run build:web');
  }
  await app.register(fastifyStatic, {
    root: webRoot,
    prefix: '/',
    // / is one of the pages whose first screen the server may render (first-screen.ts)
    index: false,
    wildcard: false,
    cacheControl: false,
    // the build writes .br and .gz beside each text file (web/vite.config.ts): sent as they are
    preCompressed: true,
    setHeaders(res, file) {
      const immutable = file.startsWith(path.join(webRoot, 'assets') + path.sep);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      // the web app manifests; the service worker is checked on every visit (never cached long)
      if (file.endsWith('.webmanifest')) res.setHeader('Content-Type', 'application/manifest+json; charset=utf-8');
      if (file === path.join(webRoot, 'sw.js')) res.setHeader('Cache-Control', 'no-cache, max-age=0');
    },
  });
  await registerFirstScreen(app, webRoot);
}

/** The not-found handler of `errors` answers unknown pages with the client's index page. */
export default fp(registerWebClient, {
  name: 'web-client',
  fastify: '5.x',
  dependencies: ['errors', 'openapi', 'compress'],
});
