import { describe, expect, it } from 'vitest';
import { COMMON_CURRENCIES, currencyChoices, currencyName, regionalLocale } from './format';

describe('the person’s own locale', () => {
  it('writes English in the region the browser names', () => {
    expect(regionalLocale('en', ['en-GB', 'en'])).toBe('en-GB');
    expect(regionalLocale('en', ['fr-FR', 'en-au'])).toBe('en-AU');
    expect(regionalLocale('en', ['de-DE'])).toBe('en');
    expect(regionalLocale('zh-CN', ['zh-HK', 'en-GB'])).toBe('zh-HK');
    expect(regionalLocale('zh-CN', [])).toBe('zh-CN');
    // what Intl itself writes for that locale: a British date, not an American one
    expect(
      new Intl.DateTimeFormat(regionalLocale('en', ['en-GB']), { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(Date.UTC(2026, 10, 1)),
      ),
    ).toBe('1 November 2026');
  });
});

describe('currency choices', () => {
  it.each(['en', 'zh-CN'] as const)('puts the common currencies first, then the rest by name (%s)', (locale) => {
    const codes = ['AED', 'EUR', 'CHF', 'USD', 'AUD', 'JPY', 'SEK'];
    const list = currencyChoices(locale, codes);
    expect(list.slice(0, 6)).toEqual([...COMMON_CURRENCIES]);
    const rest = list.slice(6);
    expect(rest).toHaveLength(4);
    const names = rest.map((c) => currencyName(locale, c));
    expect(names).toEqual([...names].sort(new Intl.Collator(locale).compare));
  });

  it('keeps every code of the full list once', () => {
    const all = Intl.supportedValuesOf('currency');
    const list = currencyChoices('en');
    expect(new Set(list).size).toBe(list.length);
    expect(new Set(list)).toEqual(new Set([...all, ...COMMON_CURRENCIES]));
    expect(list[0]).toBe('CNY');
    expect(currencyName('en', list[6]!)).toMatch(/^A/);
  });
});
