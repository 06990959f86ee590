import fp from 'fastify-plugin';
import { Errors } from '../lib/errors.ts';
import { nulPath } from '../lib/text.ts';

/**
 * Text with a NUL character is a validation failure (PostgreSQL refuses it in text). Checked after
 * validation and the route's own role checks, so the contract's order of errors holds.
 */
export default fp(
  async (app) => {
    app.addHook('preHandler', async (request) => {
      if (!request.routeOptions.url?.startsWith('/api')) return;
      for (const [part, value] of [['query', request.query], ['body', request.body], ['params', request.params]] as const) {
        const path = nulPath(value);
        if (path !== null) throw Errors.field(path || part, 'must not contain NUL characters');
      }
    });
  },
  { name: 'text-guard', fastify: '5.x', dependencies: ['errors'] },
);
