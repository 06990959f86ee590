import { Errors } from '../../lib/errors.ts';
import { baseCurrencyOf, requireGroupMember, requireGroupOwner, requireWritableGroup } from '../books/index.ts';
import { amountOf, checkMonth, legacy, personalAmountOf, thisMonth, write, type BudgetDeps } from './budgets.deps.ts';
import { groupBudget } from './budgets.group.ts';
import { personalBudget } from './budgets.personal.ts';
import type { BudgetBody, BudgetQuery, GroupBudget, LegacyPersonalBudget, MyBudgetBody } from './budgets.schemas.ts';

/** The personal budget of a month (this one when left out), or with group_id the group's (members only). */
export async function getBudget(
  deps: BudgetDeps,
  userId: number,
  q: BudgetQuery,
): Promise<LegacyPersonalBudget | GroupBudget> {
  if (q.group_id !== undefined) await requireGroupMember(deps.db, q.group_id, userId);
  const month = q.month === undefined ? await thisMonth(deps, userId) : checkMonth(q.month);
  return q.group_id !== undefined
    ? groupBudget(deps, userId, q.group_id, month)
    : legacy(await personalBudget(deps, userId, month));
}

/** The personal budget, or with group_id the group's budget (owner only; the group must be live). */
export async function setBudget(
  deps: BudgetDeps,
  userId: number,
  body: BudgetBody,
): Promise<LegacyPersonalBudget | GroupBudget> {
  const { db } = deps;
  checkMonth(body.month);
  if (body.group_id === undefined || body.group_id === null) {
    const minor = personalAmountOf(body.amount, await baseCurrencyOf(db, userId));
    await write(deps, { userId, groupId: null }, body.month, minor, body.repeat);
    return legacy(await personalBudget(deps, userId, body.month));
  }
  const minor = amountOf(body.amount);
  const g = await requireGroupOwner(db, body.group_id, userId);
  if (g.dissolvedAt) throw Errors.dissolved();
  await write(deps, { userId: null, groupId: body.group_id }, body.month, minor, body.repeat);
  return groupBudget(deps, userId, body.group_id, body.month);
}

/** A member's own amount in a group (any member of a live group). */
export async function setMyBudget(deps: BudgetDeps, userId: number, body: MyBudgetBody): Promise<GroupBudget> {
  checkMonth(body.month);
  const minor = amountOf(body.amount);
  await requireWritableGroup(deps.db, body.group_id, userId);
  await write(deps, { userId, groupId: body.group_id }, body.month, minor, body.repeat);
  return groupBudget(deps, userId, body.group_id, body.month);
}
