import { describe, expect, it } from 'vitest';
import { plainAmount } from './amounts';

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

  it.each(['8,00', '80,00,000', '1,2345', 'abc', '', '1.2.3', '--5', '8,000,'])('%s is not an amount', (typed) => expect(plainAmount(typed)).toBeNull());
});
