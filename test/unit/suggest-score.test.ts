import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  amountCloseness,
  fallbackScore,
  noteSimilarity,
  scoreCategories,
  type HistoryItem,
} from '../../src/lib/category-suggest.ts';

describe('suggestion scoring (pure)', () => {
  it('measures note similarity by character bigrams, for Chinese and Latin text', () => {
    assert.equal(noteSimilarity('星巴克咖啡', '星巴克咖啡'), 1);
    assert.ok(noteSimilarity('星巴克', '星巴克咖啡') > 0.6);
    assert.equal(noteSimilarity('地铁', '星巴克咖啡'), 0);
    assert.equal(noteSimilarity('Coffee!', 'coffee'), 1);
    assert.ok(noteSimilarity('morning coffee', 'coffee beans') > noteSimilarity('morning coffee', 'taxi home'));
    assert.equal(noteSimilarity('', 'anything'), 0);
    assert.equal(noteSimilarity('饭', '饭'), 1);
  });

  it('measures amount closeness on a log scale', () => {
    assert.equal(amountCloseness(1000, 1000), 1);
    assert.ok(amountCloseness(100, 1000) < 1e-9, 'ten times apart is not close');
    assert.ok(amountCloseness(1000, 100) < 1e-9);
    assert.equal(amountCloseness(50, 1000), 0);
    assert.ok(Math.abs(amountCloseness(2000, 1000) - amountCloseness(500, 1000)) < 1e-12, 'symmetric in ratio');
    assert.ok(amountCloseness(1100, 1000) > amountCloseness(2000, 1000));
  });

  it('scores in 0..1 with at most 4 decimals, best first, ties by category id', () => {
    const history = [
      { category_id: 9, amount_cents: 500, note: 'a', age_days: 1 },
      { category_id: 4, amount_cents: 500, note: 'a', age_days: 1 },
      { category_id: 7, amount_cents: 90000, note: 'rent', age_days: 20 },
    ];
    const scored = scoreCategories(history, { amount_cents: 500, note: 'a' });
    assert.deepEqual(
      scored.map((s) => s.category_id),
      [4, 9, 7],
    );
    for (const s of scored) {
      assert.ok(s.score >= 0 && s.score <= 1);
      assert.equal(Math.round(s.score * 10000) / 10000, s.score);
    }
    assert.deepEqual(scoreCategories([], { note: 'x' }), []);
  });
});

const historyItem = fc.record({
  category_id: fc.integer({ min: 1, max: 12 }),
  amount_cents: fc.integer({ min: 1, max: 10_000_000 }),
  note: fc.oneof(
    fc.constantFrom('', 'coffee', 'morning coffee', '星巴克咖啡', '地铁', 'taxi'),
    fc.string({ maxLength: 12 }),
  ),
  age_days: fc.integer({ min: 0, max: 400 }),
});
const suggestQuery = fc.record(
  {
    amount_cents: fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }),
    note: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
  },
  { requiredKeys: [] },
);

describe('suggestion scoring (properties)', () => {
  it('scores each used category once, within 0.1..1, best first and ties by id', () => {
    fc.assert(
      fc.property(fc.array(historyItem, { maxLength: 40 }), suggestQuery, (history: HistoryItem[], query) => {
        const scored = scoreCategories(history, query);
        assert.deepEqual(
          scored.map((s) => s.category_id).sort((a, b) => a - b),
          [...new Set(history.map((h) => h.category_id))].sort((a, b) => a - b),
        );
        for (const s of scored) {
          assert.ok(s.score >= 0.1 && s.score <= 1, String(s.score));
          assert.equal(Math.round(s.score * 10000) / 10000, s.score);
        }
        for (let i = 1; i < scored.length; i++) {
          const [a, b] = [scored[i - 1]!, scored[i]!];
          assert.ok(a.score > b.score || (a.score === b.score && a.category_id < b.category_id));
        }
      }),
    );
  });

  it('does not depend on the order of the history', () => {
    fc.assert(
      fc.property(
        fc.array(historyItem, { maxLength: 30 }),
        suggestQuery,
        fc.nat(),
        (history: HistoryItem[], query, seed) => {
          const shuffled = [...history].sort(
            (a, b) =>
              ((a.age_days * 31 + a.amount_cents + seed) % 97) - ((b.age_days * 31 + b.amount_cents + seed) % 97),
          );
          assert.deepEqual(scoreCategories(shuffled, query), scoreCategories(history, query));
        },
      ),
    );
  });

  it('keeps note similarity and amount closeness symmetric and within 0..1', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 16 }), fc.string({ maxLength: 16 }), (a, b) => {
        const s = noteSimilarity(a, b);
        assert.ok(s >= 0 && s <= 1);
        assert.equal(s, noteSimilarity(b, a));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 1e9 }), (a, b) => {
        const c = amountCloseness(a, b);
        assert.ok(c >= 0 && c <= 1);
        assert.ok(Math.abs(c - amountCloseness(b, a)) < 1e-12);
      }),
    );
  });

  it('keeps fallback scores below every history-based score, decreasing with position', () => {
    for (let p = 0; p < 10; p++) {
      assert.ok(fallbackScore(p) < 0.1);
      assert.ok(fallbackScore(p) >= 0);
      if (p > 0) assert.ok(fallbackScore(p) <= fallbackScore(p - 1));
    }
  });
});
