import { describe, expect, it } from 'vitest';
import { currencySymbol, formatDate, formatMoney, formatMoneyFit, formatMonth, formatPercent } from './format';
import { addMonths, monthRange } from './dates';
import { validAmount } from './amounts';

describe('money', () => {
  it('formats with the symbol and two decimals in both languages', () => {
    expect(formatMoney(1234.5, 'en', 'CNY')).toBe('¥1,234.50');
    expect(formatMoney(1234.5, 'zh-CN', 'CNY')).toBe('¥1,234.50');
    expect(formatMoney(12, 'en', 'USD')).toBe('$12.00');
    expect(formatMoney(null, 'en', 'CNY')).toBe('—');
  });

  it('writes a negative list amount and a negative balance with the same minus sign', () => {
    const row = formatMoney(-6.1, 'en', 'CNY', { signed: true });
    const balance = formatMoney(-6.1, 'en', 'CNY');
    expect(row).toBe(balance);
    expect(formatMoney(6.1, 'en', 'CNY', { signed: true })).toBe('+¥6.10');
  });

  it('switches to compact notation only when the full amount is too long', () => {
    expect(formatMoneyFit(999.99, 'en', 'CNY')).toBe('¥999.99');
    expect(formatMoneyFit(123456789012.34, 'en', 'CNY')).toBe('¥123.5B');
    expect(formatMoneyFit(123456789012.34, 'zh-CN', 'CNY')).toBe('¥1234.6亿');
  });

  it('names the currency symbol of the locale', () => {
    expect(currencySymbol('zh-CN', 'CNY')).toBe('¥');
    expect(currencySymbol('en', 'EUR')).toBe('€');
  });
});

describe('percentages and dates', () => {
  it('formats API percentages (0 to 100), signed for changes', () => {
    expect(formatPercent(42.55, 'en')).toBe('42.55%');
    expect(formatPercent(25.5, 'en', true)).toBe('+25.5%');
    expect(formatPercent(-10, 'zh-CN', true)).toBe('-10%');
    expect(formatPercent(null, 'en', true)).toBe('—');
  });

  it('formats calendar dates without shifting them by the time zone', () => {
    expect(formatDate('2026-01-01', 'en')).toBe('January 1, 2026');
    expect(formatDate('2026-01-01', 'zh-CN')).toBe('2026年1月1日');
    expect(formatMonth('2026-11', 'zh-CN')).toBe('2026年11月');
    expect(formatMonth('2026-11', 'en')).toBe('November 2026');
  });

  it('moves by months keeping the last day of shorter months', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(monthRange('2026-02-14')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
  });

  it('accepts the amounts the API accepts', () => {
    for (const ok of ['1', '12.5', '12.50', '999999999999.99']) expect(validAmount(ok)).toBe(true);
    for (const bad of ['0', '0.00', '-1', '1.234', '1e3', '', 'abc', '1234567890123'])
      expect(validAmount(bad)).toBe(false);
    // in the currency's own decimals: none for yen, three for dinar
    for (const [s, digits, ok] of [
      ['1200', 0, true],
      ['12.5', 0, false],
      ['1.', 0, false],
      ['1.235', 3, true],
      ['1.2345', 3, false],
      ['0.001', 3, true],
    ] as const) {
      expect(validAmount(s, digits), `${s} with ${digits} decimals`).toBe(ok);
    }
  });
});
