import fp from 'fastify-plugin';
import { Errors } from '../lib/errors.ts';
import { CANONICAL_INTEGER, integerFields } from '../lib/schemas.ts';
import { badTextIn } from '../lib/text.ts';

/**
 * Text PostgreSQL refuses (a NUL character; a lone UTF-16 surrogate, which is not Unicode and which
 * `jsonb` refuses while `text` would silently store U+FFFD) is a validation failure. Checked after
 * validation and the route's own role checks, so the contract's order of errors holds.
 */
export default fp(
  async (app) => {
    // Integers in the path and query string are canonical decimal digits: the validator's coercion
    // would read 0x6d6, 1.75e3, +1750, 01750, 1750.0 or " 1750" as 1750. Checked before validation.
    const integers = new Map<string, { params: string[]; query: string[] }>();
    app.addHook('onRoute', (route) => {
      const schema = route.schema as { params?: unknown; querystring?: unknown } | undefined;
      const fields = { params: integerFields(schema?.params), query: integerFields(schema?.querystring) };
      if (!fields.params.length && !fields.query.length) return;
      for (const method of [route.method].flat()) integers.set(`${method} ${route.url}`, fields);
    });
    app.addHook('preValidation', async (request) => {
      const fields = integers.get(`${request.method} ${request.routeOptions.url}`);
      if (!fields) return;
      for (const [part, names, values] of [
        ['params', fields.params, request.params],
        ['query', fields.query, request.query],
      ] as const) {
        for (const name of names) {
          const raw = (values as Record<string, unknown> | undefined)?.[name];
          for (const v of [raw].flat()) {
            if (typeof v === 'string' && !CANONICAL_INTEGER.test(v))
              throw Errors.field(name, `must be written as decimal digits (${part})`);
          }
        }
      }
    });
    app.addHook('preHandler', async (request) => {
      if (!request.routeOptions.url?.startsWith('/api')) return;
      for (const [part, value] of [
        ['query', request.query],
        ['body', request.body],
        ['params', request.params],
      ] as const) {
        const bad = badTextIn(value);
        if (bad) throw Errors.field(bad.path || part, bad.problem);
      }
    });
  },
  { name: 'text-guard', fastify: '5.x', dependencies: ['errors'] },
);
