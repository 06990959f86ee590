import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  apportion,
  computeBalances,
  computeShares,
  outstanding,
  suggestSettlements,
  type LedgerRecord,
  type LedgerSettlement,
  type Part,
  type Share,
  type SplitMode,
} from '../../src/lib/splits.ts';

const sum = (xs: readonly { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);

describe('apportion (largest remainder)', () => {
  it('gives the leftover cents to the largest remainders, ties to the lower user id', () => {
    assert.deepEqual(
      apportion(100, [
        { userId: 3, value: 1n },
        { userId: 1, value: 1n },
        { userId: 2, value: 1n },
      ]),
      [
        { userId: 1, amount: 34 },
        { userId: 2, amount: 33 },
        { userId: 3, amount: 33 },
      ],
    );
    // 1000 by 1:2 -> 333.33 / 666.66: the larger remainder (.67 of 666.67) gets the cent
    assert.deepEqual(
      apportion(1000, [
        { userId: 1, value: 1n },
        { userId: 2, value: 2n },
      ]),
      [
        { userId: 1, amount: 333 },
        { userId: 2, amount: 667 },
      ],
    );
  });

  it('does not depend on the order members are listed in', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.uniqueArray(
          fc.record({ userId: fc.integer({ min: 1, max: 1000 }), value: fc.bigInt({ min: 1n, max: 10_000n }) }),
          {
            minLength: 1,
            maxLength: 12,
            selector: (p) => p.userId,
          },
        ),
        (amount, parts) => {
          assert.deepEqual(apportion(amount, parts), apportion(amount, [...parts].reverse()));
        },
      ),
    );
  });
});

const partsArb = fc.uniqueArray(
  fc.record({ userId: fc.integer({ min: 1, max: 60 }), value: fc.bigInt({ min: 0n, max: 100_000n }) }),
  {
    minLength: 1,
    maxLength: 50,
    selector: (p) => p.userId,
  },
);

/** A split that adds up for `amount`: exact and percent values are made to sum correctly. */
function validSplit(amount: number, mode: SplitMode, parts: Part[]): Part[] {
  if (mode === 'exact' || mode === 'percent') {
    const target = mode === 'exact' ? BigInt(amount) : 10_000n;
    const weights = parts.map((p) => ({ ...p, value: p.value + 1n }));
    return apportion(Number(target), weights).map((s) => ({ userId: s.userId, value: BigInt(s.amount) }));
  }
  if (mode === 'shares' && parts.every((p) => p.value === 0n))
    return parts.map((p, i) => ({ ...p, value: i === 0 ? 1n : p.value }));
  return parts;
}

describe('computeShares', () => {
  it('every share list sums exactly to its amount, in every mode', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999_999_999 }),
        fc.constantFrom<SplitMode>('equal', 'shares', 'exact', 'percent'),
        partsArb,
        (amount, mode, parts) => {
          const shares = computeShares(amount, mode, validSplit(amount, mode, parts));
          assert.ok(Array.isArray(shares), JSON.stringify(shares));
          assert.equal(sum(shares), amount);
          assert.ok(shares.every((s) => s.amount >= 0 && Number.isInteger(s.amount)));
          assert.equal(shares.length, parts.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('equal shares differ by at most one minor unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e10 }), partsArb, (amount, parts) => {
        const shares = computeShares(amount, 'equal', parts) as Share[];
        const amounts = shares.map((s) => s.amount);
        assert.ok(Math.max(...amounts) - Math.min(...amounts) <= 1);
      }),
    );
  });

  it('refuses splits that do not add up', () => {
    assert.ok(
      !Array.isArray(
        computeShares(100, 'exact', [
          { userId: 1, value: 50n },
          { userId: 2, value: 49n },
        ]),
      ),
    );
    assert.ok(
      !Array.isArray(
        computeShares(100, 'percent', [
          { userId: 1, value: 5000n },
          { userId: 2, value: 4999n },
        ]),
      ),
    );
    assert.ok(!Array.isArray(computeShares(100, 'shares', [{ userId: 1, value: 0n }])));
    assert.ok(!Array.isArray(computeShares(100, 'equal', [])));
    assert.ok(
      !Array.isArray(
        computeShares(100, 'shares', [
          { userId: 1, value: -1n },
          { userId: 2, value: 3n },
        ]),
      ),
    );
  });

  it('percent 33.33/33.33/33.34 of 10.00 is 3.33/3.33/3.34', () => {
    const shares = computeShares(1000, 'percent', [
      { userId: 1, value: 3333n },
      { userId: 2, value: 3333n },
      { userId: 3, value: 3334n },
    ]);
    assert.deepEqual(shares, [
      { userId: 1, amount: 333 },
      { userId: 2, amount: 333 },
      { userId: 3, amount: 334 },
    ]);
  });
});

// ---- a group's life: expenses, edits, deletes, member changes, settlements ----

type Op =
  | { op: 'add'; kind: 'expense' | 'income'; payer: number; amount: number; mode: SplitMode; parts: Part[] }
  | { op: 'edit'; index: number; amount: number }
  | { op: 'delete'; index: number }
  | { op: 'join'; userId: number }
  | { op: 'leave'; index: number }
  | { op: 'settle'; from: number; to: number; fraction: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('add' as const),
    kind: fc.constantFrom('expense' as const, 'income' as const),
    payer: fc.integer({ min: 0, max: 30 }),
    amount: fc.integer({ min: 1, max: 10_000_000 }),
    mode: fc.constantFrom<SplitMode>('equal', 'shares', 'exact', 'percent'),
    parts: partsArb,
  }),
  fc.record({ op: fc.constant('edit' as const), index: fc.nat(), amount: fc.integer({ min: 1, max: 10_000_000 }) }),
  fc.record({ op: fc.constant('delete' as const), index: fc.nat() }),
  fc.record({ op: fc.constant('join' as const), userId: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ op: fc.constant('leave' as const), index: fc.nat() }),
  fc.record({
    op: fc.constant('settle' as const),
    from: fc.nat(),
    to: fc.nat(),
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
);

interface Stored {
  kind: 'expense' | 'income';
  paidBy: number;
  amount: number;
  mode: SplitMode;
  parts: Part[];
  shares: Share[];
}

/** Replays the operations the way the service does: members come and go, records keep their shares. */
function replay(ops: Op[]): { records: Stored[]; settlements: LedgerSettlement[] } {
  const members = [1, 2];
  const records: Stored[] = [];
  const settlements: LedgerSettlement[] = [];
  for (const o of ops) {
    switch (o.op) {
      case 'join':
        if (!members.includes(o.userId)) members.push(o.userId);
        break;
      case 'leave':
        if (members.length > 1) members.splice(o.index % members.length, 1);
        break;
      case 'add': {
        // the split names current members only
        const parts = o.parts.map((p, i) => ({ userId: members[(p.userId + i) % members.length]!, value: p.value }));
        const unique = [...new Map(parts.map((p) => [p.userId, p])).values()];
        const valid = validSplit(o.amount, o.mode, unique);
        const shares = computeShares(o.amount, o.mode, valid) as Share[];
        records.push({
          kind: o.kind,
          paidBy: members[o.payer % members.length]!,
          amount: o.amount,
          mode: o.mode,
          parts: valid,
          shares,
        });
        break;
      }
      case 'edit': {
        if (!records.length) break;
        const r = records[o.index % records.length]!;
        // an edit of the amount keeps the split's mode and members; exact and percent are rescaled to add up
        const parts = validSplit(o.amount, r.mode, r.parts);
        r.amount = o.amount;
        r.parts = parts;
        r.shares = computeShares(o.amount, r.mode, parts) as Share[];
        break;
      }
      case 'delete':
        if (records.length) records.splice(o.index % records.length, 1);
        break;
      case 'settle': {
        const nets = computeBalances(records, settlements);
        if (!nets.length) break;
        const from = nets[o.from % nets.length]!.userId;
        const to = nets[o.to % nets.length]!.userId;
        const max = outstanding(nets, from, to);
        const amount = Math.floor(max * o.fraction);
        if (from !== to && amount > 0) settlements.push({ from, to, amount });
        break;
      }
    }
  }
  return { records, settlements };
}

describe('balances and suggested settlements', () => {
  it('nets sum to zero, shares sum to amounts, and the suggestions clear everything in at most n - 1 transfers', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const { records, settlements } = replay(ops);
        for (const r of records) assert.equal(sum(r.shares), r.amount);
        const balances = computeBalances(records as LedgerRecord[], settlements);
        assert.equal(
          balances.reduce((s, b) => s + b.net, 0),
          0,
        );
        const nonZero = balances.filter((b) => b.net !== 0).length;
        const transfers = suggestSettlements(balances);
        assert.ok(transfers.length <= Math.max(0, nonZero - 1), `${transfers.length} transfers for ${nonZero} people`);
        assert.ok(transfers.every((t) => t.amount > 0 && t.from !== t.to));
        const after = computeBalances(records as LedgerRecord[], [...settlements, ...transfers]);
        assert.ok(
          after.every((b) => b.net === 0),
          JSON.stringify(after),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('never proposes more than n - 1 transfers for any nets summing to zero', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { minLength: 1, maxLength: 50 }), (values) => {
        const nets = values.map((net, i) => ({ userId: i + 1, net }));
        nets.push({ userId: 1000, net: -values.reduce((s, v) => s + v, 0) });
        const transfers = suggestSettlements(nets);
        const n = nets.filter((x) => x.net !== 0).length;
        assert.ok(transfers.length <= Math.max(0, n - 1));
        const left = new Map(nets.map((x) => [x.userId, x.net]));
        for (const t of transfers) {
          left.set(t.from, left.get(t.from)! + t.amount);
          left.set(t.to, left.get(t.to)! - t.amount);
        }
        assert.ok([...left.values()].every((v) => v === 0));
      }),
    );
  });

  it('a settlement of the outstanding debt cannot be recorded twice', () => {
    const records: LedgerRecord[] = [
      {
        kind: 'expense',
        paidBy: 1,
        amount: 1000,
        shares: computeShares(1000, 'equal', [
          { userId: 1, value: 1n },
          { userId: 2, value: 1n },
        ]) as Share[],
      },
    ];
    const nets = computeBalances(records, []);
    assert.equal(outstanding(nets, 2, 1), 500);
    const after = computeBalances(records, [{ from: 2, to: 1, amount: 500 }]);
    assert.equal(outstanding(after, 2, 1), 0);
    assert.equal(outstanding(nets, 1, 2), 0);
  });

  it('the example of a dinner for four paid by one', () => {
    const shares = computeShares(
      10_000,
      'equal',
      [1, 2, 3, 4].map((userId) => ({ userId, value: 1n })),
    ) as Share[];
    const balances = computeBalances([{ kind: 'expense', paidBy: 1, amount: 10_000, shares }], []);
    assert.deepEqual(
      balances.map((b) => b.net),
      [7500, -2500, -2500, -2500],
    );
    assert.deepEqual(suggestSettlements(balances), [
      { from: 2, to: 1, amount: 2500 },
      { from: 3, to: 1, amount: 2500 },
      { from: 4, to: 1, amount: 2500 },
    ]);
  });
});
