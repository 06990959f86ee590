import type { FastifyInstance } from 'fastify';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface DocumentedRoute {
  method: Method;
  /** the OpenAPI path, e.g. `/api/tags/{id}` */
  path: string;
  /** `METHOD /path`, the key tables are written against */
  key: string;
  /** `x-auth` as the document states it (public, user, admin, token), when it does */
  auth: string | undefined;
  pathParams: string[];
  /** top-level query parameter names */
  queryParams: string[];
  /** JSON body property names, nested ones dotted (`criteria.tag_ids`) */
  bodyFields: string[];
}

interface Schema {
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  type?: string | string[];
}

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  'x-auth'?: string;
}

/** named schemas live in `components.schemas` and are referred to by `$ref` */
function fieldsOf(schema: Schema | undefined, named: Record<string, Schema>, prefix = ''): string[] {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  if (ref) schema = named[ref.split('/').pop()!];
  if (!schema) return [];
  const out: string[] = [];
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    out.push(prefix + name);
    out.push(...fieldsOf(sub, named, `${prefix}${name}.`));
  }
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    out.push(...fieldsOf(alt, named, prefix));
  return [...new Set(out)];
}

/** Every operation of the served OpenAPI document (generated from the registered routes). */
export function documentedRoutes(app: FastifyInstance): DocumentedRoute[] {
  const doc = app.swagger() as {
    paths?: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const named = doc.components?.schemas ?? {};
  const out: DocumentedRoute[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [m, op] of Object.entries(ops)) {
      const method = m.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(method)) continue;
      const params = op.parameters ?? [];
      out.push({
        method: method as Method,
        path,
        key: `${method} ${path}`,
        auth: op['x-auth'],
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: fieldsOf(op.requestBody?.content?.['application/json']?.schema, named),
      });
    }
  }
  return out;
}

/**
 * Whether a body or query field names another resource by id: `id`, `ids`, `*_id`, `*_ids`, or a
 * move target such as `migrate_to`.
 */
export function isReferenceField(field: string): boolean {
  const last = field.split('.').pop()!;
  return /^ids?$/.test(last) || /_ids?$/.test(last) || /_to$/.test(last);
}

/** `METHOD /path in.field` for every reference field of a route (`q.` query, `b.` body). */
export function referenceKeys(route: DocumentedRoute): string[] {
  return [
    ...route.queryParams.filter(isReferenceField).map((f) => `${route.key} q.${f}`),
    ...route.bodyFields.filter(isReferenceField).map((f) => `${route.key} b.${f}`),
  ];
}
