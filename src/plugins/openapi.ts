import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorBody } from '../lib/schemas.ts';
import { applyBodyRule } from './body-rules.ts';
import { API_FEATURES, API_INTRO, featureOf } from './openapi-info.ts';

const ERROR_TEXT: Record<number, string> = {
  400: 'validation failed (40001)',
  401: 'not authenticated (40101, 40102, 40103, 40104, 40105, 40106, 40107, 40108)',
  403:
    "administrator required, registration closed or beyond an API token's scope (40301), or not allowed in that " +
    'group (40302), or an administrator without the second factor REQUIRE_ADMIN_TOTP asks for (40303)',
  404: 'not found or not visible to the caller (40401)',
  409: 'conflict (40901, 40902, 40903)',
  413: 'body or file too large (41301)',
  415: 'unsupported media type (41501)',
  422: 'refused by a business rule (42201, 42202, 42203)',
  429: 'rate limited (42901)',
  500: 'internal error (50001, 50002)',
  431: 'request headers too large (41301)',
  503: 'the database or another dependency is unavailable (50301); `Retry-After` says when to retry',
};

// Errors are JSON whatever the route's own answers are (an image, a gzip file, CSV).
const errorResponse = (status: number) => ({
  description: ERROR_TEXT[status] ?? 'error',
  content: { 'application/json': { schema: ErrorBody } },
});

/** the public routes that refuse a token or login code with 401 */
const PUBLIC_401 = new Set([
  '/api/auth/login',
  '/api/auth/password-login',
  '/api/auth/passkeys/login/verify',
  '/api/auth/totp/verify',
  '/api/auth/refresh',
  '/api/auth/logout',
]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Moves every schema with a `title` out of the operations into `components.schemas` under that
 * name (a different schema with the same title gets a numbered name) and refers to it there, so
 * generated clients get named types. Only request and response bodies are touched.
 */
export function hoistNamedSchemas(doc: Json): Json {
  const components = (doc.components ??= {}) as Json;
  const named = (components.schemas ??= {}) as Record<string, unknown>;
  const byJson = new Map<string, string>();
  const hoist = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(hoist);
    if (!isObject(schema)) return schema;
    const out: Json = {};
    for (const [k, v] of Object.entries(schema)) out[k] = k === 'examples' || k === 'example' ? v : hoist(v);
    const title = typeof out.title === 'string' ? out.title.replace(/[^A-Za-z0-9._-]/g, '') : '';
    if (!title) return out;
    const json = JSON.stringify(out);
    let name = byJson.get(json);
    if (!name) {
      name = title;
      for (let i = 2; name in named; i++) name = `${title}${i}`;
      named[name] = out;
      byJson.set(json, name);
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const op of Object.values(item)) {
      if (!isObject(op)) continue;
      for (const holder of [op.requestBody, ...Object.values((op.responses ?? {}) as Json)]) {
        if (!isObject(holder) || !isObject(holder.content)) continue;
        for (const media of Object.values(holder.content)) {
          if (isObject(media) && media.schema) media.schema = hoist(media.schema);
        }
      }
    }
  }
  return doc;
}

function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/?/, '')
    .split(/[/-]/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? 'by' + w.slice(1, 2).toUpperCase() + w.slice(2) : w));
  return [method.toLowerCase(), ...words]
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
}

/**
 * Every /api route gets the shared error responses, its security requirement and an operation id,
 * so that each route's schema declares only what is particular to it.
 */
export function decorateRoute(route: RouteOptions): void {
  const url = route.url;
  const config = (route.config ??= {}) as { auth?: string };
  const isApi = url.startsWith('/api/') && !url.startsWith('/api/docs') && url !== '/api/openapi.json';
  if (!isApi) {
    config.auth ??= 'public';
    route.schema = { ...(route.schema ?? {}), hide: true } as typeof route.schema;
    return;
  }
  const auth = (config.auth ??= 'user');
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  const response = (schema.response ??= {}) as Record<string, unknown>;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const writes = methods.some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m));
  const takesBody = Boolean(schema.body) || Boolean((schema.consumes as string[] | undefined)?.length);
  const codes = [400, 404, 429, 431, 500, 503];
  if (auth !== 'public' || PUBLIC_401.has(url)) codes.push(401);
  if (auth === 'admin' || auth === 'user') codes.push(403);
  if (writes) codes.push(409, 422);
  if (takesBody) codes.push(413, 415);
  for (const c of codes) response[c] ??= errorResponse(c);
  if (auth === 'user' || auth === 'admin') schema.security ??= [{ bearerAuth: [] }];
  if (auth === 'token') schema.security ??= [{ bearerAuth: [] }, { queryToken: [] }];
  if (auth === 'public') schema.security ??= [];
  schema.operationId ??= operationId(methods[0]!, url);
  // who may call it (public, user, admin, token), stated in the document for clients and checks
  schema['x-auth'] = auth;
  // credentials and sessions are managed only from a signed-in session, never with a personal API token
  if ((config as { session?: boolean }).session) schema['x-session-only'] = true;
  // one POST that carries reads and writes (the assistant endpoint): a token's scope is applied per operation
  if ((config as { scopePerOperation?: boolean }).scopePerOperation) schema['x-scope-per-operation'] = true;
  // grouped by feature; a path whose feature is not named answers under its own first segment, which
  // the documentation test refuses
  if (!schema.tags) schema.tags = [featureOf(url) ?? url.split('/')[2] ?? 'api'];
}

async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', decorateRoute);
  // before the document and the validators read it: each JSON body open or closed by its rule
  app.addHook('onRoute', applyBodyRule);
  await app.register(swagger, {
    // Uploads are read as streams (no body schema to validate); the document still describes the
    // multipart body with its `file` field.
    transform: ({ schema, url }) => {
      const consumes = (schema as { consumes?: string[] } | undefined)?.consumes;
      if (!consumes?.includes('multipart/form-data')) return { schema, url };
      const body = {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary', description: 'the uploaded file' } },
      };
      return { schema: { ...schema, body } as typeof schema, url };
    },
    transformObject: (documentObject) =>
      hoistNamedSchemas((documentObject as { openapiObject: Json }).openapiObject) as never,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bookkeeping service API',
        version: app.config.version,
        description: API_INTRO,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'this server' }],
      tags: API_FEATURES.map((f) => ({ ...f })),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'an access token (JWT) from a sign-in or refresh, or a personal API token (`lgr_...`): scope `read` ' +
              'allows GET and HEAD of user routes, `write` every user route; never administrator or session-only ' +
              '(`x-session-only`) routes (40301)',
          },
          queryToken: { type: 'apiKey', in: 'query', name: 'token', description: 'short-lived download token' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
}

/**
 * The OpenAPI 3.1 document at /api/openapi.json and its viewer at /api/docs. Registered before the
 * feature modules: its onRoute hook completes each route's schema as the route is added.
 */
export default fp(registerOpenApi, { name: 'openapi', fastify: '5.x' });
