import { requireGroupMember, requireGroupOwner, requireWritableGroup, userTimezone } from '../../lib/access.ts';
import type { ServiceDeps } from '../../lib/service.ts';
import { monthRange, todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { parseAmount, toMajor } from '../../lib/money.ts';
import * as budgetsRepo from './budgets.repo.ts';
import type { BudgetBody, BudgetQuery, GroupBudget, MyBudgetBody, PersonalBudget } from './budgets.schemas.ts';

const majorOrNull = (cents: number | null) => (cents === null ? null : toMajor(cents));

export type BudgetServiceDeps = ServiceDeps<typeof budgetsRepo, 'appTimezone'>;

export function createBudgetService({ db, clock, config, repo = budgetsRepo }: BudgetServiceDeps) {

  async function thisMonth(userId: number): Promise<string> {
    return todayIn(await userTimezone(db, userId, config.appTimezone), clock.now()).slice(0, 7);
  }

  async function personal(userId: number, month: string): Promise<PersonalBudget> {
    const f = await repo.personalFigures(db, userId, month, monthRange(month));
    return {
      month,
      amount: majorOrNull(f.amount),
      spent: toMajor(f.spent),
      remaining: f.amount === null ? null : toMajor(f.amount - f.spent),
    };
  }

  /** Membership is checked by the caller of this function. */
  async function group(userId: number, groupId: number, month: string): Promise<GroupBudget> {
    const f = await repo.groupFigures(db, groupId, userId, month, monthRange(month));
    return {
      month,
      group_id: groupId,
      amount: majorOrNull(f.amount),
      spent: toMajor(f.spent),
      myAmount: majorOrNull(f.myAmount),
      mySpent: toMajor(f.mySpent),
    };
  }

  /** The pattern admits year 0000, which the database's dates do not have (40001). */
  const checkMonth = (month: string): string => {
    if (month < '0001-01') throw Errors.field('month', 'must be from the year 0001 on');
    return month;
  };

  /** null clears; anything else must be a valid amount (40001). */
  const amountOf = (value: unknown): number | null => (value === null ? null : parseAmount(value, 'amount'));

  async function write(owner: budgetsRepo.BudgetOwner, month: string, cents: number | null): Promise<void> {
    if (cents === null) await repo.clearBudget(db, owner, month);
    else await repo.setBudget(db, owner, month, cents);
  }

  return {
    async get(userId: number, q: BudgetQuery): Promise<PersonalBudget | GroupBudget> {
      if (q.group_id !== undefined) await requireGroupMember(db, q.group_id, userId);
      const month = q.month === undefined ? await thisMonth(userId) : checkMonth(q.month);
      return q.group_id !== undefined ? group(userId, q.group_id, month) : personal(userId, month);
    },

    /** The personal budget, or with group_id the group's budget (owner only; the group must be live). */
    async set(userId: number, body: BudgetBody): Promise<PersonalBudget | GroupBudget> {
      checkMonth(body.month);
      const cents = amountOf(body.amount);
      if (body.group_id === undefined || body.group_id === null) {
        await write({ userId, groupId: null }, body.month, cents);
        return personal(userId, body.month);
      }
      const g = await requireGroupOwner(db, body.group_id, userId);
      if (g.dissolvedAt) throw Errors.dissolved();
      await write({ userId: null, groupId: body.group_id }, body.month, cents);
      return group(userId, body.group_id, body.month);
    },

    /** A member's own amount in a group (any member of a live group). */
    async setMine(userId: number, body: MyBudgetBody): Promise<GroupBudget> {
      checkMonth(body.month);
      const cents = amountOf(body.amount);
      await requireWritableGroup(db, body.group_id, userId);
      await write({ userId, groupId: body.group_id }, body.month, cents);
      return group(userId, body.group_id, body.month);
    },
  };
}

export type BudgetService = ReturnType<typeof createBudgetService>;
