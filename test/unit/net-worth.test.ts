import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { convertMinor, parseRate, requireCurrency } from '../../src/lib/currency.ts';
import { balanceInBase, netWorthOf } from '../../src/modules/accounts/accounts.service.ts';
import { crossRate, parseEcbXml } from '../../src/modules/rates/rates.fetch.ts';

const CNY = requireCurrency('CNY');

describe('net worth', () => {
  it('converts each balance once, half away from zero, negative balances too', () => {
    assert.equal(balanceInBase(5, 'USD', CNY, '7.1'), 36, '0.05 USD x 7.1 = 0.355 -> 0.36');
    assert.equal(balanceInBase(-5, 'USD', CNY, '7.1'), -36, '-0.355 -> -0.36');
    assert.equal(balanceInBase(1, 'JPY', CNY, '0.05'), 5, '1 JPY x 0.05 = 0.05 CNY');
    assert.equal(balanceInBase(1, 'KWD', CNY, '23.455'), 2, '0.001 KWD x 23.455 = 0.023455 -> 0.02');
    assert.equal(balanceInBase(123, 'CNY', CNY, undefined), 123);
    assert.equal(balanceInBase(123, 'USD', CNY, undefined), null);
  });

  it('is the sum of the converted balances, and names the currencies without a rate', () => {
    const rates: Record<string, string> = { USD: '7.1234', JPY: '0.0481', KWD: '23.4567' };
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            balance: fc.integer({ min: -1e12, max: 1e12 }),
            currency: fc.constantFrom('CNY', 'USD', 'JPY', 'KWD', 'GBP'),
          }),
          { maxLength: 30 },
        ),
        (rows) => {
          const worth = netWorthOf(rows, CNY, (c) => rates[c]);
          let expected = 0;
          for (const r of rows) {
            if (r.currency === 'CNY') expected += r.balance;
            else if (rates[r.currency])
              expected += convertMinor(r.balance, requireCurrency(r.currency), CNY, parseRate(rates[r.currency]!));
          }
          assert.equal(worth.minor, expected);
          assert.deepEqual(worth.missing, rows.some((r) => r.currency === 'GBP') ? ['GBP'] : []);
        },
      ),
    );
  });
});

describe('ECB rates', () => {
  it('reads the daily document and derives exact cross rates', () => {
    const day = parseEcbXml(
      `<Cube><Cube time="2026-01-05"><Cube currency="USD" rate="1.25"/><Cube currency="CNY" rate="8.75"/><Cube currency="BAD" rate="x"/></Cube></Cube>`,
    )!;
    assert.equal(day.date, '2026-01-05');
    assert.equal(crossRate(day, 'USD', 'CNY'), '7');
    assert.equal(crossRate(day, 'CNY', 'USD'), '0.142857142857');
    assert.equal(crossRate(day, 'EUR', 'USD'), '1.25');
    assert.equal(crossRate(day, 'GBP', 'USD'), null);
  });
});
