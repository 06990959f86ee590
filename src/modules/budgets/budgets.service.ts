import type { ServiceDeps, UseCaseArgs } from '../service.ts';
import type { BudgetDeps } from './budgets.deps.ts';
import { monthBudget, setMonthBudget } from './budgets.month.ts';
import * as budgetsRepo from './budgets.repo.ts';
import { getBudget, setBudget, setMyBudget } from './budgets.set.ts';

export { MAX_CATEGORY_LINES } from './budgets.month.ts';

export type BudgetServiceDeps = ServiceDeps<typeof budgetsRepo, 'appTimezone'>;

/**
 * The budgets, one named use case each: the personal budget of a month with its category lines
 * (budgets.month.ts, read in budgets.personal.ts) and the total or a group's budget
 * (budgets.set.ts, a group's read in budgets.group.ts).
 */
export function createBudgetService({ db, clock, config, repo = budgetsRepo }: BudgetServiceDeps) {
  const deps: BudgetDeps = { db, clock, config, repo };
  return {
    month: (...a: UseCaseArgs<typeof monthBudget>) => monthBudget(deps, ...a),
    setMonth: (...a: UseCaseArgs<typeof setMonthBudget>) => setMonthBudget(deps, ...a),
    get: (...a: UseCaseArgs<typeof getBudget>) => getBudget(deps, ...a),
    set: (...a: UseCaseArgs<typeof setBudget>) => setBudget(deps, ...a),
    setMine: (...a: UseCaseArgs<typeof setMyBudget>) => setMyBudget(deps, ...a),
  };
}

export type BudgetService = ReturnType<typeof createBudgetService>;
