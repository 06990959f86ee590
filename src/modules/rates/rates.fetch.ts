import { sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { divRoundHalfAway, parseRate, rateText, type Rate } from '../../lib/currency.ts';
import type { SchedulerTask } from '../scheduler.ts';
import { upsertRate } from './rates.repo.ts';
import { effectiveRatesUrl } from './rates.settings.ts';

/**
 * The optional daily rate fetch: RATES_URL answers the ECB daily reference rates XML
 * (`<Cube time="YYYY-MM-DD"><Cube currency="USD" rate="1.0543"/>…`: units of each currency per
 * euro). For every user and every currency of their accounts other than their base currency, the
 * rate in the base currency is derived (base per euro / currency per euro), rounded half away from
 * zero to 12 decimals, and stored for that date as a `fetched` rate. A rate entered by hand for the
 * same day is never replaced.
 */

export interface EcbDay {
  date: string;
  /** units of the currency per euro; EUR itself is 1 */
  perEuro: Map<string, Rate>;
}

/** Reads an ECB daily XML document; null when it holds no dated rates. */
export function parseEcbXml(xml: string): EcbDay | null {
  const time = /<Cube\s+time\s*=\s*["'](\d{4}-\d{2}-\d{2})["']/.exec(xml);
  if (!time) return null;
  const perEuro = new Map<string, Rate>([['EUR', { num: 1n, den: 1n }]]);
  const re = /<Cube\s+currency\s*=\s*["']([A-Z]{3})["']\s+rate\s*=\s*["']([0-9.]+)["']\s*\/?>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    try {
      perEuro.set(m[1]!, parseRate(m[2]!));
    } catch {
      // a malformed rate is left out
    }
  }
  return perEuro.size > 1 ? { date: time[1]!, perEuro } : null;
}

/** Units of `base` one unit of `currency` is worth, 12 decimals at most; null when either is not quoted. */
export function crossRate(day: EcbDay, currency: string, base: string): string | null {
  const c = day.perEuro.get(currency);
  const b = day.perEuro.get(base);
  if (!c || !b) return null;
  // (b.num / b.den) / (c.num / c.den)
  const scaled = divRoundHalfAway(b.num * c.den * 10n ** 12n, b.den * c.num);
  if (scaled <= 0n) return null;
  return rateText({ num: scaled, den: 10n ** 12n });
}

/** Stores the day's rates for every user who holds an account in a quoted currency other than their base one. */
export async function storeFetchedRates(db: Executor, day: EcbDay): Promise<number> {
  const pairs = await query<{ user_id: number; currency: string; base: string }>(
    db,
    sql`select distinct a.user_id, a.currency, u.base_currency as base from accounts a join users u on u.id = a.user_id
        where a.currency <> u.base_currency and u.deleted_at is null`,
  );
  let stored = 0;
  for (const p of pairs) {
    const rate = crossRate(day, p.currency, p.base);
    if (rate === null) continue;
    await upsertRate(db, { userId: p.user_id, currency: p.currency, date: day.date, rate, source: 'fetched' });
    stored++;
  }
  return stored;
}

/** Fetches and stores the rates of `url`, with a time limit; throws on a failed or unreadable answer. */
export async function fetchRates(
  db: Executor,
  url: string,
  timeoutMs = 10_000,
): Promise<{ date: string; stored: number }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  if (!res.ok) throw new Error(`rates answered HTTP ${res.status}`);
  const text = await res.text();
  if (text.length > 1_000_000) throw new Error('rates document too large');
  const day = parseEcbXml(text);
  if (!day) throw new Error('rates document holds no dated rates');
  return { date: day.date, stored: await storeFetchedRates(db, day) };
}

/** once per UTC day when it worked; after a failure, again an hour later */
const RETRY_MS = 3_600_000;
let lastSuccessDay: string | null = null;
let lastAttempt = 0;
/** the address of the last attempt: another one is tried at once */
let lastUrl: string | null = null;
/** why the last attempt of this process failed; null after a success */
let lastError: string | null = null;

/** For tests: forget when the rates were last fetched. */
export function resetRatesFetch(): void {
  lastSuccessDay = null;
  lastAttempt = 0;
  lastUrl = null;
  lastError = null;
}

/** Why the last fetch of this process failed, null when it worked or none was tried. */
export function lastRatesFetchError(): string | null {
  return lastError;
}

/** The daily fetch of exchange rates from the address an administrator set, else RATES_URL (nothing when off). */
export const ratesFetchTask: SchedulerTask = {
  name: 'rates-fetch',
  run: async ({ db, config, log }, now) => {
    const url = await effectiveRatesUrl(db, config.ratesUrl);
    if (!url) return null;
    const day = now.toISOString().slice(0, 10);
    if (url !== lastUrl) {
      lastUrl = url;
      lastSuccessDay = null;
      lastAttempt = 0;
    }
    if (lastSuccessDay === day || now.getTime() - lastAttempt < RETRY_MS) return null;
    lastAttempt = now.getTime();
    try {
      const result = await fetchRates(db, url);
      lastSuccessDay = day;
      lastError = null;
      log.info(result, 'exchange rates fetched');
      return result;
    } catch (err) {
      lastError = (err as Error).message;
      throw err;
    }
  },
};
