import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { carriedInto, monthsBefore, previousMonth, type BudgetLine } from '../../src/modules/budgets/budgets.carry.ts';

describe('budget carry-over', () => {
  it('steps months back across years', () => {
    assert.equal(previousMonth('2026-01'), '2025-12');
    assert.equal(previousMonth('2026-10'), '2026-09');
    assert.equal(monthsBefore('2026-03', 3), '2025-12');
    assert.equal(monthsBefore('2026-03', 120), '2016-03');
    assert.equal(monthsBefore('0001-02', 5), '0001-01');
  });

  it('carries the positive remainder along consecutive carrying months', () => {
    const lines = new Map<string, BudgetLine>([
      ['2026-01', { amount: 10000, carryOver: true }],
      ['2026-02', { amount: 20000, carryOver: true }],
    ]);
    const spent = new Map([
      ['2026-01', 3000],
      ['2026-02', 5000],
    ]);
    assert.equal(
      carriedInto(
        '2026-03',
        (m) => lines.get(m),
        (m) => spent.get(m) ?? 0,
      ),
      22000,
    );
    // a month that does not carry stops the chain
    lines.set('2026-02', { amount: 20000, carryOver: false });
    assert.equal(
      carriedInto(
        '2026-03',
        (m) => lines.get(m),
        (m) => spent.get(m) ?? 0,
      ),
      0,
    );
    // overspending is not carried
    lines.set('2026-02', { amount: 1000, carryOver: true });
    assert.equal(
      carriedInto(
        '2026-03',
        (m) => lines.get(m),
        (m) => spent.get(m) ?? 0,
      ),
      3000,
    );
    spent.set('2026-02', 90000);
    assert.equal(
      carriedInto(
        '2026-03',
        (m) => lines.get(m),
        (m) => spent.get(m) ?? 0,
      ),
      0,
    );
  });

  it('never carries a negative amount, and equals a month-by-month running sum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ amount: fc.integer({ min: 1, max: 1e6 }), spent: fc.integer({ min: 0, max: 2e6 }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        (months) => {
          // months[0] is the oldest; all carry over, into the month after the last
          const keys = months.map((_, i) => monthsBefore('2030-01', months.length - i));
          const lines = new Map(keys.map((k, i) => [k, { amount: months[i]!.amount, carryOver: true }]));
          const spent = new Map(keys.map((k, i) => [k, months[i]!.spent]));
          let running = 0;
          for (const m of months) running = Math.max(0, m.amount + running - m.spent);
          const got = carriedInto(
            '2030-01',
            (m) => lines.get(m),
            (m) => spent.get(m) ?? 0,
          );
          assert.equal(got, running);
          assert.ok(got >= 0);
        },
      ),
    );
  });
});
