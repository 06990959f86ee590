import cc from 'currency-codes';
import { Errors } from './errors.ts';

/**
 * Currencies and exact money arithmetic across them. Amounts are integers in each currency's minor
 * unit (ISO 4217 exponent: 2 for CNY/USD/EUR, 0 for JPY/KRW, 3 for KWD/BHD), taken from the
 * maintained `currency-codes` table. Conversions multiply by a decimal rate with BigInt arithmetic
 * and round once, half away from zero: no binary floating point touches an amount.
 */

/**
 * Codes in the table that are not money one keeps books in: precious metals, units of account, test and "no currency"
 * codes, and fund codes.
 */
const NOT_BOOKABLE = new Set([
  'XAG',
  'XAU',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XPD',
  'XPT',
  'XTS',
  'XXX',
  'XDR',
  'XSU',
  'XUA',
  'CHE',
  'CHW',
  'CLF',
  'COU',
  'MXV',
  'USN',
  'UYI',
  'UYW',
  'BOV',
]);

export interface CurrencyInfo {
  code: string;
  /** digits of the minor unit */
  digits: number;
  name: string;
}

/** The currency of an ISO 4217 code one can keep books in; undefined otherwise. */
export function currencyInfo(code: string): CurrencyInfo | undefined {
  if (!/^[A-Z]{3}$/.test(code) || NOT_BOOKABLE.has(code)) return undefined;
  const rec = cc.code(code);
  if (!rec || !Number.isInteger(rec.digits)) return undefined;
  return { code: rec.code, digits: rec.digits, name: rec.currency };
}

/** Every bookable currency, by code. */
export function bookableCurrencies(): CurrencyInfo[] {
  return cc
    .codes()
    .map((c) => currencyInfo(c))
    .filter((c): c is CurrencyInfo => c !== undefined)
    .sort((a, b) => a.code.localeCompare(b.code));
}

/** The currency of `code`, or 40001 on `field`. */
export function requireCurrency(code: unknown, field = 'currency'): CurrencyInfo {
  const info = typeof code === 'string' ? currencyInfo(code) : undefined;
  if (!info) throw Errors.field(field, 'must be an ISO 4217 currency code such as CNY, USD or JPY');
  return info;
}

// at most 15 integer digits (amounts stay within Number.MAX_SAFE_INTEGER minor units for 0 to 3 decimals)
const DECIMAL_RE = /^(-)?(\d{1,15})(?:\.(\d+))?$/;

/**
 * A decimal amount (JSON number or string) in `currency`'s minor units. More decimals than the
 * currency has, a sign when `allowNegative` is false, an exponent or spaces: 40001 on `field`.
 */
export function parseMinor(
  value: unknown,
  currency: CurrencyInfo,
  field = 'amount',
  opts: { allowNegative?: boolean; allowZero?: boolean } = {},
): number {
  const text =
    typeof value === 'number' && Number.isFinite(value) ? numberText(value) : typeof value === 'string' ? value : null;
  const m = text === null ? null : DECIMAL_RE.exec(text);
  const shape = currency.digits ? `a number with at most ${currency.digits} decimals` : 'a whole number';
  if (!m) throw Errors.field(field, `must be ${shape} (${currency.code})`);
  const [, sign, int, frac = ''] = m;
  if (frac.length > currency.digits)
    throw Errors.field(field, `must have at most ${currency.digits} decimals in ${currency.code}`);
  const minor = Number(int) * 10 ** currency.digits + Number(frac.padEnd(currency.digits, '0') || '0');
  if (!Number.isSafeInteger(minor)) throw Errors.field(field, 'is too large');
  const signed = sign ? -minor : minor;
  if (signed < 0 && !opts.allowNegative) throw Errors.field(field, 'must not be negative');
  if (signed === 0 && !opts.allowZero) throw Errors.field(field, 'must not be zero');
  return signed === 0 ? 0 : signed;
}

/** the integer digits a booked amount may have, in any currency (as for transactions) */
export const AMOUNT_INTEGER_DIGITS = 12;

/** parseMinor within the bounds of a booked amount: at most AMOUNT_INTEGER_DIGITS integer digits */
export function parseBookedMinor(
  value: unknown,
  currency: CurrencyInfo,
  field = 'amount',
  opts: { allowNegative?: boolean; allowZero?: boolean } = {},
): number {
  const minor = parseMinor(value, currency, field, opts);
  if (Math.abs(minor) >= 10 ** (AMOUNT_INTEGER_DIGITS + currency.digits))
    throw Errors.field(field, `must have at most ${AMOUNT_INTEGER_DIGITS} integer digits`);
  return minor;
}

/** A JSON number's text; an exponent form (1e-7, 1e21) then fails the decimal pattern and is refused. */
function numberText(n: number): string {
  return String(n);
}

/** Minor units to a JSON number in major units (exact to the currency's decimals when printed). */
export function toMajorUnits(minor: number | bigint | string, currency: CurrencyInfo): number {
  return Number(minor) / 10 ** currency.digits;
}

/** Minor units as a decimal string with exactly the currency's decimals ("-12.30"). */
export function formatMinor(minor: number | bigint, currency: CurrencyInfo): string {
  const v = BigInt(minor);
  const neg = v < 0n;
  const abs = (neg ? -v : v).toString().padStart(currency.digits + 1, '0');
  const int = abs.slice(0, abs.length - currency.digits);
  const frac = abs.slice(abs.length - currency.digits);
  return `${neg ? '-' : ''}${int}${currency.digits ? '.' + frac : ''}`;
}

const RATE_RE = /^(\d{1,12})(?:\.(\d{1,12}))?$/;
/** the largest rate accepted: units of one currency worth a billion of another is beyond any real pair */
export const MAX_RATE = 1_000_000_000n;

/**
 * An exchange rate as an exact fraction: "7.1234" -> 71234/10000. Positive, at most 1e9, at most 12 decimals; else
 * 40001 on `field`.
 */
export interface Rate {
  num: bigint;
  den: bigint;
}

export function parseRate(value: unknown, field = 'rate'): Rate {
  const text =
    typeof value === 'number' && Number.isFinite(value) ? numberText(value) : typeof value === 'string' ? value : null;
  const m = text === null ? null : RATE_RE.exec(text);
  if (!m) throw Errors.field(field, 'must be a positive decimal number with at most 12 decimals');
  const frac = m[2] ?? '';
  const rate = { num: BigInt(m[1]! + frac), den: 10n ** BigInt(frac.length) };
  if (rate.num === 0n) throw Errors.field(field, 'must be greater than zero');
  if (rate.num > MAX_RATE * rate.den) throw Errors.field(field, `must be at most ${MAX_RATE}`);
  return rate;
}

export function rateText(rate: Rate): string {
  const digits = rate.den.toString().length - 1;
  const s = rate.num.toString().padStart(digits + 1, '0');
  const out = digits ? `${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}` : s;
  return digits ? out.replace(/\.?0+$/, '') : out;
}

/** num/den rounded to the nearest integer, halves away from zero. */
export function divRoundHalfAway(num: bigint, den: bigint): bigint {
  if (den === 0n) throw new RangeError('division by zero');
  const neg = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const q = (2n * n + d) / (2n * d);
  return neg ? -q : q;
}

/**
 * `minor` units of `from` converted at `rate` (units of `to` per unit of `from`) into minor units of
 * `to`, rounded once, half away from zero.
 */
export function convertMinor(minor: number, from: CurrencyInfo, to: CurrencyInfo, rate: Rate): number {
  const num = BigInt(minor) * rate.num * 10n ** BigInt(to.digits);
  const den = rate.den * 10n ** BigInt(from.digits);
  const out = divRoundHalfAway(num, den);
  if (out > BigInt(Number.MAX_SAFE_INTEGER) || out < -BigInt(Number.MAX_SAFE_INTEGER))
    throw Errors.field('amount', 'is too large once converted');
  return Number(out);
}
