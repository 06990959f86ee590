// The budget page's data: the month's budget (personal, or a group's with the caller's share) and,
// for personal books, its lines per category. Every change reads both again, since a line's
// carry-over and the month's remaining amount depend on each other.
import { defineStore } from 'pinia';
import type { Budget } from '../../api/types';
import { createLoader } from '../../lib/loader';
import * as api from './api';
import { requireAmount } from '../../lib/amounts';
import { currency, groupCurrency } from '../../stores/session';

export type LineInput = { category_id: number; amount: string | number; carry_over: boolean };

export const useBudgetStore = defineStore('budget', () => {
  let month = '';
  let groupId: number | null = null;
  const budget = createLoader(() => api.fetchBudget(month, groupId), null as Budget | null);
  // the lines exist for personal books only
  const lines = createLoader(async () => (groupId ? null : api.fetchLines(month)), null as api.MonthBudget | null);

  function reload(): Promise<void> {
    return Promise.all([budget.load(), lines.load()]).then(() => undefined);
  }

  /** Shows the month of the personal books, or with `group` of that group. */
  function show(m: string, group: number | null): Promise<void> {
    month = m;
    groupId = group;
    return reload();
  }

  /**
   * Sets (or with null clears) the month's budget, or with `mine` the caller's share of the group's:
   * from this month on unless `onlyThisMonth`.
   */
  async function saveAmount(which: 'main' | 'mine', value: string | null, onlyThisMonth = false): Promise<void> {
    // a group's budget is in the group currency, a personal one in the base currency
    if (value !== null) requireAmount(value, groupId ? groupCurrency(groupId) : currency.value);
    const amount = value === null ? null : value.trim();
    if (which === 'mine' && groupId) await api.saveMyShare(month, amount, groupId, !onlyThisMonth);
    else await api.saveBudget(month, amount, groupId, !onlyThisMonth);
    await reload();
  }

  /** The lines as they stand, ready to be sent back with a change. */
  function currentLines(): LineInput[] {
    return (lines.data.value?.categories ?? []).map((l) => ({
      category_id: l.category_id,
      amount: String(l.amount),
      carry_over: l.carry_over,
    }));
  }

  // a change of the lines holds from this month on, as the amounts do
  async function saveLines(body: api.LinesChange): Promise<void> {
    await api.saveLines(month, { ...body, repeat: true });
    await reload();
  }

  function addLine(line: LineInput): Promise<void> {
    return saveLines({ categories: [...currentLines(), line] });
  }

  function removeLine(categoryId: number): Promise<void> {
    return saveLines({ categories: currentLines().filter((l) => l.category_id !== categoryId) });
  }

  function toggleLineCarry(categoryId: number): Promise<void> {
    return saveLines({
      categories: currentLines().map((l) => (l.category_id === categoryId ? { ...l, carry_over: !l.carry_over } : l)),
    });
  }

  /** Carries what remains of the whole month into the next, or stops doing so (only with an amount set). */
  async function toggleTotalCarry(): Promise<void> {
    const b = lines.data.value;
    if (!b || b.amount === null) return;
    await saveLines({ carry_over: !b.carry_over });
  }

  return {
    budget: budget.data,
    error: budget.error,
    lines: lines.data,
    linesError: lines.error,
    show,
    reload,
    saveAmount,
    addLine,
    removeLine,
    toggleLineCarry,
    toggleTotalCarry,
  };
});
