// Moving a category's transactions, rules and filters to another one, and deleting a category.
import type { Tx } from '../../db/client.ts';
import { notYours } from '../../lib/access.ts';
import { Errors } from '../../lib/errors.ts';
import { write } from '../books/index.ts';
import type { CategoryDeps } from './categories.deps.ts';
import type { CategoryRow } from './categories.repo.ts';

/**
 * Moves every transaction, recurring rule and saved-filter reference of `source` to `targetId`,
 * inside the caller's transaction. Checks: target is the caller's (else 40001) and of the same kind (42201).
 */
async function moveAll(
  { repo }: CategoryDeps,
  tx: Tx,
  userId: number,
  source: CategoryRow,
  targetId: number,
  field: string,
) {
  if (targetId === source.id) throw Errors.field(field, 'must be another category');
  const target = await repo.lockCategory(tx, userId, targetId);
  if (!target) throw notYours.category(field);
  if (target.kind !== source.kind) throw Errors.rule('the target category is of another kind');
  const moved = await write(tx, userId, { type: 'moveCategory', fromId: source.id, toId: target.id });
  await repo.moveRecurringRules(tx, userId, source.id, target.id);
  await repo.repointSavedFilters(tx, userId, source.id, target.id);
  return moved;
}

/** Moves everything of category `id` to `targetId`, keeping both categories. */
export async function migrateCategory(
  deps: CategoryDeps,
  userId: number,
  id: number,
  targetId: number,
): Promise<{ moved: number }> {
  return deps.db.transaction(async (tx) => {
    const source = await deps.repo.lockCategory(tx, userId, id);
    if (!source) throw Errors.notFound('category');
    return { moved: await moveAll(deps, tx, userId, source, targetId, 'target_id') };
  });
}

/** Deletes a category, moving what uses it to `migrateTo` first; unused only without it (42201). */
export async function removeCategory(
  deps: CategoryDeps,
  userId: number,
  id: number,
  migrateTo?: number,
): Promise<void> {
  const { db, repo } = deps;
  await db.transaction(async (tx) => {
    const source = await repo.lockCategory(tx, userId, id);
    if (!source) throw Errors.notFound('category');
    if (migrateTo !== undefined) {
      await moveAll(deps, tx, userId, source, migrateTo, 'migrate_to');
    } else {
      if ((await repo.countTransactions(tx, userId, id)) > 0) {
        throw Errors.rule('the category still has transactions: pass migrate_to to move them first');
      }
      if ((await repo.countRecurringRules(tx, userId, id)) > 0) {
        throw Errors.rule('the category is used by recurring rules: pass migrate_to to move them first');
      }
      await repo.repointSavedFilters(tx, userId, id, null);
    }
    await repo.deleteCategory(tx, userId, id);
  });
}
