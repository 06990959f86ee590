import { and, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { exchangeRates, users } from '../../db/schema/index.ts';
import {
  convertMinor,
  currencyInfo,
  divRoundHalfAway,
  parseMinor,
  parseRate,
  rateText,
  requireCurrency,
  type CurrencyInfo,
  type Rate,
} from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import type { AccountRef } from './books.access.ts';

/**
 * The money rules of the books, in one place: what a draft's amount is in its account's minor
 * units, and what it is worth in its owner's base currency. Every amount is an integer of minor
 * units; a conversion multiplies by an exact decimal rate and rounds once, half away from zero.
 */

/**
 * Minor units of a request amount in `currency`: positive (or signed with `allowNegative`), at most the currency's
 * decimals and 12 integer digits; else 40001 on `field`.
 */
export function parseAmountIn(
  value: unknown,
  currency: CurrencyInfo,
  field = 'amount',
  opts: { allowNegative?: boolean; allowZero?: boolean } = {},
): number {
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
    .where(
      and(
        eq(exchangeRates.userId, userId),
        eq(exchangeRates.currency, currency),
        lte(exchangeRates.date, sql`${date}::date`),
      ),
    )
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
 * away from zero. A foreign amount without any rate: 40001 on `rate`, with `missing_rate` naming it.
 */
export async function bookIn(
  db: Executor,
  userId: number,
  account: AccountRef,
  minor: number,
  date: string,
  rate?: unknown,
): Promise<Booking> {
  const base = await baseCurrencyOf(db, userId);
  if (account.currency === base.code)
    return { accountId: account.id, currency: account.currency, baseAmount: minor, rate: null };
  const from = currencyInfo(account.currency);
  if (!from) throw Errors.field('account_id', 'has a currency that can no longer be booked');
  const text = rate !== undefined && rate !== null ? rate : await rateOn(db, userId, account.currency, date);
  if (text === null) {
    throw Errors.missingRate(account.currency, base.code, date);
  }
  const parsed = parseRate(text, 'rate');
  return {
    accountId: account.id,
    currency: account.currency,
    baseAmount: convertMinor(minor, from, base, parsed),
    rate: rateText(parsed),
  };
}

/**
 * The booking of `minor` in `account`: a row that stays in the currency it was booked in keeps its
 * rate (so its base amount only follows its own amount); otherwise, or with a rate given, it is
 * booked anew at that rate or the user's rate of `date`.
 */
export async function rebook(
  tx: Executor,
  userId: number,
  account: AccountRef,
  minor: number,
  date: string,
  prev: { currency: string; rate: string | null } | null,
  rate: unknown,
): Promise<Booking> {
  if (prev && prev.currency === account.currency && (rate === undefined || rate === null)) {
    const base = await baseCurrencyOf(tx, userId);
    if (prev.rate === null && account.currency === base.code)
      return { accountId: account.id, currency: account.currency, baseAmount: minor, rate: null };
    if (prev.rate !== null) {
      return {
        accountId: account.id,
        currency: account.currency,
        baseAmount: convertMinor(minor, accountCurrency(account), base, parseRate(prev.rate)),
        rate: prev.rate,
      };
    }
  }
  return bookIn(tx, userId, account, minor, date, rate);
}

/** A transfer's fee (in the sending account's currency) in the base currency at the transfer's own rate. */
export async function feeBase(
  tx: Executor,
  userId: number,
  fee: number,
  from: CurrencyInfo,
  booking: Booking,
): Promise<number> {
  if (booking.rate === null) return fee;
  return convertMinor(fee, from, await baseCurrencyOf(tx, userId), parseRate(booking.rate));
}

// ---- amounts given in another currency than their account's ----

/**
 * Hundredths (an amount read with 2 decimals, from a file that names no currency) in the minor
 * units of `currency`: exact, or null when the amount has more decimals than the currency takes
 * (12.50 in JPY); with `round`, rounded half away from zero to the currency's minor unit instead.
 */
export function fitHundredths(hundredths: number, currency: CurrencyInfo, round = false): number | null {
  const d = currency.digits;
  if (d >= 2) return hundredths * 10 ** (d - 2);
  const step = 10 ** (2 - d);
  if (hundredths % step === 0) return hundredths / step;
  return round ? Number(divRoundHalfAway(BigInt(hundredths), BigInt(step))) : null;
}

/** What a rate-table lookup answers: the user's rate of a currency on a date, null when there is none. */
export type RateLookup = (currency: string, date: string) => string | null | Promise<string | null>;

export interface Priced {
  /** minor units of the account's currency */
  minor: number;
  baseAmount: number;
  /** base units per unit of the account's currency; null when that is the base currency */
  rate: string | null;
}

/** Either a priced amount or the reason it cannot be booked (for a row of an import, say). */
export type PriceOutcome = { ok: true; priced: Priced } | { ok: false; reason: string };

const ratio = (a: Rate, b: Rate): Rate => ({ num: a.num * b.den, den: a.den * b.num });

/**
 * An amount of `minor` units of `given` (the currency a payment was made in) booked into an account
 * in `account`, for a user whose base currency is `base`, with the user's rates of `date`. The
 * amount is converted once into the account's currency and once into the base currency, each from
 * the amount as given (never one from the other, so that a payment in the base currency keeps its
 * exact base amount):
 * - given = account: the amount as is; base amount at the account currency's rate;
 * - given = base: the base amount as is; the account's amount at the inverse of its rate;
 * - else: both through the given currency's rate.
 * A rate that is needed and missing is a reason, never a guess.
 */
export async function priceIn(
  minor: number,
  given: CurrencyInfo,
  account: CurrencyInfo,
  base: CurrencyInfo,
  date: string,
  rateOf: RateLookup,
): Promise<PriceOutcome> {
  const need = async (code: string): Promise<Rate | string> => {
    const text = await rateOf(code, date);
    return text === null
      ? `no exchange rate for ${code} on or before ${date} (${code} to ${base.code})`
      : parseRate(text);
  };
  const accountRate = account.code === base.code ? null : await need(account.code);
  if (typeof accountRate === 'string') return { ok: false, reason: accountRate };
  const rate = accountRate === null ? null : rateText(accountRate);
  try {
    if (given.code === account.code) {
      return {
        ok: true,
        priced: {
          minor,
          baseAmount: accountRate === null ? minor : convertMinor(minor, account, base, accountRate),
          rate,
        },
      };
    }
    if (given.code === base.code) {
      // one unit of the base is 1/rate units of the account currency
      const inAccount = convertMinor(minor, base, account, { num: accountRate!.den, den: accountRate!.num });
      if (inAccount === 0) return { ok: false, reason: `the amount, converted to ${account.code}, is zero` };
      return { ok: true, priced: { minor: inAccount, baseAmount: minor, rate } };
    }
    const givenRate = await need(given.code);
    if (typeof givenRate === 'string') return { ok: false, reason: givenRate };
    const inAccount =
      accountRate === null
        ? convertMinor(minor, given, account, givenRate)
        : convertMinor(minor, given, account, ratio(givenRate, accountRate));
    if (inAccount === 0) return { ok: false, reason: `the amount, converted to ${account.code}, is zero` };
    return { ok: true, priced: { minor: inAccount, baseAmount: convertMinor(minor, given, base, givenRate), rate } };
  } catch {
    return { ok: false, reason: 'the amount is too large once converted' };
  }
}

/** Like bookIn for many amounts of one account, reading the base currency once and each date's rate once. */
export async function bookAll(
  db: Executor,
  userId: number,
  account: AccountRef,
  items: readonly { minor: number; date: string }[],
): Promise<Booking[]> {
  const base = await baseCurrencyOf(db, userId);
  if (account.currency === base.code)
    return items.map((i) => ({ accountId: account.id, currency: account.currency, baseAmount: i.minor, rate: null }));
  const byDate = new Map<string, Promise<Booking>>();
  const out: Booking[] = [];
  for (const i of items) {
    let first = byDate.get(i.date);
    if (!first) byDate.set(i.date, (first = bookIn(db, userId, account, 1, i.date)));
    const { rate } = await first;
    out.push({
      accountId: account.id,
      currency: account.currency,
      baseAmount: convertMinor(i.minor, accountCurrency(account), base, parseRate(rate!)),
      rate,
    });
  }
  return out;
}

// ---- the same rules in SQL, for set-based writes ----

/*
 * Set-based writes (many rows in one statement) apply these rules inside the database, in exact
 * integer arithmetic on `numeric` (never a float, never an inexact division): each expression is the
 * twin of the function named, and the books-writer properties check that both book the same figures.
 */

const pow10 = (digits: SQL) => sql`(10::numeric ^ (${digits}))`;

/**
 * fitHundredths in SQL (never rounded): hundredths in minor units of a currency of `digits` decimals; null when they do
 * not fit.
 */
export function fitHundredthsSql(hundredths: SQL, digits: SQL): SQL {
  return sql`(case when ${digits} >= 2 then ${hundredths}::numeric * ${pow10(sql`${digits} - 2`)}
                   when mod(${hundredths}::numeric, ${pow10(sql`2 - ${digits}`)}) = 0 then div(${hundredths}::numeric, ${pow10(sql`2 - ${digits}`)}) end)`;
}

/** A rate as the text the books store it in (rateText of parseRate): trailing zeros dropped. */
export function rateTextSql(rate: SQL): SQL {
  return sql`trim_scale(${rate}::numeric)::text`;
}

/** The numerator and denominator of a rate's exact decimal text (parseRate): '7.125' is 7125 / 1000. */
export function rateSql(rate: SQL): { num: SQL; den: SQL } {
  return { num: sql`replace(${rate}, '.', '')::numeric`, den: pow10(sql`length(split_part(${rate}, '.', 2))`) };
}

/**
 * convertMinor in SQL: `minor` of a currency of `fromDigits` decimals at the rate num/den, in minor
 * units of a currency of `toDigits` decimals, rounded once half away from zero (divRoundHalfAway:
 * sign times the floor of (2|n| + d) / 2d, all integers).
 */
export function convertMinorSql(minor: SQL, fromDigits: SQL, toDigits: SQL, rate: { num: SQL; den: SQL }): SQL {
  const den = sql`(${rate.den} * ${pow10(fromDigits)})`;
  return sql`(sign(${minor}::numeric) * div(2 * abs(${minor}::numeric) * ${rate.num} * ${pow10(toDigits)} + ${den}, 2 * ${den}))`;
}
