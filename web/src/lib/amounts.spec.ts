import { describe, expect, it } from 'vitest';
import { ClientError } from '../api/client';
import { plainAmount, requireAmount } from './amounts';

describe('amounts as typed', () => {
  it.each([
    ['8,000', '8000'],
    ['8000', '8000'],
    ['1,234,567.89', '1234567.89'],
    ['-1,234.50', '-1234.50'],
    ['8 000', '8000'],
    ['  12.5 ', '12.5'],
    ['８，０００', '8000'],
    ['１２．５', '12.5'],
    ['0', '0'],
    ['-120', '-120'],
  ])('%s is %s', (typed, plain) => expect(plainAmount(typed)).toBe(plain));

  it.each(['8,00', '80,00,000', '1,2345', 'abc', '', '1.2.3', '--5', '8,000,'])('%s is not an amount', (typed) =>
    expect(plainAmount(typed)).toBeNull(),
  );
});

describe("requireAmount: a positive amount in the currency's own decimals", () => {
  const refusal = (typed: string, currency: string) => {
    try {
      requireAmount(typed, currency);
      return null;
    } catch (err) {
      return err instanceof ClientError ? { key: err.key, params: err.params } : err;
    }
  };

  it('takes 12.50 CNY, 1200 JPY and 1.235 KWD', () => {
    expect([refusal('12.50', 'CNY'), refusal('1200', 'JPY'), refusal('1.235', 'KWD')]).toEqual([null, null, null]);
  });

  it('refuses with the rule of each currency: two decimals, whole yen, three decimals', () => {
    expect(refusal('1.234', 'CNY')).toEqual({ key: 'errors.amountFormat', params: {} });
    expect(refusal('12.5', 'JPY')).toEqual({ key: 'errors.amountWhole', params: {} });
    expect(refusal('1.2345', 'KWD')).toEqual({ key: 'errors.amountDigits', params: { digits: 3 } });
    expect(refusal('0', 'KWD')).toEqual({ key: 'errors.amountDigits', params: { digits: 3 } });
  });
});
