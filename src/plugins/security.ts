import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import cors from '@fastify/cors';
import fp from 'fastify-plugin';

type Helmet = (options: object) => (req: IncomingMessage, res: ServerResponse, next: (err?: Error) => void) => void;
// The helmet @fastify/helmet itself uses (its own dependency), so the headers are the same; that
// plugin builds it again, CSP parsing included, on every request, where one build serves them all.
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as Helmet;

/**
 * Security headers (a CSP without inline script), cross-origin rules (same origin unless
 * CORS_ORIGINS lists others) and the version and request id on every answer.
 */
export default fp(
  async (app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('X-App-Version', app.config.version);
      reply.header('X-Request-Id', request.id);
      return payload;
    });
    const securityHeaders = helmet({
      crossOriginResourcePolicy: { policy: 'same-origin' },
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'https:', 'http:'],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          upgradeInsecureRequests: null,
        },
      },
    });
    app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, done));
    if (app.config.corsOrigins.length) await app.register(cors, { origin: app.config.corsOrigins, credentials: false });
  },
  { name: 'security', fastify: '5.x' },
);
