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

/** How deep a request body may nest objects and arrays; deeper is 40001 before anything walks it. */
export const MAX_JSON_DEPTH = 32;

// a high surrogate not followed by a low one, or a low one not preceded by a high one
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why PostgreSQL would refuse this text (NUL, or a lone UTF-16 surrogate that is not Unicode); null when it is fine.
 */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must not contain lone UTF-16 surrogates';
  return null;
}

/**
 * The first string (value or key) in a parsed request part that PostgreSQL would refuse, with its
 * path ("note", "items.2.name") and the reason; null when there is none. Walks with an explicit
 * stack, so no nesting depth can exhaust the call stack.
 */
export function badTextIn(root: unknown): { path: string; problem: string } | null {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { path, problem };
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    const entries = Object.entries(value);
    // pushed in reverse so that the first offending field in document order is reported
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, v] = entries[i]!;
      const sub = path ? `${path}.${key}` : key;
      const problem = textProblem(key);
      if (problem) return { path: sub, problem };
      stack.push([v, sub]);
    }
  }
  return null;
}

/**
 * The nesting depth of a JSON text, counted without parsing it (brackets outside strings), stopping
 * as soon as it passes `max`. Lets a parser refuse a deeply nested body before building it.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
