// Keeping the category list: reading it, adding, renaming and recolouring a category, and their order.
import { isUniqueViolation } from '../../db/errors.ts';
import { notYours } from '../../lib/access.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';
import { duplicateName, toCategory, type CategoryDeps } from './categories.deps.ts';
import type { CategoryKind } from './categories.repo.ts';
import {
  MAX_CATEGORIES_PER_USER,
  type CategoryCreateBody,
  type CategoryUpdateBody,
  type CategoryView,
} from './categories.schemas.ts';

/** The caller's categories (of one kind when given), in their order. */
export async function listCategories(
  { db, repo }: CategoryDeps,
  userId: number,
  kind?: CategoryKind,
): Promise<{ list: CategoryView[] }> {
  const rows = await repo.listCategories(db, userId, kind);
  return { list: rows.map(toCategory) };
}

/** Adds a category at the end of its kind; a name taken in that kind is 40901, past the limit 42201. */
export async function createCategory(
  { db, repo }: CategoryDeps,
  userId: number,
  body: CategoryCreateBody,
): Promise<CategoryView> {
  const name = cleanText(body.name, 'name', 1, 20);
  const icon = body.icon === undefined ? '' : cleanText(body.icon, 'icon', 0, 50);
  try {
    return await db.transaction(async (tx) => {
      await repo.lockOwner(tx, userId);
      if (await repo.nameTaken(tx, userId, body.kind, name)) throw duplicateName();
      if ((await repo.countCategories(tx, userId)) >= MAX_CATEGORIES_PER_USER) {
        throw Errors.rule(`at most ${MAX_CATEGORIES_PER_USER} categories per user`);
      }
      const sort = await repo.nextSort(tx, userId, body.kind);
      const row = await repo.insertCategory(tx, {
        userId,
        name,
        color: body.color.toUpperCase(),
        kind: body.kind,
        icon,
        sort,
      });
      return toCategory(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateName();
    throw err;
  }
}

/** Changes the name, color or icon of one of the caller's categories. */
export async function updateCategory(
  { db, repo }: CategoryDeps,
  userId: number,
  id: number,
  body: CategoryUpdateBody,
): Promise<CategoryView> {
  const patch: { name?: string; color?: string; icon?: string } = {};
  if (body.name !== undefined) patch.name = cleanText(body.name, 'name', 1, 20);
  if (body.color !== undefined) patch.color = body.color.toUpperCase();
  if (body.icon !== undefined) patch.icon = cleanText(body.icon, 'icon', 0, 50);
  const current = await repo.findCategory(db, userId, id);
  if (!current) throw Errors.notFound('category');
  if (!Object.keys(patch).length) return toCategory(current);
  if (
    patch.name !== undefined &&
    patch.name !== current.name &&
    (await repo.nameTaken(db, userId, current.kind, patch.name, id))
  ) {
    throw duplicateName();
  }
  try {
    const row = await repo.updateCategory(db, userId, id, patch);
    if (!row) throw Errors.notFound('category');
    return toCategory(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateName();
    throw err;
  }
}

/** Puts the categories of one kind in the order given; the list must name each of them once. */
export async function sortCategories({ db, repo }: CategoryDeps, userId: number, ids: number[]): Promise<void> {
  if (new Set(ids).size !== ids.length) throw Errors.field('ids', 'must not repeat an id');
  await db.transaction(async (tx) => {
    await repo.lockOwner(tx, userId);
    const first = await repo.findCategory(tx, userId, ids[0]!);
    if (!first) throw notYours.category('ids');
    const all = await repo.idsOfKind(tx, userId, first.kind);
    const owned = new Set(all);
    if (!ids.every((id) => owned.has(id)))
      throw Errors.field('ids', `must list only ${first.kind} categories of yours`);
    if (ids.length !== all.length)
      throw Errors.field('ids', `must list all ${all.length} of your ${first.kind} categories`);
    await repo.applySort(tx, userId, ids);
  });
}
