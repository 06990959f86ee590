import { describe, expect, it } from 'vitest';
import { differenceOf } from './balances';

describe('a statement balance against the books', () => {
  it('is the statement less the books, exact to the minor unit', () => {
    // 5,600.50 - 5,572.00; 0.3 - 0.1 is not 0.19999… here
    expect(differenceOf('5600.50', 5572)).toBe(28.5);
    expect(differenceOf('0.30', 0.1)).toBe(0.2);
    expect(differenceOf('-88.80', -88.8)).toBe(0);
    expect(differenceOf('950.00', 955)).toBe(-5);
    // yen: no minor digits
    expect(differenceOf('1200', 1000)).toBe(200);
  });
});
