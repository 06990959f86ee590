import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createDatabase, runMigrations, type Database } from './db/client.ts';
import { Errors } from './lib/errors.ts';
import { badTextIn } from './lib/text.ts';
import { createTokenService } from './modules/auth/tokens.ts';
import { modules } from './modules/index.ts';
import { createUserStateCache, installAuth } from './plugins/auth.ts';
import { installErrorHandler } from './plugins/errors.ts';
import { decorateRoute, registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { shareUserInvalidation } from './plugins/shared-invalidation.ts';
import { registerWebClient } from './plugins/web.ts';
import './types.ts';

export interface BuildOptions {
  /** an open database to use (tests share one between app instances); created from config otherwise */
  database?: Database;
  logger?: Logger;
}

export const JSON_BODY_LIMIT = 1024 * 1024;
export const MULTIPART_FILE_LIMIT = 20 * 1024 * 1024;

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

export async function buildApp(config: Readonly<Config>, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: opts.logger,
    logger: opts.logger ? undefined : false,
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: true,
  }) as unknown as FastifyInstance;

  // Bodies are validated strictly (a string is never turned into a number); query strings,
  // params and headers are text by nature and are coerced.
  const strictAjv = makeAjv(false);
  const coercingAjv = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema));

  const ownsDatabase = !opts.database;
  const database = opts.database ?? (await createDatabase({ databaseUrl: config.databaseUrl, embeddedDbDir: config.embeddedDbDir }));
  if (ownsDatabase) await runMigrations(database);

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('tokens', createTokenService(config.jwtSecret));
  app.decorate('userState', createUserStateCache(database.db, config.authCacheTtlMs));

  app.addHook('onRoute', decorateRoute);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-App-Version', config.version);
    reply.header('X-Request-Id', reply.request.id);
    return payload;
  });
  if (ownsDatabase) app.addHook('onClose', async () => database.close());
  // after validation and the route's own role checks: text PostgreSQL refuses (NUL, lone
  // surrogates) is a validation failure
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.url?.startsWith('/api')) return;
    for (const [part, value] of [['query', request.query], ['body', request.body], ['params', request.params]] as const) {
      const bad = badTextIn(value);
      if (bad) throw Errors.field(bad.path || part, bad.problem);
    }
  });

  installErrorHandler(app);
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
  if (config.corsOrigins.length) await app.register(cors, { origin: config.corsOrigins, credentials: false });
  await app.register(multipart, { limits: { fileSize: MULTIPART_FILE_LIMIT, files: 1, fields: 10, parts: 12 } });
  await shareUserInvalidation(app);
  installAuth(app);
  await registerRateLimit(app);
  await registerOpenApi(app);

  for (const mod of modules) await app.register(mod);
  if (config.webClient) await registerWebClient(app);
  return app;
}
