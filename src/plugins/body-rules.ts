import type { RouteOptions } from 'fastify';

/**
 * Unknown fields in JSON bodies, one rule for the whole API:
 *
 * - the first contract's operations (listed below) accept and ignore unknown fields, because the
 *   clients written against that contract may send extra ones: their bodies are documented open
 *   and unknown fields are dropped before the handler sees the body;
 * - every other operation refuses an unknown field with 400 (40001) naming it, and its body is
 *   documented closed (`additionalProperties: false`), nested objects included.
 *
 * A nested object that states `additionalProperties: true` (or a schema for its values) is a
 * free-form map by design and stays as it is under both rules.
 */

/** Every operation of the first contract that takes a body or may (its writes), as `METHOD /path`. */
export const FIRST_CONTRACT_WRITES: ReadonlySet<string> = new Set([
  'POST /api/auth/login',
  'POST /api/auth/demo-login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'PUT /api/me',
  'POST /api/me/avatar',
  'PUT /api/admin/config',
  'POST /api/transactions',
  'PUT /api/transactions/:id',
  'DELETE /api/transactions/:id',
  'POST /api/tags',
  'PUT /api/tags/:id',
  'DELETE /api/tags/:id',
  'POST /api/filters',
  'PUT /api/filters/:id',
  'DELETE /api/filters/:id',
  'POST /api/categories',
  'PUT /api/categories/sort',
  'PUT /api/categories/:id',
  'POST /api/categories/:id/migrate',
  'DELETE /api/categories/:id',
  'PUT /api/budget',
  'PUT /api/budget/mine',
  'POST /api/groups',
  'POST /api/groups/join',
  'POST /api/groups/:id/leave',
  'POST /api/groups/:id/dissolve',
  'POST /api/groups/:id/refresh-code',
  'POST /api/groups/:id/remove-member',
  'POST /api/notifications/:id/read',
  'POST /api/notifications/read-all',
  'POST /api/notifications',
  'PUT /api/notifications/:id',
  'PUT /api/notifications/:id/pin',
  'DELETE /api/notifications/:id',
  'POST /api/feedback',
  'POST /api/admin/feedback/:id/reply',
  'PUT /api/admin/feedback/:id/status',
  'POST /api/recurring',
  'PUT /api/recurring/:id',
  'DELETE /api/recurring/:id',
  'POST /api/export/prepare',
  'POST /api/import',
  'DELETE /api/admin/users/:id',
  'POST /api/admin/users/:id/restore',
  'PUT /api/admin/users/:id/status',
  'PUT /api/admin/users/:id/role',
  'POST /api/backup',
  'DELETE /api/backup/:id',
  'POST /api/track',
]);

const normalUrl = (url: string) => (url.length > 1 ? url.replace(/\/+$/, '') : url);

/** whether `METHOD url` (Fastify's `:param` syntax) is an operation of the first contract */
export function isFirstContract(method: string | string[] | undefined, url: string | undefined): boolean {
  if (!url) return false;
  const methods = Array.isArray(method) ? method : [method ?? ''];
  return methods.some((m) => FIRST_CONTRACT_WRITES.has(`${m.toUpperCase()} ${normalUrl(url)}`));
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/**
 * A copy of a body schema with every object that declares its fields set to `closed` (true: no
 * other field; false: other fields allowed, the keyword left out). Objects that state
 * `additionalProperties: true` or a schema for their values are left as they are.
 */
function withFields(schema: unknown, closed: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((s) => withFields(s, closed));
  if (!isObject(schema)) return schema;
  const out: Json = { ...schema };
  if (isObject(out.properties)) {
    const props: Json = {};
    for (const [k, v] of Object.entries(out.properties)) props[k] = withFields(v, closed);
    out.properties = props;
  }
  if (out.items !== undefined) out.items = withFields(out.items, closed);
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(out[key])) out[key] = withFields(out[key], closed);
  const declaresFields = out.type === 'object' || isObject(out.properties);
  const ap = out.additionalProperties;
  if (declaresFields && (ap === undefined || ap === false)) {
    if (closed) out.additionalProperties = false;
    else delete out.additionalProperties;
  }
  return out;
}

export const closedBody = (schema: unknown): unknown => withFields(schema, true);
export const openBody = (schema: unknown): unknown => withFields(schema, false);

/**
 * onRoute hook: gives each route with a JSON body its own copy of the body schema, open for the
 * first contract and closed for every other route. The OpenAPI document is generated from it.
 */
export function applyBodyRule(route: RouteOptions): void {
  const schema = route.schema as Json | undefined;
  if (!schema || !isObject(schema.body)) return;
  schema.body = isFirstContract(route.method, route.url) ? openBody(schema.body) : closedBody(schema.body);
}

interface Compiler {
  compile(schema: unknown): unknown;
}

/**
 * The body validator of a route: a first-contract body is checked against its closed copy by an
 * ajv that removes what is not declared (so the handler never sees unknown fields), every other
 * body against its (closed) schema by an ajv that refuses them, naming the field.
 */
export function compileBody(
  ajvs: { removing: Compiler; refusing: Compiler },
  { schema, method, url }: { schema: unknown; method?: string | string[]; url?: string },
): unknown {
  return isFirstContract(method, url)
    ? ajvs.removing.compile(closedBody(schema))
    : ajvs.refusing.compile(closedBody(schema));
}
