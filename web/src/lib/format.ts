// Numbers, money and dates for the chosen language, always through Intl.

export type AppLocale = 'zh-CN' | 'en';

// Intl formatters are costly to build (tens of microseconds each, far more on a slow phone): one
// per language and options, built at first use and kept
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function cached<F>(cache: Map<string, F>, locale: string, options: object, build: () => F): F {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = build();
    cache.set(key, f);
  }
  return f;
}
function numberFormat(locale: AppLocale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const tag = regionalLocale(locale);
  return cached(numberFormats, tag, options, () => new Intl.NumberFormat(tag, options));
}
function dateFormat(locale: AppLocale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const tag = regionalLocale(locale);
  return cached(dateFormats, tag, options, () => new Intl.DateTimeFormat(tag, options));
}

/** the browser's languages; none on the server, whose `navigator` (where there is one) names no language */
function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  const list = navigator.languages?.length ? navigator.languages : [navigator.language];
  return list.filter((l): l is string => typeof l === 'string' && l !== '');
}

/**
 * The locale numbers and dates are written in: the app's language in the person's own region when
 * their browser names one for it (English in Britain writes "1 November 2026", in the States
 * "November 1, 2026"; Chinese in Hong Kong or Taiwan keeps its own digits and dates too).
 */
export function regionalLocale(locale: AppLocale, preferred: readonly string[] = browserLanguages()): string {
  const language = locale.slice(0, 2);
  const own = preferred.find((p) => p.toLowerCase().startsWith(`${language}-`));
  if (!own) return locale;
  try {
    return Intl.getCanonicalLocales(own)[0] ?? locale;
  } catch {
    return locale;
  }
}

export interface MoneyOptions {
  /** '+' on positive amounts too (list rows), as Intl's signDisplay 'exceptZero' */
  signed?: boolean;
  /** compact notation (1.2万, 12K) where space is short */
  compact?: boolean;
}

/** A money amount in major units, with the currency symbol, for the locale. Null shows a dash. */
export function formatMoney(
  value: number | null | undefined,
  locale: AppLocale,
  currency: string,
  opts: MoneyOptions = {},
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return numberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    signDisplay: opts.signed ? 'exceptZero' : 'auto',
    // otherwise the currency's own decimals: 2 for CNY and USD, none for JPY, 3 for KWD
    ...(opts.compact ? { notation: 'compact', maximumFractionDigits: 1 } : {}),
  }).format(value);
}

/** Compact notation once the full amount would be longer than `maxLength` characters. */
export function formatMoneyFit(
  value: number | null | undefined,
  locale: AppLocale,
  currency: string,
  maxLength = 12,
): string {
  const full = formatMoney(value, locale, currency);
  return full.length > maxLength ? formatMoney(value, locale, currency, { compact: true }) : full;
}

export function formatNumber(value: number, locale: AppLocale, compact = false): string {
  return numberFormat(locale, compact ? { notation: 'compact', maximumFractionDigits: 1 } : {}).format(value);
}

/** A percentage given as 0 to 100 (the API's unit); signed for changes. */
export function formatPercent(value: number | null | undefined, locale: AppLocale, signed = false): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return numberFormat(locale, {
    style: 'percent',
    maximumFractionDigits: 2,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(value / 100);
}

/** A calendar date `YYYY-MM-DD` (no time zone) for display. */
export function formatDate(date: string, locale: AppLocale, style: 'long' | 'short' | 'weekday' = 'long'): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return date;
  const at = new Date(Date.UTC(y, m - 1, d));
  const options: Intl.DateTimeFormatOptions =
    style === 'short'
      ? { month: 'numeric', day: 'numeric', timeZone: 'UTC' }
      : style === 'weekday'
        ? { month: 'long', day: 'numeric', weekday: 'short', timeZone: 'UTC' }
        : { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' };
  return dateFormat(locale, options).format(at);
}

/** A month `YYYY-MM` for display. */
export function formatMonth(month: string, locale: AppLocale, short = false): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  return dateFormat(
    locale,
    short ? { month: 'short', timeZone: 'UTC' } : { year: 'numeric', month: 'long', timeZone: 'UTC' },
  ).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** An ISO timestamp in the browser's zone. */
export function formatDateTime(iso: string | null | undefined, locale: AppLocale): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

export function formatBytes(n: number, locale: AppLocale): string {
  const f = (v: number, unit: string) => `${numberFormat(locale, { maximumFractionDigits: 1 }).format(v)} ${unit}`;
  if (n >= 1048576) return f(n / 1048576, 'MiB');
  if (n >= 1024) return f(n / 1024, 'KiB');
  return f(n, 'B');
}

/** The symbol of a currency as the locale writes it (¥, $, €...). */
export function currencySymbol(locale: AppLocale, currency: string): string {
  const part = numberFormat(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
    .formatToParts(0)
    .find((p) => p.type === 'currency');
  return part?.value ?? currency;
}

const names = new Map<string, Intl.DisplayNames>();
/** A currency's name in the locale ("人民币", "US Dollar"); the code when the browser has no name for it. */
export function currencyName(locale: AppLocale, code: string): string {
  let d = names.get(locale);
  if (!d) names.set(locale, (d = new Intl.DisplayNames(regionalLocale(locale), { type: 'currency' })));
  try {
    return d.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The currencies most people here book in, first in every currency list. */
export const COMMON_CURRENCIES = ['CNY', 'USD', 'EUR', 'GBP', 'JPY', 'HKD'] as const;

/**
 * Every currency code for a picker: the common ones first, then the rest by their name in the
 * locale (so "Euro" is not hidden after "United Arab Emirates Dirham" and friends).
 */
export function currencyChoices(
  locale: AppLocale,
  codes: readonly string[] = Intl.supportedValuesOf('currency'),
): string[] {
  const common: readonly string[] = COMMON_CURRENCIES;
  const collator = new Intl.Collator(regionalLocale(locale));
  const rest = codes
    .filter((c) => !common.includes(c))
    .map((c) => [c, currencyName(locale, c)] as const)
    .sort((a, b) => collator.compare(a[1], b[1]) || a[0].localeCompare(b[0]))
    .map(([c]) => c);
  return [...common, ...rest];
}
