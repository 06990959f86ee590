/**
 * A response schema as the serializer compiles it: every "this or null" (`anyOf: [X, {type: 'null'}]`,
 * how TypeBox spells a nullable value) becomes `type: [X's type, 'null']`. fast-json-stringify
 * serializes an `anyOf` by validating the value against each branch in turn, for every nullable
 * field of every row; a type list it answers with a `typeof` test. The output is the same bytes. The
 * schemas themselves (the OpenAPI document, request validation) are left as they are.
 */
export function nullableAsTypeList(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsTypeList);
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  const branches = s.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const nullAt = branches.findIndex((b) => isNullType(b));
    const other = branches[1 - nullAt] as Record<string, unknown> | undefined;
    if (nullAt >= 0 && other && typeof other.type === 'string' && other.type !== 'null') {
      const { anyOf: _dropped, ...rest } = s;
      return { ...(nullableAsTypeList(other) as object), ...rest, type: [other.type, 'null'] };
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = nullableAsTypeList(v);
  return out;
}

function isNullType(b: unknown): boolean {
  return typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'null';
}
