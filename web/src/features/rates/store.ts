// Exchange rates as the screens see them: the caller's rates (latest first), the currencies their
// books lack a rate for, and the rate a refused entry asked for, until it is added.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { invalidateAccounts } from '../../stores/accounts';
import { session } from '../../stores/session';
import type { MissingRate } from '../../lib/errors';
import * as api from './api';

export type { FetchSettings } from './api';

export interface CurrencyRates {
  currency: string;
  latest: api.Rate;
  history: api.Rate[];
}

export const useRatesStore = defineStore('rates', () => {
  const list = ref<api.Rate[]>([]);
  const base = ref('');
  const missing = ref<string[]>([]);
  /** the rate the last refused entry needed (and when), shown with a way to add it */
  const asked = ref<(MissingRate & { at: number }) | null>(null);
  const loading = ref(false);
  const error = ref<unknown>(null);
  let seq = 0;

  /** one line per currency: its newest rate first, then the older ones */
  const byCurrency = computed<CurrencyRates[]>(() => {
    const out = new Map<string, CurrencyRates>();
    for (const r of list.value) {
      const line = out.get(r.currency);
      if (line) line.history.push(r);
      else out.set(r.currency, { currency: r.currency, latest: r, history: [r] });
    }
    return [...out.values()].sort((a, b) => a.currency.localeCompare(b.currency));
  });

  /** currencies the books need a rate for: those of accounts without one, and the one a refused entry asked for */
  const needed = computed<string[]>(() => {
    const codes = new Set(missing.value);
    if (asked.value && !list.value.some((r) => r.currency === asked.value!.currency && r.date <= asked.value!.date))
      codes.add(asked.value.currency);
    return [...codes].sort();
  });

  async function load(): Promise<void> {
    const mine = ++seq;
    loading.value = true;
    error.value = null;
    try {
      const [rates, lacking] = await Promise.all([api.fetchRates(), api.fetchMissing()]);
      // an older answer arriving after a newer one is dropped
      if (mine !== seq) return;
      list.value = rates.list;
      base.value = rates.base;
      missing.value = lacking;
    } catch (err) {
      if (mine === seq) error.value = err;
    } finally {
      if (mine === seq) loading.value = false;
    }
  }

  /** Sets (or with null deletes) the rate of a currency on a date, then reloads what depends on it. */
  async function save(currency: string, date: string, rate: string | null): Promise<void> {
    await api.saveRate(currency, date, rate);
    if (rate !== null && asked.value && asked.value.currency === currency && date <= asked.value.date)
      asked.value = null;
    invalidateAccounts();
    await load();
  }

  function ask(m: MissingRate): void {
    asked.value = { ...m, at: Date.now() };
  }

  function dismiss(): void {
    asked.value = null;
  }

  /** Changes the base currency of the caller's books (refused while entries or rates exist). */
  async function saveBase(currency: string): Promise<void> {
    session.me = await api.saveBaseCurrency(currency);
    invalidateAccounts();
  }

  return {
    list,
    base,
    missing,
    asked,
    loading,
    error,
    byCurrency,
    needed,
    load,
    save,
    ask,
    dismiss,
    saveBase,
    // for administrators: the daily fetch of rates, on or off, and from which address
    fetchSettings: api.fetchFetchSettings,
    saveFetchSettings: api.saveFetchSettings,
  };
});
