import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import type * as categoriesRepo from './categories.repo.ts';
import type { CategoryRow } from './categories.repo.ts';
import type { CategoryView } from './categories.schemas.ts';

/** What the category use cases are built from. */
export interface CategoryDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appTimezone'>;
  repo: typeof categoriesRepo;
}

export function toCategory(row: CategoryRow): CategoryView {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    kind: row.kind,
    icon: row.icon,
    sort: row.sort,
    created_at: row.createdAt.toISOString(),
  };
}

export const duplicateName = () => Errors.conflict('a category of that kind with that name already exists');
