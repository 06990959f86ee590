import { Errors } from './errors.ts';

// at most 12 integer digits and 2 decimals; no sign, no exponent, no surrounding spaces
const AMOUNT_RE = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Parses a request amount (JSON number or decimal string) into integer hundredths, or throws 40001. */
export function parseAmount(value: unknown, field = 'amount'): number {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw Errors.field(field, 'must be a finite number');
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    throw Errors.field(field, 'must be a positive number with at most 2 decimals');
  }
  const m = AMOUNT_RE.exec(text);
  if (!m) throw Errors.field(field, 'must be a positive number with at most 2 decimals and at most 12 integer digits');
  const hundredths = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (hundredths <= 0) throw Errors.field(field, 'must be > 0');
  return hundredths;
}

/** Like parseAmount, but 0 is allowed (filter bounds). */
export function parseAmountBound(value: unknown, field: string): number {
  if (value === 0 || value === '0' || value === '0.0' || value === '0.00') return 0;
  return parseAmount(value, field);
}

/** Integer hundredths to a JSON number in major units. Division by 100 is exact to the printed 2 decimals. */
export function toMajor(hundredths: number | bigint | string | null | undefined): number {
  if (hundredths === null || hundredths === undefined) return 0;
  const n = typeof hundredths === 'number' ? hundredths : Number(hundredths);
  return n / 100;
}
