import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/lib/errors.ts';
import { parseAmount, parseAmountBound, toMajor } from '../../src/lib/money.ts';
import { minorToDecimal } from '../../src/modules/export/export.format.ts';

function rejects(fn: () => unknown, label: string): void {
  assert.throws(fn, (err: unknown) => err instanceof AppError && err.code === 40001 && err.status === 400, label);
}

describe('parseAmount', () => {
  const accepted: [unknown, number][] = [
    [12, 1200],
    [12.5, 1250],
    ['12.50', 1250],
    ['12', 1200],
    ['12.5', 1250],
    [0.01, 1],
    ['0.01', 1],
    [0.1, 10],
    [19.99, 1999],
    [999999999999.99, 99999999999999],
    ['999999999999.99', 99999999999999],
    [100, 10000],
  ];
  for (const [input, cents] of accepted) {
    it(`accepts ${JSON.stringify(input)} as ${cents} cents`, () => {
      assert.equal(parseAmount(input), cents);
    });
  }

  const rejected: unknown[] = [
    '',
    null,
    undefined,
    Number.NaN,
    Infinity,
    -Infinity,
    0,
    '0',
    '0.00',
    -1,
    '-1',
    -0.01,
    '1e3',
    1e21,
    '1E3',
    1.005,
    '1.005',
    '12.345',
    '1000000000000',
    1000000000000,
    '1234567890123.5',
    ' 12',
    '12 ',
    '+12',
    '12.',
    '.5',
    '0x10',
    '١٢',
    true,
    {},
    [12],
  ];
  for (const input of rejected) {
    it(`rejects ${typeof input === 'number' ? String(input) : JSON.stringify(input)} with 40001`, () => {
      rejects(() => parseAmount(input), String(input));
    });
  }

  it('names the field in the error details', () => {
    try {
      parseAmount('x', 'max_amount');
      assert.fail('should throw');
    } catch (err) {
      assert.ok(err instanceof AppError);
      assert.equal(err.details?.[0]?.field, 'max_amount');
    }
  });
});

describe('parseAmountBound', () => {
  it('allows zero as a bound and otherwise behaves like parseAmount', () => {
    for (const zero of [0, '0', '0.0', '0.00']) assert.equal(parseAmountBound(zero, 'min_amount'), 0);
    assert.equal(parseAmountBound('3.5', 'min_amount'), 350);
    rejects(() => parseAmountBound(-1, 'min_amount'), '-1');
    rejects(() => parseAmountBound('', 'min_amount'), 'empty');
  });
});

describe('toMajor', () => {
  const cases: [number | bigint | string | null | undefined, number][] = [
    [1250, 12.5],
    ['99999999999999', 999999999999.99],
    [1n, 0.01],
    [0, 0],
    [null, 0],
    [undefined, 0],
    [-505, -5.05],
  ];
  for (const [input, major] of cases) {
    it(`turns ${String(input)} cents into ${major}`, () => assert.equal(toMajor(input), major));
  }
});

describe('money (properties)', () => {
  const cents = fc.integer({ min: 1, max: 99_999_999_999_999 });

  it('parses back every amount it writes: as decimal text and as a JSON number', () => {
    fc.assert(
      fc.property(cents, (c) => {
        assert.equal(parseAmount(minorToDecimal(c)), c);
        assert.equal(parseAmount(toMajor(c)), c);
        assert.equal(parseAmount(JSON.parse(JSON.stringify(toMajor(c)))), c);
        assert.equal(toMajor(String(c)), toMajor(c));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads integer and one-decimal forms as the same cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999_999 }), fc.integer({ min: 0, max: 9 }), (units, tenth) => {
        assert.equal(parseAmount(String(units)), units * 100);
        assert.equal(parseAmount(`${units}.${tenth}`), units * 100 + tenth * 10);
        assert.equal(parseAmount(`${units}.${tenth}0`), units * 100 + tenth * 10);
      }),
    );
  });

  it('refuses more than two decimals, a sign, an exponent or blanks, whatever the digits', () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 1, max: 9 }), (c, extra) => {
        const text = minorToDecimal(c);
        for (const bad of [`${text}${extra}`, `-${text}`, `+${text}`, ` ${text}`, `${text} `, `${text}e0`])
          rejects(() => parseAmount(bad), bad);
      }),
    );
  });
});
