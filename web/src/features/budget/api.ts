// The budget calls, through the typed client: the month's budget (personal, or a group's with the
// caller's share), its amounts, and the personal budget's lines per category.
import { client, ok } from '../../api/client';
import type { components, operations } from '../../api/schema';
import type { Budget } from '../../api/types';

type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
export type MonthBudget = components['schemas']['PersonalBudget'];
export type LinesChange = Body<'putBudgetsByMonth'>;

/** The budget of a month: the personal one, or with `groupId` the group's. */
export function fetchBudget(month: string, groupId: number | null): Promise<Budget> {
  return ok(client.GET('/api/budget', { params: { query: { month, ...(groupId ? { group_id: groupId } : {}) } } }));
}

/**
 * Sets (or with null clears) the month's amount of the personal budget, or with `groupId` of the
 * group's: from this month on with `repeat`, else for this month alone.
 */
export async function saveBudget(
  month: string,
  amount: string | null,
  groupId: number | null,
  repeat: boolean,
): Promise<void> {
  await ok(client.PUT('/api/budget', { body: { month, amount, repeat, ...(groupId ? { group_id: groupId } : {}) } }));
}

/** Sets (or clears) the caller's own share of a group's budget, repeating as `saveBudget`. */
export async function saveMyShare(
  month: string,
  amount: string | null,
  groupId: number,
  repeat: boolean,
): Promise<void> {
  await ok(client.PUT('/api/budget/mine', { body: { month, amount, group_id: groupId, repeat } }));
}

/** The personal budget of a month with its lines per category. */
export function fetchLines(month: string): Promise<MonthBudget> {
  return ok(client.GET('/api/budgets/{month}', { params: { path: { month } } }));
}

/** Replaces the month's lines or its carry-over; answers the month as it now stands. */
export function saveLines(month: string, body: LinesChange): Promise<MonthBudget> {
  return ok(client.PUT('/api/budgets/{month}', { params: { path: { month } }, body }));
}
