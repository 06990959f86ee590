import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import type { LogFileHealth } from './lib/logger.ts';
import { nullableAsTypeList } from './lib/serializer-schema.ts';
import { buildServices, registerModules } from './modules/index.ts';
import auth, { authGate } from './plugins/auth.ts';
import compression from './plugins/compress.ts';
import { compileBody } from './plugins/body-rules.ts';
import database from './plugins/database.ts';
import errors, { clientErrorHandler, frameworkErrors } from './plugins/errors.ts';
import graceful from './plugins/graceful.ts';
import { identityPlugin } from './modules/identity/index.ts';
import jsonBody from './plugins/json-body.ts';
import metrics, { metricsRoute } from './plugins/metrics.ts';
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
  /** the log file's state, reported by /api/health (always ok when not given) */
  logHealth?: () => LogFileHealth;
  clock?: Clock;
}

export const JSON_BODY_LIMIT = 1024 * 1024;

function makeAjv(coerce: boolean, removeAdditional = true) {
  const ajv = new Ajv.default({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional,
    allErrors: false,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

// Compiled validators and serializers are shared by every app instance of the process (tests and
// tools build many): route schemas are module constants, so a second instance compiles nothing.
// Ajv caches what it compiled by schema object; serializers are cached here the same way.
let bodyAjvs: { removing: Ajv.default; refusing: Ajv.default } | undefined;
let coercingAjv: Ajv.default | undefined;

type Serializer = (data: unknown) => string;
type SerializerCompiler = (route: {
  schema?: unknown;
  method?: string;
  url?: string;
  httpStatus?: string;
}) => Serializer;
type SerializerFactory = (externalSchemas: unknown, serializerOpts: unknown) => SerializerCompiler;
// the very factory Fastify itself would use (its own dependency), so output is byte for byte the same
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
let serializerFactory: SerializerFactory | undefined;
const serializers = new WeakMap<object, Serializer>();
const buildSerializer: SerializerFactory = (externalSchemas, serializerOpts) => {
  serializerFactory ??= (fastifyRequire('@fastify/fast-json-stringify-compiler') as () => SerializerFactory)();
  const compile = serializerFactory(externalSchemas, serializerOpts);
  // schemas added with addSchema (or serializer options) make the result depend on the instance
  if (serializerOpts !== undefined || Object.keys((externalSchemas as object | undefined) ?? {}).length > 0)
    return compile;
  return (route) => {
    const key = route.schema;
    if (typeof key !== 'object' || key === null) return compile(route);
    let fn = serializers.get(key);
    if (!fn) {
      fn = compile({ ...route, schema: nullableAsTypeList(key) });
      serializers.set(key, fn);
    }
    return fn;
  };
};

/**
 * A hop count trusts that many proxies nearest the service, whatever their address (only safe when
 * the service cannot be reached but through them); Fastify itself refuses to trust by count alone.
 */
function trustProxyOption(tp: Config['trustProxy']): false | string[] | ((addr: string, hop: number) => boolean) {
  if (typeof tp === 'number') return (_addr, hop) => hop < tp;
  return tp;
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
    trustProxy: trustProxyOption(config.trustProxy),
    connectionTimeout: config.timeouts.connectionMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    requestTimeout: config.timeouts.requestMs,
    routerOptions: { ignoreTrailingSlash: true },
    // Fastify's 10 s limit on a plugin's start catches callback plugins that never call done(); ours
    // are async functions, and opening the database may rightly take longer: migrations of a large
    // database, or the embedded one started from its template on a busy machine
    pluginTimeout: 0,
    // Node checks header and request timeouts only every connectionsCheckingInterval (30 s by
    // default): a slow-header client would hold its connection long past HEADERS_TIMEOUT_MS
    http: {
      headersTimeout: config.timeouts.headersMs,
      connectionsCheckingInterval: Math.max(250, Math.min(1000, Math.floor(config.timeouts.headersMs / 4))),
    },
    // on close, idle keep-alive connections go at once while requests in flight finish (the server
    // cuts what is left when the grace period ends); a request arriving on an open connection while
    // closing is still served, with `Connection: close`
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    // errors answered before a route or a request exists use the contract's envelope too
    frameworkErrors,
    clientErrorHandler,
    schemaController: { compilersFactory: { buildSerializer } },
  }) as unknown as FastifyInstance;
  app.server.headersTimeout = config.timeouts.headersMs;

  // Bodies are validated strictly (a string is never turned into a number); query strings,
  // params and headers are text by nature and are coerced. Unknown body fields: the first
  // contract's routes drop them, every other route refuses them (src/plugins/body-rules.ts).
  const bodies = (bodyAjvs ??= { removing: makeAjv(false), refusing: makeAjv(false, false) });
  const coercing = (coercingAjv ??= makeAjv(true));
  app.setValidatorCompiler((req) =>
    req.httpPart === 'body'
      ? (compileBody(bodies, req) as ReturnType<typeof coercing.compile>)
      : coercing.compile(req.schema),
  );

  app.decorate('config', config);
  app.decorate('logHealth', opts.logHealth ?? (() => ({ ok: true, error: null })));
  await app.register(errors);
  await app.register(compression);
  await app.register(graceful);
  await app.register(jsonBody);
  await app.register(database, { database: opts.database, clock: opts.clock });
  await app.register(metrics);
  await app.register(tokens);
  await app.register(security);
  await app.register(uploads);
  const services = buildServices(app);
  await app.register(identityPlugin, { apiTokens: services.identity.apiTokens });
  await app.register(auth);
  await app.register(sharedInvalidation);
  await app.register(rateLimit);
  await app.register(authGate);
  await app.register(textGuard);
  await app.register(openapi);
  await app.register(metricsRoute);

  await registerModules(app, services);
  await app.register(webClient);
  return app;
}
