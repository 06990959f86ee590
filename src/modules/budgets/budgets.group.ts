import { monthRange } from '../../lib/dates.ts';
import { toMajor } from '../../lib/money.ts';
import type { BudgetDeps } from './budgets.deps.ts';
import { lineInForce } from './budgets.lines.ts';
import type { GroupBudget } from './budgets.schemas.ts';

const majorOrNull = (minor: number | null) => (minor === null ? null : toMajor(minor));

/** A group's budget of a month and the member's own amount in it. Membership is checked by the caller. */
export async function groupBudget(
  { db, repo }: BudgetDeps,
  userId: number,
  groupId: number,
  month: string,
): Promise<GroupBudget> {
  const [f, groupRows, myRows] = await Promise.all([
    repo.groupSpent(db, groupId, userId, monthRange(month)),
    repo.readLine(db, { userId: null, groupId }, month),
    repo.readLine(db, { userId, groupId }, month),
  ]);
  return {
    month,
    group_id: groupId,
    amount: majorOrNull(lineInForce(groupRows, month)?.amount ?? null),
    spent: toMajor(f.spent),
    myAmount: majorOrNull(lineInForce(myRows, month)?.amount ?? null),
    mySpent: toMajor(f.mySpent),
  };
}
