import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { noteScorer, scoreCategories, type HistoryItem } from '../../src/lib/category-suggest.ts';

// A bill scores thousands of notes against one history: the prepared scorer must give exactly the
// scores of scoring each note on its own.
const note = fc.oneof(
  fc.constantFrom(
    '',
    '饭',
    '星巴克咖啡',
    '星巴克',
    '地铁 通勤',
    '示例商户12 商品3',
    'Coffee!',
    'coffee beans',
    '!!',
    'a',
  ),
  fc.string({ maxLength: 10 }),
  fc
    .array(fc.constantFrom('星', '巴', '克', '咖', '啡', '地', '铁', 'a', 'b', ' ', '1'), { maxLength: 8 })
    .map((cs) => cs.join('')),
);
const item = fc.record({
  category_id: fc.integer({ min: 1, max: 8 }),
  amount_cents: fc.integer({ min: 1, max: 100_000 }),
  note,
  age_days: fc.integer({ min: -3, max: 400 }),
});

describe('bill category suggestion: one prepared scorer for many notes', () => {
  it('gives the scores of scoreCategories for each note', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 60 }),
        fc.array(note, { minLength: 1, maxLength: 8 }),
        (history: HistoryItem[], notes: string[]) => {
          const score = noteScorer(history);
          for (const n of notes) assert.deepEqual(score(n), scoreCategories(history, { note: n }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ranks a history note sharing characters above one sharing none', () => {
    const history: HistoryItem[] = [
      { category_id: 1, amount_cents: 100, note: '星巴克咖啡', age_days: 1 },
      { category_id: 2, amount_cents: 100, note: '地铁', age_days: 1 },
    ];
    const [best] = noteScorer(history)('星巴克');
    assert.equal(best!.category_id, 1);
  });
});
