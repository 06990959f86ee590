import { Errors } from './errors.ts';

/** Trims and checks a length in characters (code points), as the contract counts them. */
export function cleanText(value: string, field: string, min: number, max: number): string {
  const v = value.trim();
  const len = [...v].length;
  if (len < min) throw Errors.field(field, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
  if (len > max) throw Errors.field(field, `must be at most ${max} characters`);
  return v;
}

export function cleanOptionalText(value: string | null | undefined, field: string, max: number): string {
  if (value === undefined || value === null) return '';
  return cleanText(value, field, 0, max);
}

/**
 * The path of the first string holding a NUL character in a parsed request part (PostgreSQL refuses
 * NUL in text), e.g. "note" or "items.2.name"; null when there is none.
 */
export function nulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, v] of Object.entries(value)) {
    const sub = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return sub;
    const found = nulPath(v, sub);
    if (found !== null) return found;
  }
  return null;
}
