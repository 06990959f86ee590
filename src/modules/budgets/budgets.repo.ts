import { sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import type { StoredLine } from './budgets.lines.ts';

// budgets has three owners: personal (user, no group), a group's budget (group, no user) and a
// member's own amount in a group (both); category_budgets holds a person's lines per category.
export { readLine, writeLine } from './budgets.lines.ts';

/** The group's and the caller's expense in the group within `range`. */
export async function groupSpent(db: Executor, groupId: number, userId: number, range: { start: string; end: string }) {
  const [row] = await query<{ spent: string | number; my_spent: string | number }>(
    db,
    sql`select coalesce(sum(t.base_amount), 0) as spent,
               coalesce(sum(t.base_amount) filter (where t.user_id = ${userId}), 0) as my_spent
        from transactions t
        where t.group_id = ${groupId} and t.kind = 'expense' and t.date between ${range.start}::date and ${range.end}::date`,
  );
  return { spent: Number(row!.spent), mySpent: Number(row!.my_spent) };
}

// ---- personal budgets by category, carry-over ----

export interface WindowLine extends StoredLine {
  /** null: the month total */
  categoryId: number | null;
}

/** Every row of the caller's personal month totals and category lines up to `to` (a month, inclusive). */
export async function personalRows(db: Executor, userId: number, to: string): Promise<WindowLine[]> {
  const rows = await query<{
    month: string;
    category_id: number | null;
    amount: string | number | null;
    carry_over: boolean;
    repeat: boolean;
  }>(
    db,
    sql`select b.month, null::int as category_id, b.amount_cents as amount, b.carry_over, b.repeat from budgets b
          where b.user_id = ${userId} and b.group_id is null and b.month <= ${to}
        union all
        select c.month, c.category_id, c.amount_cents, c.carry_over, c.repeat from category_budgets c
          where c.user_id = ${userId} and c.month <= ${to}`,
  );
  return rows.map((r) => ({
    month: r.month,
    categoryId: r.category_id === null ? null : Number(r.category_id),
    amount: r.amount === null ? null : Number(r.amount),
    carryOver: Boolean(r.carry_over),
    repeat: Boolean(r.repeat),
  }));
}

/** The caller's categories among `ids`, in the categories' order. */
export async function categoriesIn(db: Executor, userId: number, ids: number[]) {
  if (!ids.length) return [];
  const rows = await query<{ id: number; name: string; color: string }>(
    db,
    sql`select k.id, k.name, k.color from categories k
        where k.user_id = ${userId} and k.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        order by k.sort, k.id`,
  );
  return rows.map((r) => ({ categoryId: Number(r.id), name: r.name, color: r.color }));
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

/**
 * Users with a personal month total in force in one of `months` (set for it, or repeating from
 * before it) who were not yet told it is overspent, live and active, with their time zone (each
 * one's own month decides), by user id after `afterId`. A candidate's budget may still turn out to
 * be cleared for that month: the caller reads it.
 */
export async function alertCandidates(db: Executor, months: string[], afterId: number, limit: number) {
  return query<{ user_id: number; month: string; timezone: string | null }>(
    db,
    sql`select distinct b.user_id, m.month, u.timezone
        from budgets b
        join (values ${sql.join(
          months.map((m) => sql`(${m})`),
          sql`, `,
        )}) as m(month) on b.month = m.month or (b.repeat and b.month < m.month)
        join users u on u.id = b.user_id
        where b.group_id is null and b.user_id > ${afterId} and b.amount_cents is not null
          and u.deleted_at is null and u.status = 'active'
          and not exists (select 1 from notifications x where x.scope = 'personal' and x.user_id = b.user_id and x.key = 'budget.exceeded'
                          and x.params @> jsonb_build_object('month', m.month))
        order by b.user_id, m.month
        limit ${limit}`,
  );
}
