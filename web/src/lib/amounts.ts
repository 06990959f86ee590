// Amounts as people type them: "8,000", "8 000", "１２.５" or "-1,234.50". Grouping separators
// (commas in groups of three, spaces) and full-width digits are accepted and dropped, so that the
// server receives a plain decimal ("8000"); anything else is left for the caller to refuse.
import { ClientError } from '../api/client';

const FULL_WIDTH = /[０-９．－，]/g;
const GROUPED = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/;

/** The plain decimal of a typed amount, or null when it is not a number at all. */
export function plainAmount(typed: string): string | null {
  let s = typed
    .trim()
    .replace(FULL_WIDTH, (c) =>
      c === '．' ? '.' : c === '－' ? '-' : c === '，' ? ',' : String.fromCharCode(c.charCodeAt(0) - 0xfee0),
    );
  s = s.replace(/[\s\u00a0\u202f]/g, '');
  if (GROUPED.test(s)) s = s.replace(/,/g, '');
  return /^-?\d+(\.\d+)?$/.test(s) ? s : null;
}

/**
 * Digits of a currency's minor unit (2 for CNY, 0 for JPY, 3 for KWD), as the browser knows them; 2 for a code it does
 * not know.
 */
export function currencyDigits(currency: string | null | undefined): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency: currency || 'CNY' }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** How many minor units make one unit of a currency: 100 for CNY, 1 for JPY, 1,000 for KWD. */
export function minorScale(currency: string | null | undefined): number {
  return 10 ** currencyDigits(currency);
}

/** A JSON amount as the amount field shows it: no trailing zeros, never more than 3 decimals. */
export function amountText(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/\.?0+$/, '');
}

/** A positive amount with at most 12 integer digits and `digits` decimals (its currency's), as the API accepts it. */
export function validAmount(s: string, digits = 2): boolean {
  const decimals = digits > 0 ? `(\\.\\d{1,${digits}})?` : '';
  return new RegExp(`^\\d{1,12}${decimals}$`).test(s.trim()) && Number(s) > 0;
}

/**
 * Refuses (throws) a typed amount that is not a positive number in `currency`'s decimals (none for
 * yen, three for dinar), with the message worded for them.
 */
export function requireAmount(typed: string, currency: string | null | undefined): void {
  const digits = currencyDigits(currency);
  if (validAmount(typed, digits)) return;
  throw digits === 2
    ? new ClientError('errors.amountFormat')
    : digits === 0
      ? new ClientError('errors.amountWhole')
      : new ClientError('errors.amountDigits', { digits });
}

/** A row's amount in minor units of the base currency, at its booking rate (`scale` from minorScale). */
export function baseMinor(row: { amount: number; rate: string | null }, scale: number): number {
  return Math.round(row.amount * (row.rate ? Number(row.rate) : 1) * scale);
}
