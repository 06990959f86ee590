// Exchange rates through the typed client: the caller's rates, the currencies their accounts lack a
// rate for, and (administrators) the daily fetch.
import { client, ok } from '../../api/client';
import type { components } from '../../api/schema';

export type Rate = components['schemas']['ExchangeRate'];
export type FetchSettings = components['schemas']['RatesFetchSettings'];

export async function fetchRates(): Promise<{ list: Rate[]; base: string }> {
  const res = await ok(client.GET('/api/rates', { params: { query: { pageSize: 100 } } }));
  return { list: res.list, base: res.base_currency };
}

/** Currencies of the caller's accounts with no usable rate today. */
export async function fetchMissing(): Promise<string[]> {
  const res = await ok(client.GET('/api/accounts', { params: { query: { include_archived: true } } }));
  return res.missing_rates;
}

export async function saveRate(currency: string, date: string, rate: string | null): Promise<void> {
  await ok(client.PUT('/api/rates', { body: { rates: [{ currency, date, rate }] } }));
}

export async function fetchFetchSettings(): Promise<FetchSettings> {
  return ok(client.GET('/api/admin/rates-fetch'));
}

export async function saveFetchSettings(url: string | null): Promise<FetchSettings> {
  return ok(client.PUT('/api/admin/rates-fetch', { body: { url } }));
}

export async function saveBaseCurrency(code: string) {
  return ok(client.PUT('/api/me', { body: { base_currency: code } }));
}
