// Formatting bound to the current language and the configured currency, for templates.
import { useI18n } from 'vue-i18n';
import { currency } from '../stores/session';
import * as f from './format';
import type { AppLocale } from './format';

export function useFormat() {
  const { locale } = useI18n();
  const l = () => locale.value as AppLocale;
  return {
    money: (v: number | null | undefined, opts?: f.MoneyOptions) => f.formatMoney(v, l(), currency.value, opts),
    moneyFit: (v: number | null | undefined, max?: number) => f.formatMoneyFit(v, l(), currency.value, max),
    /** a transaction's amount as a signed figure: expenses negative, with the same minus sign as any balance */
    signed: (v: number, kind: 'expense' | 'income' | 'transfer' | 'adjustment') =>
      f.formatMoney(kind === 'expense' || kind === 'transfer' ? -v : v, l(), currency.value, { signed: true }),
    /** an amount in a currency of its own (an account's, a transaction's) */
    moneyIn: (v: number | null | undefined, cur: string | null | undefined, opts?: f.MoneyOptions) =>
      f.formatMoney(v, l(), cur || currency.value, opts),
    signedIn: (v: number, kind: 'expense' | 'income' | 'transfer' | 'adjustment', cur: string | null | undefined) =>
      f.formatMoney(kind === 'expense' || kind === 'transfer' ? -v : v, l(), cur || currency.value, { signed: true }),
    currency: () => currency.value,
    currencyName: (code: string) => f.currencyName(l(), code),
    /** every currency code for a picker, the common ones first */
    currencyChoices: () => f.currencyChoices(l()),
    percent: (v: number | null | undefined, signed = false) => f.formatPercent(v, l(), signed),
    number: (v: number, compact = false) => f.formatNumber(v, l(), compact),
    date: (d: string, style?: 'long' | 'short' | 'weekday') => f.formatDate(d, l(), style),
    month: (m: string, short = false) => f.formatMonth(m, l(), short),
    dateTime: (iso: string | null | undefined) => f.formatDateTime(iso, l()),
    bytes: (n: number) => f.formatBytes(n, l()),
    symbol: () => f.currencySymbol(l(), currency.value),
    locale: l,
  };
}
