import { and, asc, count, eq, max, ne, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { categories, recurringRules, transactions, users } from '../../db/schema/index.ts';

export type CategoryRow = typeof categories.$inferSelect;
export type CategoryKind = CategoryRow['kind'];

export async function listCategories(db: Executor, userId: number, kind?: CategoryKind): Promise<CategoryRow[]> {
  return db
    .select()
    .from(categories)
    .where(kind ? and(eq(categories.userId, userId), eq(categories.kind, kind)) : eq(categories.userId, userId))
    .orderBy(asc(categories.sort), asc(categories.id));
}

export async function findCategory(db: Executor, userId: number, id: number): Promise<CategoryRow | undefined> {
  const [row] = await db
    .select()
    .from(categories)
    .where(and(eq(categories.userId, userId), eq(categories.id, id)));
  return row;
}

/** Same as findCategory, and locks the row until the end of the transaction (no new references meanwhile). */
export async function lockCategory(db: Executor, userId: number, id: number): Promise<CategoryRow | undefined> {
  const [row] = await db
    .select()
    .from(categories)
    .where(and(eq(categories.userId, userId), eq(categories.id, id)))
    .for('update');
  return row;
}

export async function nameTaken(
  db: Executor,
  userId: number,
  kind: CategoryKind,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const conds = [eq(categories.userId, userId), eq(categories.kind, kind), eq(categories.name, name)];
  if (exceptId !== undefined) conds.push(ne(categories.id, exceptId));
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(and(...conds))
    .limit(1);
  return row !== undefined;
}

/** Serializes the category writes of one user (count limit, complete reorder lists). */
export async function lockOwner(db: Executor, userId: number): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function countCategories(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(categories).where(eq(categories.userId, userId));
  return Number(row?.n ?? 0);
}

export async function nextSort(db: Executor, userId: number, kind: CategoryKind): Promise<number> {
  const [row] = await db
    .select({ m: max(categories.sort) })
    .from(categories)
    .where(and(eq(categories.userId, userId), eq(categories.kind, kind)));
  return row?.m === null || row?.m === undefined ? 0 : Number(row.m) + 1;
}

export async function insertCategory(db: Executor, values: typeof categories.$inferInsert): Promise<CategoryRow> {
  const [row] = await db.insert(categories).values(values).returning();
  return row!;
}

export async function updateCategory(
  db: Executor,
  userId: number,
  id: number,
  patch: Partial<Pick<CategoryRow, 'name' | 'color' | 'icon'>>,
): Promise<CategoryRow | undefined> {
  const [row] = await db
    .update(categories)
    .set(patch)
    .where(and(eq(categories.userId, userId), eq(categories.id, id)))
    .returning();
  return row;
}

export async function idsOfKind(db: Executor, userId: number, kind: CategoryKind): Promise<number[]> {
  const rows = await db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.userId, userId), eq(categories.kind, kind)));
  return rows.map((r) => r.id);
}

/** Sets `sort` to each id's position in `ids` (0-based), in one statement. */
export async function applySort(db: Executor, userId: number, ids: number[]): Promise<void> {
  await db.execute(sql`
    update categories c set sort = v.ord - 1
    from (select value::int as id, ord::int as ord from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as a(value, ord)) v
    where c.id = v.id and c.user_id = ${userId}`);
}

export async function moveRecurringRules(db: Executor, userId: number, fromId: number, toId: number): Promise<void> {
  await db
    .update(recurringRules)
    .set({ categoryId: toId, updatedAt: new Date() })
    .where(and(eq(recurringRules.userId, userId), eq(recurringRules.categoryId, fromId)));
}

/**
 * Rewrites `category_ids` in the user's saved filter criteria: `fromId` becomes `toId` (the list is
 * then deduplicated, first occurrence kept), or is removed when `toId` is null.
 */
export async function repointSavedFilters(
  db: Executor,
  userId: number,
  fromId: number,
  toId: number | null,
): Promise<void> {
  const to = toId === null ? null : JSON.stringify(toId);
  await db.execute(sql`
    update saved_filters set
      criteria = jsonb_set(criteria, '{category_ids}', (
        select coalesce(jsonb_agg(d.v order by d.o), '[]'::jsonb)
        from (
          select m.v, min(m.o) as o
          from (
            select case when a.e = to_jsonb(${fromId}::int) or a.e = to_jsonb(${String(fromId)}::text) then ${to}::jsonb else a.e end as v, a.o
            from jsonb_array_elements(criteria->'category_ids') with ordinality as a(e, o)
          ) m
          where m.v is not null
          group by m.v
        ) d
      )),
      updated_at = now()
    where user_id = ${userId}
      and jsonb_typeof(criteria->'category_ids') = 'array'
      and (criteria->'category_ids' @> jsonb_build_array(${fromId}::int) or criteria->'category_ids' @> jsonb_build_array(${String(fromId)}::text))`);
}

export async function countTransactions(db: Executor, userId: number, categoryId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(transactions)
    .where(and(eq(transactions.userId, userId), eq(transactions.categoryId, categoryId)));
  return Number(row?.n ?? 0);
}

export async function countRecurringRules(db: Executor, userId: number, categoryId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recurringRules)
    .where(and(eq(recurringRules.userId, userId), eq(recurringRules.categoryId, categoryId)));
  return Number(row?.n ?? 0);
}

export async function deleteCategory(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(categories)
    .where(and(eq(categories.userId, userId), eq(categories.id, id)))
    .returning({ id: categories.id });
  return rows.length > 0;
}

export interface HistoryRow {
  category_id: number;
  amount_cents: number;
  note: string;
  age_days: number;
}

/**
 * The user's most recent transactions of one kind (at most `limit`), with the age in days relative to
 * `today`, for the suggestion. Only categories that still belong to the user qualify. Rows whose
 * category was the suggester's own guess, left as it was, do not count (a wrong guess must not
 * teach), nor do refunds.
 */
export async function recentHistory(
  db: Executor,
  userId: number,
  kind: CategoryKind,
  today: string,
  limit: number,
): Promise<HistoryRow[]> {
  const rows = await query<{ category_id: number; amount_cents: string | number; note: string; age_days: number }>(
    db,
    sql`select t.category_id, t.amount_cents, t.note, greatest(0, ${today}::date - t.date)::int as age_days
        from transactions t
        where t.user_id = ${userId} and t.kind = ${kind} and t.amount_cents > 0 and not t.category_auto
        order by t.date desc, t.id desc
        limit ${limit}`,
  );
  return rows.map((r) => ({
    category_id: Number(r.category_id),
    amount_cents: Number(r.amount_cents),
    note: r.note,
    age_days: Number(r.age_days),
  }));
}
