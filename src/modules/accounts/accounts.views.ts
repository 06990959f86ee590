// How an account and a net worth are shown: balances in their own currency and in the base currency.
import { convertMinor, currencyInfo, parseRate, toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountWithBalance } from './accounts.repo.ts';
import type { AccountView } from './accounts.schemas.ts';

/**
 * Net worth: each account's balance (integer minor units of its currency) converted into the base
 * currency at the user's latest rate dated on or before the day asked for (today by default),
 * rounded once per account half away from zero to the base currency's minor unit, then summed.
 * An account in a currency without such a rate is left out and its currency listed in `missing_rates`.
 */
export function balanceInBase(
  balance: number,
  currency: string,
  base: CurrencyInfo,
  rate: string | undefined,
): number | null {
  if (currency === base.code) return balance;
  const from = currencyInfo(currency);
  if (!from || rate === undefined) return null;
  try {
    return convertMinor(balance, from, base, parseRate(rate));
  } catch (err) {
    // a stored rate outside today's bounds, or a balance too large once converted: this account
    // shows as unconverted (listed with the missing rates) rather than failing the whole page
    if (err instanceof AppError && err.status === 400) return null;
    throw err;
  }
}

export function majorIn(minor: number, code: string): number {
  const info = currencyInfo(code);
  return info ? toMajorUnits(minor, info) : minor / 100;
}

export function toAccountView(row: AccountWithBalance, base: CurrencyInfo, rates: Map<string, string>): AccountView {
  const inBase = balanceInBase(row.balance, row.currency, base, rates.get(row.currency));
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    currency: row.currency,
    opening_balance: majorIn(row.openingBalance, row.currency),
    opening_date: row.openingDate,
    balance: majorIn(row.balance, row.currency),
    balance_in_base: inBase === null ? null : toMajorUnits(inBase, base),
    archived: row.archived,
    is_default: row.isDefault,
    sort: row.sort,
    color: row.color,
    icon: row.icon,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

/** Net worth in base minor units of accounts with balances, and the currencies that had no rate. */
export function netWorthOf(
  rows: { balance: number; currency: string }[],
  base: CurrencyInfo,
  rateOf: (currency: string) => string | undefined,
): { minor: number; missing: string[] } {
  let minor = 0;
  const missing = new Set<string>();
  for (const r of rows) {
    const v = balanceInBase(r.balance, r.currency, base, rateOf(r.currency));
    if (v === null) missing.add(r.currency);
    else minor += v;
  }
  return { minor, missing: [...missing].sort() };
}
