import fp from 'fastify-plugin';
import { Errors } from '../lib/errors.ts';
import { badTextIn } from '../lib/text.ts';

/**
 * Text PostgreSQL refuses (a NUL character; a lone UTF-16 surrogate, which is not Unicode and which
 * `jsonb` refuses while `text` would silently store U+FFFD) is a validation failure. Checked after
 * validation and the route's own role checks, so the contract's order of errors holds.
 */
export default fp(
  async (app) => {
    app.addHook('preHandler', async (request) => {
      if (!request.routeOptions.url?.startsWith('/api')) return;
      for (const [part, value] of [['query', request.query], ['body', request.body], ['params', request.params]] as const) {
        const bad = badTextIn(value);
        if (bad) throw Errors.field(bad.path || part, bad.problem);
      }
    });
  },
  { name: 'text-guard', fastify: '5.x', dependencies: ['errors'] },
);
