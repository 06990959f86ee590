import type { Db, Executor } from '../../db/client.ts';
import { requireCategories, requireGroupReference, requireTags } from '../books/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { isValidDate } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { parseAmountBound } from '../../lib/money.ts';
import { cleanText } from '../../lib/text.ts';
import * as filtersRepo from './filters.repo.ts';
import {
  CRITERIA_KEYS,
  type Criteria,
  type SavedFilterCreateBody,
  type SavedFilterList,
  type SavedFilterUpdateBody,
  type SavedFilterView,
} from './filters.schemas.ts';

export const MAX_SAVED_FILTERS = 50;

export function toSavedFilter(row: filtersRepo.SavedFilterRow): SavedFilterView {
  return { id: row.id, name: row.name, criteria: row.criteria as Criteria, created_at: row.createdAt.toISOString() };
}

const allowed = new Set<string>(CRITERIA_KEYS);

/**
 * Checks a saved filter's criteria the way the list checks its query, plus ownership: every category and
 * tag id must be the caller's and the group one they belong to (else 40001, as for any reference).
 * The criteria are then stored exactly as given.
 */
async function checkCriteria(db: Executor, userId: number, criteria: Criteria): Promise<void> {
  for (const key of Object.keys(criteria)) {
    if (!allowed.has(key))
      throw Errors.field(`criteria.${key}`, `is not a filter key (allowed: ${CRITERIA_KEYS.join(', ')})`);
  }
  const { startDate, endDate } = criteria;
  if (startDate !== undefined && !isValidDate(startDate))
    throw Errors.field('criteria.startDate', 'must be a valid calendar date (YYYY-MM-DD)');
  if (endDate !== undefined && !isValidDate(endDate))
    throw Errors.field('criteria.endDate', 'must be a valid calendar date (YYYY-MM-DD)');
  if (startDate !== undefined && endDate !== undefined && startDate > endDate)
    throw Errors.field('criteria.startDate', 'must not be after endDate');
  const min =
    criteria.min_amount === undefined ? undefined : parseAmountBound(criteria.min_amount, 'criteria.min_amount');
  const max =
    criteria.max_amount === undefined ? undefined : parseAmountBound(criteria.max_amount, 'criteria.max_amount');
  if (min !== undefined && max !== undefined && min > max)
    throw Errors.field('criteria.min_amount', 'must not be greater than max_amount');
  if (criteria.user_id !== undefined && criteria.group_id === undefined)
    throw Errors.field('criteria.user_id', 'is only allowed with group_id');
  await requireCategories(db, userId, criteria.category_ids ?? [], 'criteria.category_ids');
  await requireTags(db, userId, criteria.tag_ids ?? [], { field: 'criteria.tag_ids' });
  if (criteria.group_id !== undefined) await requireGroupReference(db, criteria.group_id, userId, 'criteria.group_id');
}

export interface FilterServiceDeps {
  db: Db;
  clock: Clock;
  repo?: typeof filtersRepo;
}

export function createFilterService({ db, repo = filtersRepo }: FilterServiceDeps) {
  return {
    async list(userId: number): Promise<SavedFilterList> {
      return { list: (await repo.listFilters(db, userId)).map(toSavedFilter) };
    },

    async create(userId: number, body: SavedFilterCreateBody): Promise<SavedFilterView> {
      const name = cleanText(body.name, 'name', 1, 30);
      await checkCriteria(db, userId, body.criteria);
      return db.transaction(async (tx) => {
        // two concurrent creations must not both pass the count
        await repo.lockUserRow(tx, userId);
        if ((await repo.countFilters(tx, userId)) >= MAX_SAVED_FILTERS)
          throw Errors.rule(`at most ${MAX_SAVED_FILTERS} saved filters per user`);
        return toSavedFilter(await repo.insertFilter(tx, { userId, name, criteria: body.criteria }));
      });
    },

    async update(userId: number, id: number, body: SavedFilterUpdateBody): Promise<SavedFilterView> {
      const patch: { name?: string; criteria?: Record<string, unknown> } = {};
      if (body.name !== undefined) patch.name = cleanText(body.name, 'name', 1, 30);
      const current = await repo.findFilter(db, userId, id);
      if (!current) throw Errors.notFound('saved filter');
      if (body.criteria !== undefined) {
        await checkCriteria(db, userId, body.criteria);
        patch.criteria = body.criteria;
      }
      if (!Object.keys(patch).length) return toSavedFilter(current);
      const row = await repo.updateFilter(db, userId, id, patch);
      if (!row) throw Errors.notFound('saved filter');
      return toSavedFilter(row);
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.deleteFilter(db, userId, id))) throw Errors.notFound('saved filter');
    },
  };
}
