import { and, eq, isNull, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { budgets } from '../../db/schema/index.ts';

/**
 * One table, three owners: personal (user, no group), a group's budget (group, no user) and a
 * member's own amount in a group (both). (user_id, group_id, month) is unique with NULLS NOT DISTINCT.
 */
export interface BudgetOwner {
  userId: number | null;
  groupId: number | null;
}

function ownerWhere(owner: BudgetOwner, month: string) {
  return and(
    owner.userId === null ? isNull(budgets.userId) : eq(budgets.userId, owner.userId),
    owner.groupId === null ? isNull(budgets.groupId) : eq(budgets.groupId, owner.groupId),
    eq(budgets.month, month),
  );
}

export async function setBudget(db: Executor, owner: BudgetOwner, month: string, amountCents: number): Promise<void> {
  const at = new Date();
  await db
    .insert(budgets)
    .values({ userId: owner.userId, groupId: owner.groupId, month, amountCents, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: [budgets.userId, budgets.groupId, budgets.month], set: { amountCents, updatedAt: at } });
}

export async function clearBudget(db: Executor, owner: BudgetOwner, month: string): Promise<void> {
  await db.delete(budgets).where(ownerWhere(owner, month));
}

/** The personal budget and the caller's expense that month (all of it, group ones included), in one statement. */
export async function personalFigures(db: Executor, userId: number, month: string, range: { start: string; end: string }) {
  const [row] = await query<{ amount: string | number | null; spent: string | number }>(
    db,
    sql`select
          (select b.amount_cents from budgets b where b.user_id = ${userId} and b.group_id is null and b.month = ${month}) as amount,
          (select coalesce(sum(t.base_amount), 0) from transactions t
            where t.user_id = ${userId} and t.kind = 'expense' and t.date between ${range.start}::date and ${range.end}::date) as spent`,
  );
  return { amount: row!.amount === null ? null : Number(row!.amount), spent: Number(row!.spent) };
}

/** A group's budget, the caller's own amount in it, and the group's and the caller's expense in it that month. */
export async function groupFigures(db: Executor, groupId: number, userId: number, month: string, range: { start: string; end: string }) {
  const [row] = await query<{ amount: string | number | null; my_amount: string | number | null; spent: string | number; my_spent: string | number }>(
    db,
    sql`select
          (select b.amount_cents from budgets b where b.group_id = ${groupId} and b.user_id is null and b.month = ${month}) as amount,
          (select b.amount_cents from budgets b where b.group_id = ${groupId} and b.user_id = ${userId} and b.month = ${month}) as my_amount,
          s.spent, s.my_spent
        from (select coalesce(sum(t.base_amount), 0) as spent,
                     coalesce(sum(t.base_amount) filter (where t.user_id = ${userId}), 0) as my_spent
              from transactions t
              where t.group_id = ${groupId} and t.kind = 'expense' and t.date between ${range.start}::date and ${range.end}::date) s`,
  );
  const n = (v: string | number | null) => (v === null ? null : Number(v));
  return { amount: n(row!.amount), myAmount: n(row!.my_amount), spent: Number(row!.spent), mySpent: Number(row!.my_spent) };
}
