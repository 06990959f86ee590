import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatementBalances } from '../../src/modules/import/formats/statement.ts';

/*
 * A statement's closing balance as offered for reconciliation: signed, with exactly its currency's
 * minor digits, the last one of an account kept; one that could only be refused is not offered.
 */

describe('statement balances', () => {
  it("writes each amount with its currency's minor digits, signed by the file's debit mark", () => {
    const b = new StatementBalances();
    b.add('A', 'EUR', '2150,00', false, '2024-03-10');
    b.add('B', 'usd', '-104.9', false, '2024-03-31');
    b.add('C', 'JPY', '1200.00', false, '2025-04-11');
    b.add('D', 'KWD', '12.5', true, '2025-01-31');
    b.add('E', 'CNY', '0', true, '2025-01-31');
    assert.deepEqual(
      b.list.map((x) => [x.account, x.currency, x.amount]),
      [
        ['A', 'EUR', '2150.00'],
        ['B', 'USD', '-104.90'],
        ['C', 'JPY', '1200'],
        ['D', 'KWD', '-12.500'],
        ['E', 'CNY', '0.00'],
      ],
    );
  });

  it('keeps the last balance of an account, in the order the accounts last came', () => {
    const b = new StatementBalances();
    b.add('A', 'EUR', '1.00', false, '2025-01-31');
    b.add('B', 'EUR', '2.00', false, '2025-01-31');
    b.add('A', 'EUR', '3.00', true, '2025-02-28');
    assert.deepEqual(b.list, [
      { account: 'B', currency: 'EUR', amount: '2.00', date: '2025-01-31' },
      { account: 'A', currency: 'EUR', amount: '-3.00', date: '2025-02-28' },
    ]);
  });

  it('offers none that reconciling could only refuse', () => {
    const b = new StatementBalances();
    b.add('yen with cents', 'JPY', '1200.50', false, '2025-01-31');
    b.add('no currency', null, '1.00', false, '2025-01-31');
    b.add('not a currency', 'XXX', '1.00', false, '2025-01-31');
    b.add('no date', 'EUR', '1.00', false, null);
    b.add('no number', 'EUR', '1.0.0', false, '2025-01-31');
    b.add('', 'EUR', '1.00', false, '2025-01-31');
    assert.deepEqual(b.list, []);
  });
});
