import { ownTagIds } from '../books/index.ts';
import { Errors } from '../../lib/errors.ts';
import type { ServiceDeps, UseCaseArgs } from '../service.ts';
import { createRule } from './recurring.create.ts';
import type { RuleDeps } from './recurring.deps.ts';
import * as recurringRepo from './recurring.repo.ts';
import { toRule } from './recurring.rules.ts';
import type { RecurringRule } from './recurring.schemas.ts';
import { updateRule } from './recurring.update.ts';

export { generateDue, type GenerationResult } from './recurring.generate.ts';
export { EARLIEST_RULE_DATE, LATEST_RULE_DATE, MAX_TAGS, scheduleOf, toRule } from './recurring.rules.ts';

export type RecurringDeps = ServiceDeps<typeof recurringRepo, 'appTimezone'>;

/** The caller's rules; a tag deleted since a rule was saved is no longer attached and is left out here too. */
export async function listRules({ db, repo }: RuleDeps, userId: number): Promise<{ list: RecurringRule[] }> {
  const rules = await repo.listRules(db, userId);
  const live = await ownTagIds(
    db,
    userId,
    rules.flatMap((r) => r.tagIds),
  );
  return { list: rules.map((r) => toRule({ ...r, tagIds: r.tagIds.filter((id) => live.has(id)) })) };
}

/** Deletes one of the caller's rules; what it booked stays in the books. */
export async function removeRule({ db, repo }: RuleDeps, userId: number, id: number): Promise<void> {
  if (!(await repo.deleteRule(db, userId, id))) throw Errors.notFound('recurring rule');
}

/**
 * The recurring rules, one named use case each: listing and deleting (here), making one
 * (recurring.create.ts) and changing one (recurring.update.ts); their occurrences are booked by
 * recurring.generate.ts, at once for a rule made or changed and on each run of the scheduler.
 */
export function createRecurringService({ db, clock, config, repo = recurringRepo }: RecurringDeps) {
  const deps: RuleDeps = { db, clock, config, repo };
  return {
    list: (...a: UseCaseArgs<typeof listRules>) => listRules(deps, ...a),
    create: (...a: UseCaseArgs<typeof createRule>) => createRule(deps, ...a),
    update: (...a: UseCaseArgs<typeof updateRule>) => updateRule(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removeRule>) => removeRule(deps, ...a),
  };
}
