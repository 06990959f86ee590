import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { deferred } from '../../lib/deferred';
import type { Summary } from '../../api/types';
import type { StatsChoice } from './store';

const api = vi.hoisted(() => ({ fetchSummary: vi.fn() }));
const budget = vi.hoisted(() => ({ fetchBudget: vi.fn() }));
vi.mock('./api', () => api);
vi.mock('../budget/api', () => budget);

const { summaryQuery, useStatsStore } = await import('./store');
const { ClientError } = await import('../../api/client');

const base: StatsChoice = {
  period: 'month',
  type: 'expense',
  anchor: '2026-11-26',
  start: '2026-11-01',
  end: '2026-11-26',
  groupId: null,
  accountId: null,
  view: 'paid',
  tagId: null,
};
const summary = (n: number) => ({ overview: { count: n } }) as unknown as Summary;

beforeEach(() => {
  setActivePinia(createPinia());
  vi.resetAllMocks();
  budget.fetchBudget.mockResolvedValue(null);
});

describe('the statistics query', () => {
  it('asks for the period around the anchor, personal filters only without a group', () => {
    expect(summaryQuery({ ...base, accountId: 3, view: 'share', tagId: 4 })).toEqual({
      period: 'month',
      type: 'expense',
      date: '2026-11-26',
      account_id: 3,
      view: 'share',
      tag_id: 4,
    });
    expect(summaryQuery({ ...base, groupId: 9, accountId: 3, view: 'share' })).toEqual({
      period: 'month',
      type: 'expense',
      date: '2026-11-26',
      group_id: 9,
    });
  });

  it('asks for a custom range by its ends, and refuses one that ends before it starts', () => {
    expect(summaryQuery({ ...base, period: 'custom' })).toMatchObject({
      period: 'custom',
      start: '2026-11-01',
      end: '2026-11-26',
    });
    expect(() => summaryQuery({ ...base, period: 'custom', start: '2026-11-27' })).toThrow(ClientError);
  });
});

describe('the statistics store', () => {
  it('shows the answer of the latest choice when an earlier one answers last', async () => {
    const first = deferred<Summary>();
    const second = deferred<Summary>();
    api.fetchSummary.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const store = useStatsStore();
    const a = store.show(base);
    const b = store.show({ ...base, type: 'income' });
    second.resolve(summary(2));
    await b;
    first.resolve(summary(1));
    await a;
    expect(store.summary?.overview.count).toBe(2);
    expect(store.loading).toBe(false);
    expect(budget.fetchBudget).toHaveBeenCalledWith('2026-11', null);
  });

  it('shows the page without the budget when the budget cannot be read', async () => {
    api.fetchSummary.mockResolvedValue(summary(3));
    budget.fetchBudget.mockRejectedValue(new Error('down'));
    const store = useStatsStore();
    await store.show(base);
    expect(store.summary?.overview.count).toBe(3);
    expect(store.budget).toBe(null);
    expect(store.error).toBe(null);
  });

  it('keeps the last summary with the error of a refused range, asking nothing', async () => {
    api.fetchSummary.mockResolvedValue(summary(5));
    const store = useStatsStore();
    await store.show(base);
    await store.show({ ...base, period: 'custom', start: '2026-12-01' });
    expect(store.error).toBeInstanceOf(ClientError);
    expect(store.summary?.overview.count).toBe(5);
    expect(api.fetchSummary).toHaveBeenCalledTimes(1);
  });
});
