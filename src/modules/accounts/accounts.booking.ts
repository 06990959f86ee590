import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accounts, exchangeRates, users } from '../../db/schema/index.ts';
import { notYours } from '../../lib/access.ts';
import { convertMinor, currencyInfo, parseMinor, parseRate, rateText, requireCurrency, type CurrencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import type { Locale } from '../categories/categories.defaults.ts';

/**
 * Where a new transaction's money is and what it is worth in its owner's base currency: the one
 * place that decides a row's account, currency, base amount and rate.
 */

export interface AccountRef {
  id: number;
  currency: string;
  archived: boolean;
}

/** A new user's account: cash in their base currency, named in their language, the default. */
export async function createDefaultAccount(db: Executor, userId: number, opts: { locale?: Locale; currency: string; openingDate: string }): Promise<AccountRef> {
  const [row] = await db
    .insert(accounts)
    .values({
      userId,
      name: opts.locale === 'zh' ? '现金' : 'Cash',
      type: 'cash',
      currency: opts.currency,
      openingDate: opts.openingDate,
      color: '#F5A623',
      icon: 'cash',
      isDefault: true,
    })
    .returning({ id: accounts.id, currency: accounts.currency, archived: accounts.archived });
  return row!;
}

/** The user's default account (every user has one), or 40401 on the very unlikely absence. */
export async function defaultAccount(db: Executor, userId: number): Promise<AccountRef> {
  const [row] = await db
    .select({ id: accounts.id, currency: accounts.currency, archived: accounts.archived })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.isDefault, true)));
  if (!row) throw Errors.notFound('account');
  return row;
}

/**
 * One of the caller's accounts. Anyone else's, or none: 40401 when the account is what the request
 * is about (its path), 40001 on `field` when the request names it as a reference in a body.
 */
export async function requireAccount(db: Executor, userId: number, accountId: number, opts: { field?: string } = {}): Promise<AccountRef> {
  const [row] = await db
    .select({ id: accounts.id, currency: accounts.currency, archived: accounts.archived })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.userId, userId)));
  if (!row) throw opts.field ? notYours.account(opts.field) : Errors.notFound('account');
  return row;
}

/** Like requireAccount, and one that still takes new rows (not archived): else 40001 on `field`. */
export async function requireOpenAccount(db: Executor, userId: number, accountId: number, field = 'account_id'): Promise<AccountRef> {
  const row = await requireAccount(db, userId, accountId, { field });
  if (row.archived) throw Errors.field(field, 'is archived: unarchive it to book new transactions in it');
  return row;
}

/** Minor units of a request amount in `currency`: positive (or signed with `allowNegative`), at most the currency's decimals and 12 integer digits; else 40001 on `field`. */
export function parseAmountIn(value: unknown, currency: CurrencyInfo, field = 'amount', opts: { allowNegative?: boolean; allowZero?: boolean } = {}): number {
  const minor = parseMinor(value, currency, field, opts);
  if (Math.abs(minor) >= 10 ** (12 + currency.digits)) throw Errors.field(field, 'must have at most 12 integer digits');
  return minor;
}

/** The currency of a stored account, or 40001 on `field` when the code can no longer be booked. */
export function accountCurrency(account: { currency: string }, field = 'account_id'): CurrencyInfo {
  const info = currencyInfo(account.currency);
  if (!info) throw Errors.field(field, 'has a currency that can no longer be booked');
  return info;
}

export async function baseCurrencyOf(db: Executor, userId: number): Promise<CurrencyInfo> {
  const [row] = await db.select({ c: users.baseCurrency }).from(users).where(eq(users.id, userId));
  return requireCurrency(row?.c ?? 'CNY');
}

/** The user's rate of `currency` on `date`: the latest one on or before it; null when none. */
export async function rateOn(db: Executor, userId: number, currency: string, date: string): Promise<string | null> {
  const [row] = await db
    .select({ rate: exchangeRates.rate })
    .from(exchangeRates)
    .where(and(eq(exchangeRates.userId, userId), eq(exchangeRates.currency, currency), lte(exchangeRates.date, sql`${date}::date`)))
    .orderBy(desc(exchangeRates.date))
    .limit(1);
  return row?.rate ?? null;
}

export interface Booking {
  accountId: number;
  currency: string;
  baseAmount: number;
  rate: string | null;
}

/**
 * The booking of `minor` units in `account` on `date`: in the base currency as is; otherwise
 * converted once at the rate given by hand (`rate`) or the user's rate for that date, rounded half
 * away from zero. A foreign amount without any rate: 40001 on `rate`.
 */
export async function bookIn(db: Executor, userId: number, account: AccountRef, minor: number, date: string, rate?: unknown): Promise<Booking> {
  const base = await baseCurrencyOf(db, userId);
  if (account.currency === base.code) return { accountId: account.id, currency: account.currency, baseAmount: minor, rate: null };
  const from = currencyInfo(account.currency);
  if (!from) throw Errors.field('account_id', 'has a currency that can no longer be booked');
  const text = rate !== undefined && rate !== null ? rate : await rateOn(db, userId, account.currency, date);
  if (text === null) {
    throw Errors.field('rate', `is needed: there is no ${account.currency} to ${base.code} rate on or before ${date}; give one or add it to your rates`);
  }
  const parsed = parseRate(text, 'rate');
  return { accountId: account.id, currency: account.currency, baseAmount: convertMinor(minor, from, base, parsed), rate: rateText(parsed) };
}
