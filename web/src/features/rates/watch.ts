// A refused entry that needed an exchange rate is remembered, so that the screens can offer to add it.
import type { Pinia } from 'pinia';
import { watchApiErrors } from '../../api/client';
import { missingRateOf } from '../../lib/errors';
import { useRatesStore } from './store';

export function watchMissingRates(pinia: Pinia): void {
  watchApiErrors((err) => {
    const missing = missingRateOf(err);
    if (missing) useRatesStore(pinia).ask(missing);
  });
}
