import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { recurringRules, savedFilters, tags } from '../../db/schema/index.ts';

export type TagRow = typeof tags.$inferSelect;

export async function listTags(db: Executor, userId: number): Promise<TagRow[]> {
  return db.select().from(tags).where(eq(tags.userId, userId)).orderBy(asc(tags.name), asc(tags.id));
}

export async function findTag(db: Executor, userId: number, id: number): Promise<TagRow | undefined> {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.id, id), eq(tags.userId, userId)));
  return row;
}

/** Whether the user has another tag of that name (`exceptId` being the one under edit). */
export async function nameTaken(db: Executor, userId: number, name: string, exceptId?: number): Promise<boolean> {
  const conds = [eq(tags.userId, userId), eq(tags.name, name)];
  if (exceptId !== undefined) conds.push(ne(tags.id, exceptId));
  const rows = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(...conds))
    .limit(1);
  return rows.length > 0;
}

/** Inserts unless the user already has a tag of that name (then undefined). */
export async function insertTag(
  db: Executor,
  values: { userId: number; name: string; color: string | null },
): Promise<TagRow | undefined> {
  const [row] = await db.insert(tags).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateTag(
  db: Executor,
  userId: number,
  id: number,
  patch: { name?: string; color?: string | null },
): Promise<TagRow | undefined> {
  const [row] = await db
    .update(tags)
    .set(patch)
    .where(and(eq(tags.id, id), eq(tags.userId, userId)))
    .returning();
  return row;
}

/** Deletes the tag; its links to transactions go with it (foreign key cascade). */
export async function deleteTag(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(tags)
    .where(and(eq(tags.id, id), eq(tags.userId, userId)))
    .returning({ id: tags.id });
  return rows.length > 0;
}

/**
 * Removes a deleted tag's id from the user's recurring rules and saved filter criteria, so that a
 * rule never tries to attach a tag that is gone and a saved filter stays valid.
 */
export async function forgetTag(db: Executor, userId: number, id: number): Promise<void> {
  const without = (list: ReturnType<typeof sql>) =>
    sql`(select coalesce(jsonb_agg(a.e order by a.o), '[]'::jsonb) from jsonb_array_elements(${list}) with ordinality as a(e, o) where a.e <> to_jsonb(${id}::int))`;
  await db
    .update(recurringRules)
    .set({ tagIds: sql`${without(sql`${recurringRules.tagIds}`)}` })
    .where(and(eq(recurringRules.userId, userId), sql`${recurringRules.tagIds} @> jsonb_build_array(${id}::int)`));
  await db
    .update(savedFilters)
    .set({
      criteria: sql`jsonb_set(${savedFilters.criteria}, '{tag_ids}', ${without(sql`${savedFilters.criteria}->'tag_ids'`)})`,
    })
    .where(
      and(
        eq(savedFilters.userId, userId),
        sql`jsonb_typeof(${savedFilters.criteria}->'tag_ids') = 'array'`,
        sql`${savedFilters.criteria}->'tag_ids' @> jsonb_build_array(${id}::int)`,
      ),
    );
}
