import { describe, expect, it } from 'vitest';
import type { Category, Transaction } from '../../api/types';
import type { CachedAnswer, OfflineDb } from './db';
import { suggestOffline } from './suggest';

const cats = [
  { id: 1, name: 'Food', color: '#f00', kind: 'expense' },
  { id: 2, name: 'Transport', color: '#0f0', kind: 'expense' },
  { id: 3, name: 'Books', color: '#00f', kind: 'expense' },
  { id: 4, name: 'Salary', color: '#ff0', kind: 'income' },
  { id: 5, name: 'Gifts', color: '#0ff', kind: 'expense' },
] as Category[];

const ME = 7;
function row(
  id: number,
  kind: 'expense' | 'income',
  category_id: number,
  amount: number,
  note: string,
  more: Partial<Transaction> = {},
): Transaction {
  return {
    id,
    kind,
    category_id,
    amount,
    note,
    user_id: ME,
    category_picked: true,
    group_id: null,
    date: '2026-03-10',
    ...more,
  } as Transaction;
}

/** Only what the suggester reads of the local store: the cached answers. */
function dbWith(answers: CachedAnswer[]): OfflineDb {
  return { getAll: async () => answers } as unknown as OfflineDb;
}

const at = (q: string) => new URL(`/api/categories/suggest?${q}`, 'http://localhost');
const now = Date.parse('2026-03-20');
const ctx = { categories: cats, me: ME };

describe('category suggestions offline', () => {
  it('without history: the category a lexicon word names is preselected, the list completed in the person’s order', async () => {
    const out = await suggestOffline(dbWith([]), at('kind=expense&note=lunch'), ctx, now);
    expect(out.preselect).toBe(1);
    expect(out.list).toEqual([
      { category_id: 1, name: 'Food', color: '#f00', score: 0.75 },
      { category_id: 2, name: 'Transport', color: '#0f0', score: 0.05 },
      { category_id: 3, name: 'Books', color: '#00f', score: 0.04 },
    ]);
  });

  it('from the cached history: a close past note preselects its category; other kinds, others’ rows and unchosen categories do not count', async () => {
    const month = [row(10, 'expense', 3, 30, 'the corner bookshop'), row(11, 'expense', 2, 2, 'bus')];
    const page = {
      list: [row(10, 'expense', 3, 30, 'the corner bookshop'), row(12, 'income', 4, 900, 'corner bookshop')],
      total: 2,
    };
    // a group page: another member's row, and one of mine whose category was left as suggested
    const group = {
      list: [
        row(13, 'expense', 5, 30, 'corner bookshop', { group_id: 9, user_id: 8 }),
        row(14, 'expense', 5, 30, 'corner bookshop', { group_id: 9, category_picked: false }),
      ],
      total: 2,
    };
    const db = dbWith([
      { url: 'month:2026-03', body: month, at: 0 },
      { url: '/api/transactions?page=1', body: page, at: 0 },
      { url: '/api/transactions?group_id=9', body: group, at: 0 },
      { url: '/api/categories', body: { list: cats }, at: 0 },
    ]);
    const out = await suggestOffline(db, at('kind=expense&note=corner%20bookshop'), ctx, now);
    expect(out.preselect).toBe(3);
    // by hand: "cornerbookshop" has 13 bigrams, all among the 16 of "thecornerbookshop": Dice 26/29;
    // weights note .45, frequency .18, recency .12 (no amount): (.30 + .45·26/29)/.75 → 0.1 + 0.9·that
    const books = Math.round((0.1 + 0.9 * ((0.3 + (0.45 * 26) / 29) / 0.75)) * 10000) / 10000;
    expect(books).toBe(0.9441);
    // "bus": the same frequency and recency, no note in common: 0.1 + 0.9·(.30/.75)
    expect(out.list.map((s) => [s.category_id, s.score])).toEqual([
      [3, books],
      [2, 0.46],
      [1, 0.05],
    ]);
  });
});
