declare const shapeOfText: unique symbol;

/**
 * JSON text already in the shape of `T`'s response schema, keys in the schema's order, written
 * where the data is (PostgreSQL builds a list's page this way). A route sends it as it is, without
 * the schema's serializer; whoever builds one has a test comparing it with that serializer's output.
 */
export type JsonText<T> = string & { readonly [shapeOfText]?: T };

/** `text`, declared to be JSON in the shape of `T`. */
export function jsonText<T>(text: string): JsonText<T> {
  return text as JsonText<T>;
}
