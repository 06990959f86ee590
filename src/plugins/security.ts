import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

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
    await app.register(helmet, {
      global: true,
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
    if (app.config.corsOrigins.length) await app.register(cors, { origin: app.config.corsOrigins, credentials: false });
  },
  { name: 'security', fastify: '5.x' },
);
