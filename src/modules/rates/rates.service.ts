import { isValidDate } from '../../lib/dates.ts';
import { parseRate, rateText, requireCurrency } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import type { ServiceDeps } from '../service.ts';
import { baseCurrencyOf } from '../books/index.ts';
import * as ratesRepo from './rates.repo.ts';
import { lastRatesFetchError } from './rates.fetch.ts';
import type { RateList, RateListQuery, RatePutBody, RatesFetchSettings, RatesFetchUpdate } from './rates.schemas.ts';
import { storedRatesUrl, storeRatesUrl } from './rates.settings.ts';

export type RateServiceDeps = ServiceDeps<typeof ratesRepo, 'ratesUrl'>;

/**
 * A user's exchange rates: on a date, one unit of a currency is worth `rate` units of the user's base
 * currency. Rates are stored as exact decimal strings; a row booked in another currency than the base
 * is converted once, at the latest rate dated on or before its date, rounded half away from zero.
 */
/** An http(s) address to fetch rates from, or 40001 on `url`. */
function fetchAddress(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw Errors.field('url', 'must be an http(s) address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw Errors.field('url', 'must be an http(s) address');
  return parsed.href;
}

export function createRateService({ db, clock, config, repo = ratesRepo }: RateServiceDeps) {
  async function fetchSettings(): Promise<RatesFetchSettings> {
    const [stored, last] = await Promise.all([storedRatesUrl(db), repo.lastFetched(db)]);
    const url = stored !== null ? stored || null : (config.ratesUrl ?? null);
    return {
      enabled: url !== null,
      url,
      from_environment: stored === null && url !== null,
      environment_url: config.ratesUrl ?? null,
      last_fetched_at: last.at?.toISOString() ?? null,
      last_rates_date: last.date,
      last_error: url === null ? null : lastRatesFetchError(),
    };
  }

  return {
    fetchSettings,

    /** Turns the daily fetch on at an http(s) address, or off with null; kept in the system settings. */
    async setFetch(body: RatesFetchUpdate): Promise<RatesFetchSettings> {
      // an empty address stored says "off", beside no address stored at all (the environment's then)
      await storeRatesUrl(db, body.url === null ? '' : fetchAddress(body.url), clock.now());
      return fetchSettings();
    },

    async list(userId: number, q: RateListQuery): Promise<RateList> {
      if (q.startDate !== undefined && !isValidDate(q.startDate))
        throw Errors.field('startDate', 'must be a valid calendar date (YYYY-MM-DD)');
      if (q.endDate !== undefined && !isValidDate(q.endDate))
        throw Errors.field('endDate', 'must be a valid calendar date (YYYY-MM-DD)');
      const currency = q.currency === undefined ? undefined : requireCurrency(q.currency).code;
      const { limit, offset } = pageOf(q);
      const [{ rows, total }, base] = await Promise.all([
        repo.listRates(db, userId, { currency, startDate: q.startDate, endDate: q.endDate }, limit, offset),
        baseCurrencyOf(db, userId),
      ]);
      return {
        list: rows.map((r) => ({
          currency: r.currency,
          date: r.date,
          rate: r.rate,
          source: r.source,
          updated_at: r.updatedAt.toISOString(),
        })),
        total,
        base_currency: base.code,
      };
    },

    /** Writes and deletes rates by hand, all or none. Rows already booked keep the rate they were booked with. */
    async put(userId: number, body: RatePutBody): Promise<{ written: number; deleted: number }> {
      const base = await baseCurrencyOf(db, userId);
      const items = body.rates.map((r, i) => {
        const currency = requireCurrency(r.currency, `rates[${i}].currency`).code;
        if (currency === base.code)
          throw Errors.field(`rates[${i}].currency`, `is your base currency (${base.code}): its rate is always 1`);
        if (!isValidDate(r.date)) throw Errors.field(`rates[${i}].date`, 'must be a valid calendar date (YYYY-MM-DD)');
        const rate = r.rate === null ? null : rateText(parseRate(r.rate, `rates[${i}].rate`));
        return { currency, date: r.date, rate };
      });
      const keys = new Set(items.map((r) => `${r.currency} ${r.date}`));
      if (keys.size !== items.length) throw Errors.field('rates', 'must not name the same currency and date twice');
      return db.transaction(async (tx) => {
        let written = 0;
        let deleted = 0;
        for (const r of items) {
          if (r.rate === null) {
            if (await repo.deleteRate(tx, userId, r.currency, r.date)) deleted++;
          } else {
            await repo.upsertRate(tx, { userId, currency: r.currency, date: r.date, rate: r.rate, source: 'manual' });
            written++;
          }
        }
        return { written, deleted };
      });
    },
  };
}
