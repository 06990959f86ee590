// The two languages of the client: chosen from the browser, switchable in the profile and
// remembered (outside the session keys, so signing out keeps it); <html lang> follows.
import { createI18n } from 'vue-i18n';
import { messages } from './catalogues';
import { setRequestLanguage } from '../api/client';
import { currencyName, formatDate, type AppLocale } from '../lib/format';
import { errorMessage } from '../lib/errors';
import { savePageCookie } from '../stores/saved';

export const LOCALES: AppLocale[] = ['zh-CN', 'en'];
const STORED = 'ledger-locale';

export function detectLocale(languages: readonly string[]): AppLocale {
  for (const lang of languages) {
    const l = lang.toLowerCase();
    if (l === 'zh' || l.startsWith('zh-')) return 'zh-CN';
    if (l === 'en' || l.startsWith('en-')) return 'en';
  }
  return 'en';
}

function initialLocale(): AppLocale {
  const stored = localStorage.getItem(STORED);
  if (stored === 'zh-CN' || stored === 'en') return stored;
  return detectLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

export const i18n = createI18n({
  legacy: false,
  locale: 'en' as AppLocale,
  fallbackLocale: 'en',
  messages,
  missingWarn: false,
  fallbackWarn: false,
});

export function currentLocale(): AppLocale {
  return i18n.global.locale.value as AppLocale;
}

export function setLocale(locale: AppLocale, remember = true): void {
  i18n.global.locale.value = locale;
  if (import.meta.env.SSR) return;
  document.documentElement.lang = locale;
  setRequestLanguage(locale);
  if (remember) {
    localStorage.setItem(STORED, locale);
    // the server renders the first screen in it too
    savePageCookie('ledger_locale', locale);
  }
}

if (!import.meta.env.SSR) setLocale(initialLocale(), false);

/** The catalogue's message for any failure. */
export function describeError(err: unknown): string {
  const { key, params } = errorMessage(err);
  const t = i18n.global.t;
  const resolved = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, wordParam(k, v)]));
  return t(key, resolved);
}

/** A parameter as a person reads it: a field by its name, a currency by its name, a date as the language writes it. */
function wordParam(name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value.startsWith('fields.')) return i18n.global.t(value);
  if ((name === 'currency' || name === 'base') && /^[A-Z]{3}$/.test(value)) return currencyName(currentLocale(), value);
  if (name === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDate(value, currentLocale());
  return value;
}
