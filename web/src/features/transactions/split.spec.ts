import { describe, expect, it } from 'vitest';
import { splitCheck, type SplitDraft } from './split';

const draft = (mode: SplitDraft['mode'], values: Record<number, string> = {}): SplitDraft => ({
  paid_by: 1,
  mode,
  included: [1, 2, 3],
  values,
});

describe('splitCheck: shares in the minor unit of the group currency', () => {
  it('splits 100.00 CNY three ways in fen, the extra fen to the lowest user id', () => {
    expect(splitCheck(draft('equal'), '100')).toMatchObject({ ok: true, shares: { 1: 3334, 2: 3333, 3: 3333 } });
  });

  it('splits 1,000 JPY three ways in whole yen, and refuses a fractional yen amount', () => {
    expect(splitCheck(draft('equal'), '1000', 0)).toMatchObject({ ok: true, shares: { 1: 334, 2: 333, 3: 333 } });
    expect(splitCheck(draft('equal'), '1000.5', 0)).toMatchObject({ ok: false, problem: 'amount' });
  });

  it('takes exact KWD shares with three decimals, and names what is left in fils', () => {
    expect(splitCheck(draft('exact', { 1: '1.235', 2: '0.5', 3: '0.265' }), '2.000', 3)).toMatchObject({
      ok: true,
      shares: { 1: 1235, 2: 500, 3: 265 },
    });
    expect(splitCheck(draft('exact', { 1: '1.235', 2: '0.5', 3: '0.264' }), '2', 3)).toMatchObject({
      ok: false,
      problem: 'left',
      left: 1,
    });
  });

  it('keeps weights and percentages at two decimals whatever the currency', () => {
    // 999 yen at 50/25/25 %: 499.5, 249.75, 249.75; the two yen left go to the largest remainders
    expect(splitCheck(draft('percent', { 1: '50', 2: '25', 3: '25' }), '999', 0)).toMatchObject({
      ok: true,
      shares: { 1: 499, 2: 250, 3: 250 },
    });
    expect(splitCheck(draft('shares', { 1: '1.5', 2: '1', 3: '0.5' }), '3', 3)).toMatchObject({
      ok: true,
      shares: { 1: 1500, 2: 1000, 3: 500 },
    });
  });
});
