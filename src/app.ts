import { randomUUID } from 'node:crypto';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import { modules } from './modules/index.ts';
import auth from './plugins/auth.ts';
import database from './plugins/database.ts';
import errors from './plugins/errors.ts';
import openapi from './plugins/openapi.ts';
import rateLimit from './plugins/rate-limit.ts';
import security from './plugins/security.ts';
import sharedInvalidation from './plugins/shared-invalidation.ts';
import textGuard from './plugins/text-guard.ts';
import tokens from './plugins/tokens.ts';
import uploads from './plugins/uploads.ts';
import webClient from './plugins/web.ts';
import './types.ts';

export interface BuildOptions {
  /** an open database to use (tests share one between app instances); created from config otherwise */
  database?: Database;
  logger?: Logger;
  clock?: Clock;
}

export const JSON_BODY_LIMIT = 1024 * 1024;

function makeAjv(coerce: boolean) {
  const ajv = new Ajv.default({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

/**
 * The whole service without listening. Each plugin declares the plugins it needs, so fastify-plugin
 * refuses an order that would break them; the feature modules come last.
 */
export async function buildApp(config: Readonly<Config>, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: opts.logger,
    logger: opts.logger ? undefined : false,
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    // a hop count is supported at run time though the option's type leaves it out
    trustProxy: config.trustProxy as boolean | string[],
    connectionTimeout: config.timeouts.connectionMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    requestTimeout: config.timeouts.requestMs,
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: true,
  }) as unknown as FastifyInstance;
  app.server.headersTimeout = config.timeouts.headersMs;

  // Bodies are validated strictly (a string is never turned into a number); query strings,
  // params and headers are text by nature and are coerced.
  const strictAjv = makeAjv(false);
  const coercingAjv = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema));

  app.decorate('config', config);
  await app.register(errors);
  await app.register(database, { database: opts.database, clock: opts.clock });
  await app.register(tokens);
  await app.register(security);
  await app.register(uploads);
  await app.register(auth);
  await app.register(sharedInvalidation);
  await app.register(rateLimit);
  await app.register(textGuard);
  await app.register(openapi);

  for (const mod of modules) await app.register(mod);
  await app.register(webClient);
  return app;
}
