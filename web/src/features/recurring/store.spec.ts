import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { deferred } from '../../lib/deferred';
import type { RecurringRule } from '../../api/types';

const api = vi.hoisted(() => ({
  list: vi.fn(),
  create: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
}));
const accounts = vi.hoisted(() => ({ loadAccounts: vi.fn() }));
vi.mock('./api', () => ({ recurringApi: api }));
vi.mock('../../stores/accounts', () => accounts);

import { useRecurringStore } from './store';

const rule = (id: number, active = true) => ({ id, active }) as RecurringRule;

describe('the recurring store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.resetAllMocks();
    accounts.loadAccounts.mockResolvedValue([]);
  });

  it('keeps the latest list when an older read answers last', async () => {
    const first = deferred<RecurringRule[]>();
    const second = deferred<RecurringRule[]>();
    api.list.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const store = useRecurringStore();
    const a = store.load();
    const b = store.load();
    second.resolve([rule(2)]);
    await b;
    first.resolve([rule(1)]);
    await a;
    expect(store.rules.map((r) => r.id)).toEqual([2]);
    expect(store.loading).toBe(false);
  });

  it('reads the rules again after a change, and the accounts after booking past dates', async () => {
    api.list
      .mockResolvedValueOnce([rule(1)])
      .mockResolvedValueOnce([rule(1), rule(2)])
      .mockResolvedValueOnce([rule(1, false), rule(2)])
      .mockResolvedValueOnce([rule(2)]);
    const store = useRecurringStore();
    await store.load();
    await store.create({ book_past: true } as never);
    expect(store.rules.map((r) => r.id)).toEqual([1, 2]);
    expect(accounts.loadAccounts).toHaveBeenCalledWith(true);
    await store.update(1, { active: false });
    expect(api.update).toHaveBeenCalledWith(1, { active: false });
    expect(store.rules[0]!.active).toBe(false);
    await store.remove(1);
    expect(store.rules.map((r) => r.id)).toEqual([2]);
  });

  it('keeps the error of a failed read and leaves a refused change to its caller', async () => {
    api.list.mockRejectedValueOnce(new Error('down'));
    const store = useRecurringStore();
    await store.load();
    expect((store.error as Error).message).toBe('down');
    api.create.mockRejectedValueOnce(new Error('refused'));
    await expect(store.create({} as never)).rejects.toThrow('refused');
    expect(api.list).toHaveBeenCalledTimes(1);
    expect(accounts.loadAccounts).not.toHaveBeenCalled();
  });
});
