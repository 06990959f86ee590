import type { ServiceDeps, UseCaseArgs } from '../service.ts';
import type { CategoryDeps } from './categories.deps.ts';
import { createCategory, listCategories, sortCategories, updateCategory } from './categories.edit.ts';
import { migrateCategory, removeCategory } from './categories.remove.ts';
import * as categoriesRepo from './categories.repo.ts';
import { suggestCategory, suggestFor } from './categories.suggest.ts';

export { toCategory } from './categories.deps.ts';

export type CategoryServiceDeps = ServiceDeps<typeof categoriesRepo, 'appTimezone'>;

/**
 * The categories, one named use case each: keeping the list (categories.edit.ts), moving what uses
 * one to another and deleting it (categories.remove.ts), and suggesting one for an entry
 * (categories.suggest.ts).
 */
export function createCategoryService({ db, clock, config, repo = categoriesRepo }: CategoryServiceDeps) {
  const deps: CategoryDeps = { db, clock, config, repo };
  return {
    list: (...a: UseCaseArgs<typeof listCategories>) => listCategories(deps, ...a),
    create: (...a: UseCaseArgs<typeof createCategory>) => createCategory(deps, ...a),
    update: (...a: UseCaseArgs<typeof updateCategory>) => updateCategory(deps, ...a),
    sort: (...a: UseCaseArgs<typeof sortCategories>) => sortCategories(deps, ...a),
    migrate: (...a: UseCaseArgs<typeof migrateCategory>) => migrateCategory(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removeCategory>) => removeCategory(deps, ...a),
    suggest: (...a: UseCaseArgs<typeof suggestCategory>) => suggestCategory(deps, ...a),
    suggestFor: (...a: UseCaseArgs<typeof suggestFor>) => suggestFor(deps, ...a),
  };
}

export type CategoryService = ReturnType<typeof createCategoryService>;
