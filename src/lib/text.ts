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
