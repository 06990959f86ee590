import { and, eq, isNull, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { budgets, categoryBudgets } from '../../db/schema/index.ts';

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

// ---- personal budgets by category, carry-over ----

export interface WindowLine {
  month: string;
  /** null: the month total */
  category_id: number | null;
  amount: number;
  carry_over: boolean;
}

/** The caller's personal month totals and category lines from `from` to `to` (months, inclusive). */
export async function personalWindow(db: Executor, userId: number, from: string, to: string): Promise<WindowLine[]> {
  const rows = await query<{ month: string; category_id: number | null; amount: string | number; carry_over: boolean }>(
    db,
    sql`select b.month, null::int as category_id, b.amount_cents as amount, b.carry_over from budgets b
          where b.user_id = ${userId} and b.group_id is null and b.month between ${from} and ${to}
        union all
        select c.month, c.category_id, c.amount_cents, c.carry_over from category_budgets c
          where c.user_id = ${userId} and c.month between ${from} and ${to}`,
  );
  return rows.map((r) => ({ month: r.month, category_id: r.category_id === null ? null : Number(r.category_id), amount: Number(r.amount), carry_over: Boolean(r.carry_over) }));
}

/** The caller's category lines of one month with their categories, in the categories' order. */
export async function categoryLines(db: Executor, userId: number, month: string) {
  const rows = await query<{ category_id: number; name: string; color: string; amount: string | number; carry_over: boolean }>(
    db,
    sql`select c.category_id, k.name, k.color, c.amount_cents as amount, c.carry_over
        from category_budgets c join categories k on k.id = c.category_id
        where c.user_id = ${userId} and c.month = ${month}
        order by k.sort, k.id`,
  );
  return rows.map((r) => ({ categoryId: Number(r.category_id), name: r.name, color: r.color, amount: Number(r.amount), carryOver: Boolean(r.carry_over) }));
}

/**
 * The caller's expense per month, in total and per category, from the first day of `from` to the
 * last of `to`: base-currency sums of expense rows only (never transfers, adjustments or
 * settlements, which are not rows). A record of a group that splits costs counts the caller's share
 * of it, whoever recorded or paid it (shares are in the group currency, taken as the caller's base
 * currency, as the statistics' "my share" does); the caller's records of a group that does not split
 * costs, or that nobody shares, count whole, as the one who recorded them bears them.
 */
export async function expenseByMonth(db: Executor, userId: number, range: { start: string; end: string }) {
  const rows = await query<{ month: string; category_id: number | null; spent: string | number }>(
    db,
    sql`select to_char(t.date, 'YYYY-MM') as month, t.category_id, sum(t.amount) as spent
        from (select x.date, x.category_id, x.base_amount as amount from transactions x
                where x.user_id = ${userId} and x.kind = 'expense' and x.date between ${range.start}::date and ${range.end}::date
                  and (x.group_id is null
                       or not exists (select 1 from groups g where g.id = x.group_id and g.split_costs)
                       or not exists (select 1 from transaction_shares s where s.transaction_id = x.id))
              union all
              select x.date, x.category_id, s.amount_cents from transaction_shares s
                join transactions x on x.id = s.transaction_id
                join groups g on g.id = s.group_id and g.split_costs
                where s.user_id = ${userId} and x.kind = 'expense' and x.date between ${range.start}::date and ${range.end}::date) t
        group by grouping sets ((to_char(t.date, 'YYYY-MM')), (to_char(t.date, 'YYYY-MM'), t.category_id))`,
  );
  const total = new Map<string, number>();
  const byCategory = new Map<string, number>();
  for (const r of rows) {
    if (r.category_id === null) total.set(r.month, Number(r.spent));
    else byCategory.set(`${Number(r.category_id)} ${r.month}`, Number(r.spent));
  }
  return { total, byCategory };
}

export async function setCarryOver(db: Executor, userId: number, month: string, carryOver: boolean): Promise<boolean> {
  const rows = await db
    .update(budgets)
    .set({ carryOver, updatedAt: new Date() })
    .where(ownerWhere({ userId, groupId: null }, month))
    .returning({ id: budgets.id });
  return rows.length > 0;
}

/** Replaces the month's category lines of the caller with `lines`. */
export async function replaceCategoryLines(db: Executor, userId: number, month: string, lines: { categoryId: number; amount: number; carryOver: boolean }[]): Promise<void> {
  await db.delete(categoryBudgets).where(and(eq(categoryBudgets.userId, userId), eq(categoryBudgets.month, month)));
  if (!lines.length) return;
  await db.insert(categoryBudgets).values(lines.map((l) => ({ userId, month, categoryId: l.categoryId, amountCents: l.amount, carryOver: l.carryOver })));
}

/**
 * Users with a personal month total for one of `months` who were not yet told it is overspent, live
 * and active, with their time zone (each one's own month decides), by user id after `afterId`.
 */
export async function alertCandidates(db: Executor, months: string[], afterId: number, limit: number) {
  return query<{ user_id: number; month: string; timezone: string | null }>(
    db,
    sql`select b.user_id, b.month, u.timezone from budgets b join users u on u.id = b.user_id
        where b.group_id is null and b.user_id > ${afterId} and b.month in (${sql.join(months.map((m) => sql`${m}`), sql`, `)})
          and u.deleted_at is null and u.status = 'active'
          and not exists (select 1 from notifications x where x.scope = 'personal' and x.user_id = b.user_id and x.key = 'budget.exceeded'
                          and x.params @> jsonb_build_object('month', b.month))
        order by b.user_id, b.month
        limit ${limit}`,
  );
}
