import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { deferred } from '../../lib/deferred';
import type { SavedFilter, Transaction, TransactionPage } from '../../api/types';
import { defaultFilters } from './filters';

const api = vi.hoisted(() => ({
  fetchPage: vi.fn(),
  fetchSavedFilters: vi.fn(),
  createSavedFilter: vi.fn(),
  renameFilter: vi.fn(),
  deleteFilter: vi.fn(),
}));
const groups = vi.hoisted(() => ({ fetchMembers: vi.fn() }));
vi.mock('./api', () => api);
vi.mock('../groups/api', () => groups);

const { useTransactionsStore } = await import('./store');

const f = defaultFilters('2026-11-26');
const tx = (id: number) => ({ id }) as Transaction;
const page = (ids: number[], total: number) =>
  ({
    list: ids.map(tx),
    total,
    sums: { income: 0, expense: 0, balance: 0, count: total },
  }) as unknown as TransactionPage;
const ids = (rows: Transaction[]) => rows.map((r) => r.id);

beforeEach(() => {
  setActivePinia(createPinia());
  vi.resetAllMocks();
});

describe('the books store', () => {
  it('shows the first page of the latest choice when an earlier one answers last', async () => {
    const earlier = deferred<TransactionPage>();
    api.fetchPage.mockReturnValueOnce(earlier.promise).mockResolvedValueOnce(page([2], 1));
    const store = useTransactionsStore();
    const a = store.show(f, null);
    await store.show({ ...f, kind: 'expense' }, null);
    earlier.resolve(page([1], 1));
    await a;
    expect(ids(store.rows)).toEqual([2]);
    expect(store.page).toBe(1);
    expect(api.fetchPage.mock.calls[1]![0]).toMatchObject({ kind: 'expense', page: 1, pageSize: 20 });
  });

  it('adds the next page without the rows already shown, and stops at the total', async () => {
    api.fetchPage.mockResolvedValueOnce(page([1, 2], 3)).mockResolvedValueOnce(page([2, 3], 3));
    const store = useTransactionsStore();
    await store.show(f, 4);
    await store.more();
    expect(ids(store.rows)).toEqual([1, 2, 3]);
    expect(api.fetchPage.mock.calls[1]![0]).toMatchObject({ group_id: 4, page: 2 });
    await store.more();
    expect(api.fetchPage).toHaveBeenCalledTimes(2);
  });

  it('drops a later page read for a choice that has since changed', async () => {
    const second = deferred<TransactionPage>();
    api.fetchPage
      .mockResolvedValueOnce(page([1], 2))
      .mockReturnValueOnce(second.promise)
      .mockResolvedValueOnce(page([7], 1));
    const store = useTransactionsStore();
    await store.show(f, null);
    const more = store.more();
    await store.show({ ...f, keyword: 'tea' }, null);
    second.resolve(page([2], 2));
    await more;
    expect(ids(store.rows)).toEqual([7]);
    expect(store.loading).toBe(false);
  });

  it('starts a new visit from an empty list', async () => {
    api.fetchPage.mockResolvedValueOnce(page([1], 1));
    const store = useTransactionsStore();
    await store.show(f, null);
    store.clear();
    expect(store.rows).toEqual([]);
    expect(store.page).toBe(0);
    expect(store.sums).toBe(null);
  });

  it('reads the saved filters again after one is saved', async () => {
    const saved = { id: 5, name: 'Food' } as SavedFilter;
    api.fetchSavedFilters.mockResolvedValueOnce([]).mockResolvedValueOnce([saved]);
    api.createSavedFilter.mockResolvedValue(saved);
    const store = useTransactionsStore();
    await store.loadSavedFilters();
    expect((await store.saveFilter('Food', { kind: 'all' } as never)).id).toBe(5);
    expect(store.savedFilters).toEqual([saved]);
  });

  it('lists no members outside a group, and none when they cannot be read', async () => {
    groups.fetchMembers.mockRejectedValue(new Error('gone'));
    const store = useTransactionsStore();
    await store.showMembers(null);
    expect(groups.fetchMembers).not.toHaveBeenCalled();
    await store.showMembers(3);
    expect(store.members).toEqual([]);
  });
});
