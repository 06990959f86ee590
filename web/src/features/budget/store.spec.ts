import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { deferred } from '../../lib/deferred';
import type { Budget } from '../../api/types';
import type { MonthBudget } from './api';

const api = vi.hoisted(() => ({
  fetchBudget: vi.fn(),
  saveBudget: vi.fn(),
  saveMyShare: vi.fn(),
  fetchLines: vi.fn(),
  saveLines: vi.fn(),
}));
vi.mock('./api', () => api);

const { useBudgetStore } = await import('./store');
const { ClientError } = await import('../../api/client');

const budget = (amount: number | null) => ({ amount, spent: 0 }) as unknown as Budget;
const lines = (carry: boolean, ...ids: number[]) =>
  ({
    amount: 1000,
    carry_over: carry,
    categories: ids.map((id) => ({ category_id: id, amount: id * 10, carry_over: false })),
  }) as unknown as MonthBudget;

beforeEach(() => {
  setActivePinia(createPinia());
  vi.resetAllMocks();
  api.fetchBudget.mockResolvedValue(budget(100));
  api.fetchLines.mockResolvedValue(lines(false, 1, 2));
});

describe('the budget store', () => {
  it('shows the month asked for last when an earlier month answers last', async () => {
    const october = deferred<Budget>();
    const november = deferred<Budget>();
    api.fetchBudget.mockReturnValueOnce(october.promise).mockReturnValueOnce(november.promise);
    const store = useBudgetStore();
    const a = store.show('2026-10', null);
    const b = store.show('2026-11', null);
    november.resolve(budget(11));
    await b;
    october.resolve(budget(10));
    await a;
    expect(store.budget?.amount).toBe(11);
  });

  it('reads no lines for a group, whose budget has none', async () => {
    const store = useBudgetStore();
    await store.show('2026-11', 7);
    expect(api.fetchBudget).toHaveBeenCalledWith('2026-11', 7);
    expect(api.fetchLines).not.toHaveBeenCalled();
    expect(store.lines).toBe(null);
  });

  it("sends the month's lines with one more, then reads the budget and the lines again", async () => {
    api.saveLines.mockResolvedValue(lines(false, 1, 2, 3));
    const store = useBudgetStore();
    await store.show('2026-11', null);
    api.fetchBudget.mockResolvedValue(budget(200));
    api.fetchLines.mockResolvedValue(lines(false, 1, 2, 3));
    await store.addLine({ category_id: 3, amount: '30', carry_over: true });
    expect(api.saveLines).toHaveBeenCalledWith('2026-11', {
      categories: [
        { category_id: 1, amount: '10', carry_over: false },
        { category_id: 2, amount: '20', carry_over: false },
        { category_id: 3, amount: '30', carry_over: true },
      ],
      repeat: true,
    });
    expect(store.budget?.amount).toBe(200);
    expect(store.lines?.categories).toHaveLength(3);
  });

  it('removes one line and turns the carry-over of another', async () => {
    api.saveLines.mockResolvedValue(lines(false));
    const store = useBudgetStore();
    await store.show('2026-11', null);
    await store.removeLine(1);
    expect(api.saveLines).toHaveBeenLastCalledWith('2026-11', {
      categories: [{ category_id: 2, amount: '20', carry_over: false }],
      repeat: true,
    });
    await store.toggleLineCarry(2);
    expect(api.saveLines).toHaveBeenLastCalledWith('2026-11', {
      categories: [
        { category_id: 1, amount: '10', carry_over: false },
        { category_id: 2, amount: '20', carry_over: true },
      ],
      repeat: true,
    });
    await store.toggleTotalCarry();
    expect(api.saveLines).toHaveBeenLastCalledWith('2026-11', { carry_over: true, repeat: true });
  });

  it("saves the caller's share of a group's budget, and refuses an amount that is not one", async () => {
    const store = useBudgetStore();
    await store.show('2026-11', 7);
    await store.saveAmount('mine', ' 50 ');
    expect(api.saveMyShare).toHaveBeenCalledWith('2026-11', '50', 7, true);
    expect(api.fetchBudget).toHaveBeenCalledTimes(2);
    await expect(store.saveAmount('main', '5.555')).rejects.toBeInstanceOf(ClientError);
    expect(api.saveBudget).not.toHaveBeenCalled();
    await store.saveAmount('main', null, true);
    expect(api.saveBudget).toHaveBeenCalledWith('2026-11', null, 7, false);
  });
});
