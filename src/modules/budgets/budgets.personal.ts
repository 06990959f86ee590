import type { Executor } from '../../db/client.ts';
import { toMajorUnits } from '../../lib/currency.ts';
import { monthRange } from '../../lib/dates.ts';
import { baseCurrencyOf } from '../books/index.ts';
import { percentOf } from '../stats/index.ts';
import { carriedInto, CARRY_MONTHS, monthsBefore, type BudgetLine } from './budgets.carry.ts';
import type { BudgetDeps } from './budgets.deps.ts';
import { lineInForce, type StoredLine } from './budgets.lines.ts';
import type { PersonalBudget } from './budgets.schemas.ts';

type LineOf = (categoryId: number | null) => (m: string) => (BudgetLine & { repeat: boolean }) | undefined;

/**
 * The line of each category (null: the total) in force in a month, from every budget row up to the
 * month, and the categories that have rows.
 */
async function linesOf({ repo }: BudgetDeps, ex: Executor, userId: number, month: string) {
  const rowsOf = new Map<number | null, StoredLine[]>();
  for (const r of await repo.personalRows(ex, userId, month)) {
    const list = rowsOf.get(r.categoryId) ?? [];
    list.push(r);
    rowsOf.set(r.categoryId, list);
  }
  const lineOf: LineOf = (categoryId) => (m) => lineInForce(rowsOf.get(categoryId) ?? [], m);
  return { lineOf, categoryIds: [...rowsOf.keys()] };
}

/** The earliest month any carry chain into `month` reaches: expense is read from there on. */
function earliestReached(month: string, lineOf: LineOf, categoryIds: (number | null)[]): string {
  let earliest = month;
  for (const categoryId of categoryIds) {
    let m = month;
    for (let i = 0; i < CARRY_MONTHS; i++) {
      const prev = monthsBefore(m, 1);
      if (prev === m || !lineOf(categoryId)(prev)?.carryOver) break;
      m = prev;
    }
    if (m < earliest) earliest = m;
  }
  return earliest;
}

/**
 * The personal budget of a month in the base currency: the total and each category line with
 * what they carry in from earlier months, what was spent (expense only: transfers and
 * adjustments never count) and what remains. Three reads: every budget row up to the month (a
 * repeating one holds later), the categories of the lines in force, and the expense per month
 * and category.
 */
export async function personalBudget(
  deps: BudgetDeps,
  userId: number,
  month: string,
  ex: Executor = deps.db,
): Promise<PersonalBudget> {
  const { repo } = deps;
  const base = await baseCurrencyOf(ex, userId);
  const major = (minor: number) => toMajorUnits(minor, base);
  const { lineOf, categoryIds } = await linesOf(deps, ex, userId, month);
  const ids = categoryIds.filter((id): id is number => id !== null && lineOf(id)(month) !== undefined);
  const current = await repo.categoriesIn(ex, userId, ids);
  const earliest = earliestReached(month, lineOf, [null, ...current.map((c) => c.categoryId)]);
  const spent = await repo.expenseByMonth(ex, userId, {
    start: monthRange(earliest).start,
    end: monthRange(month).end,
  });
  const totalSpent = (m: string) => spent.total.get(m) ?? 0;
  const total = lineOf(null)(month);
  const totalIn = total ? carriedInto(month, lineOf(null), totalSpent) : 0;
  const spentNow = totalSpent(month);
  return {
    month,
    currency: base.code,
    amount: total ? major(total.amount) : null,
    spent: major(spentNow),
    remaining: total ? major(total.amount + totalIn - spentNow) : null,
    carry_over: total?.carryOver ?? false,
    repeat: total?.repeat ?? false,
    carried_in: major(totalIn),
    categories: current.map((c) => {
      const line = lineOf(c.categoryId)(month)!;
      const catSpent = (m: string) => spent.byCategory.get(`${c.categoryId} ${m}`) ?? 0;
      const carried = carriedInto(month, lineOf(c.categoryId), catSpent);
      const available = line.amount + carried;
      return {
        category_id: c.categoryId,
        name: c.name,
        color: c.color,
        amount: major(line.amount),
        carry_over: line.carryOver,
        repeat: line.repeat,
        carried_in: major(carried),
        available: major(available),
        spent: major(catSpent(month)),
        remaining: major(available - catSpent(month)),
        percent: available > 0 ? percentOf(catSpent(month), available) : catSpent(month) > 0 ? 100 : 0,
      };
    }),
  };
}
