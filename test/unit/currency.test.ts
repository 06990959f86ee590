import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/lib/errors.ts';
import {
  bookableCurrencies,
  convertMinor,
  currencyInfo,
  divRoundHalfAway,
  formatMinor,
  parseMinor,
  parseRate,
  rateText,
  requireCurrency,
} from '../../src/lib/currency.ts';

const CNY = requireCurrency('CNY');
const JPY = requireCurrency('JPY');
const KWD = requireCurrency('KWD');
const USD = requireCurrency('USD');

const refused = (fn: () => unknown) =>
  assert.throws(fn, (err: unknown) => err instanceof AppError && err.code === 40001);

describe('currencies (ISO 4217)', () => {
  it('knows the minor units of each currency', () => {
    assert.deepEqual(
      [
        CNY.digits,
        USD.digits,
        requireCurrency('EUR').digits,
        JPY.digits,
        requireCurrency('KRW').digits,
        KWD.digits,
        requireCurrency('BHD').digits,
      ],
      [2, 2, 2, 0, 0, 3, 3],
    );
  });

  it('refuses codes that are not money one keeps books in', () => {
    for (const code of ['XXX', 'XAU', 'XTS', 'XDR', 'CLF', 'cny', 'CN', 'ABC', '', 'CNYY'])
      assert.equal(currencyInfo(code), undefined, code);
    refused(() => requireCurrency('XAU'));
    refused(() => requireCurrency(42));
    const all = bookableCurrencies();
    assert.ok(all.length > 140);
    assert.ok(all.some((c) => c.code === 'CNY') && !all.some((c) => c.code === 'XXX'));
  });
});

describe('amounts in minor units', () => {
  it("parses numbers and decimal strings exactly, within the currency's decimals", () => {
    assert.equal(parseMinor('12.34', CNY), 1234);
    assert.equal(parseMinor(12.3, CNY), 1230);
    assert.equal(parseMinor(0.1, CNY), 10);
    assert.equal(parseMinor('1500', JPY), 1500);
    assert.equal(parseMinor('1.234', KWD), 1234);
    assert.equal(parseMinor('-5.5', USD, 'amount', { allowNegative: true }), -550);
    assert.equal(parseMinor('0', USD, 'amount', { allowZero: true }), 0);
  });

  it('refuses more decimals than the currency has, signs, exponents, spaces and zero', () => {
    for (const [v, c] of [
      ['1.5', JPY],
      ['1.234', CNY],
      ['1.2345', KWD],
      [1e-7, CNY],
      ['1e3', CNY],
      [' 1', CNY],
      ['+1', CNY],
      ['-1', CNY],
      ['0', CNY],
      ['', CNY],
      [null, CNY],
      [Infinity, CNY],
      ['9999999999999999', CNY],
    ] as const) {
      refused(() => parseMinor(v, c));
    }
  });

  it("formats with exactly the currency's decimals and round-trips every amount", () => {
    assert.equal(formatMinor(-1230, CNY), '-12.30');
    assert.equal(formatMinor(5, KWD), '0.005');
    assert.equal(formatMinor(1500, JPY), '1500');
    fc.assert(
      fc.property(fc.constantFrom(CNY, JPY, KWD), fc.integer({ min: -1e13, max: 1e13 }), (cur, minor) => {
        const text = formatMinor(minor, cur);
        return parseMinor(text, cur, 'amount', { allowNegative: true, allowZero: true }) === minor;
      }),
      { seed: 42, numRuns: 500 },
    );
  });
});

describe('exchange rates and conversion', () => {
  it('parses rates as exact fractions', () => {
    assert.deepEqual(parseRate('7.1234'), { num: 71234n, den: 10000n });
    assert.equal(rateText(parseRate('7.1000')), '7.1');
    assert.equal(rateText(parseRate('20')), '20');
    for (const bad of ['0', '-1', '1e2', 'abc', '1.0000000000001', '']) refused(() => parseRate(bad));
  });

  it('rounds half away from zero, once', () => {
    assert.equal(divRoundHalfAway(5n, 2n), 3n);
    assert.equal(divRoundHalfAway(-5n, 2n), -3n);
    assert.equal(divRoundHalfAway(4n, 3n), 1n);
    assert.equal(divRoundHalfAway(-4n, 3n), -1n);
    // 100 JPY at 0.048 CNY per yen is 4.80 CNY; 1 JPY at 0.045 is 0.045 -> 0.05 (half away from zero)
    assert.equal(convertMinor(100, JPY, CNY, parseRate('0.048')), 480);
    assert.equal(convertMinor(1, JPY, CNY, parseRate('0.045')), 5);
    assert.equal(convertMinor(-1, JPY, CNY, parseRate('0.045')), -5);
    // 12.345 KWD at 23.5 CNY: 290.1075 CNY -> 290.11
    assert.equal(convertMinor(12345, KWD, CNY, parseRate('23.5')), 29011);
    // 10.00 USD at 150.5 JPY: 1505 yen
    assert.equal(convertMinor(1000, USD, JPY, parseRate('150.5')), 1505);
  });

  it('converts each row on its own: the sum over 10,000 rows drifts at most half a minor unit per row from the exact sum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 10_000, maxLength: 10_000 }),
        fc.integer({ min: 1, max: 99_999_999 }),
        (rows, rateInt) => {
          const rate = { num: BigInt(rateInt), den: 1_000_000n };
          const perRow = rows.reduce((s, m) => s + BigInt(convertMinor(m, USD, CNY, rate)), 0n);
          const exactNum = rows.reduce((s, m) => s + BigInt(m), 0n) * rate.num;
          // |perRow * den - exactNum| <= rows * den / 2
          const diff = perRow * rate.den - exactNum;
          return (diff < 0n ? -diff : diff) * 2n <= BigInt(rows.length) * rate.den;
        },
      ),
      { seed: 7, numRuns: 20 },
    );
  });

  it('a conversion and its inverse come back within one minor unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 1000 }), (minor, r) => {
        const rate = parseRate(String(r));
        const there = convertMinor(minor, CNY, USD, rate);
        const back = convertMinor(there, USD, CNY, { num: rate.den, den: rate.num });
        return Math.abs(back - minor) <= 1;
      }),
      { seed: 3, numRuns: 300 },
    );
  });
});
