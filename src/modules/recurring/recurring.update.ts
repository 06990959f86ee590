// Changing a recurring rule: any of its fields, pausing and resuming, with its next date worked out again.
import type { Executor } from '../../db/client.ts';
import { addDays } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { parseAmount } from '../../lib/money.ts';
import { firstOnOrAfter } from '../../lib/recurrence.ts';
import { cleanOptionalText } from '../../lib/text.ts';
import { defaultAccount, requireTags, requireWritableGroup } from '../books/index.ts';
import { todayOf, type RuleDeps } from './recurring.deps.ts';
import { bookDueNow } from './recurring.generate.ts';
import type * as recurringRepo from './recurring.repo.ts';
import { checkDate, checkShape, MAX_TAGS, scheduleOf, toRule } from './recurring.rules.ts';
import type { RecurringRule, RecurringUpdateBody } from './recurring.schemas.ts';

type RuleRow = recurringRepo.RuleRow;
type RulePatch = Partial<recurringRepo.RuleInsert>;

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * Any subset of the fields. Pausing keeps next_date. Resuming, or changing the schedule,
 * recomputes next_date as the first occurrence of the (new) schedule on or after a watermark:
 * the old next_date (every date before it was already generated or skipped), or the start
 * date when nothing has happened yet; a resume also moves the watermark to today, so the
 * paused dates are skipped, not filled in.
 */
export async function updateRule(
  deps: RuleDeps,
  userId: number,
  id: number,
  body: RecurringUpdateBody,
): Promise<RecurringRule> {
  const { db, clock, repo } = deps;
  const now = clock.now();
  const updated = await db.transaction(async (tx) => {
    const old = await repo.findRule(tx, userId, id, true);
    if (!old) throw Errors.notFound('recurring rule');
    const patch = await patchOf(tx, userId, old, body);
    const merged = { ...old, ...patch };
    if (merged.endDate !== null && merged.endDate < merged.startDate)
      throw Errors.field('end_date', 'must not be before start_date');
    // a rule from before rules had an account books into the default account
    if (merged.accountId === null && merged.kind === 'transfer')
      merged.accountId = patch.accountId = (await defaultAccount(tx, userId)).id;
    await checkShape(tx, userId, merged, {
      category: body.kind !== undefined || body.category_id !== undefined,
      account: body.account_id !== undefined || (merged.kind === 'transfer' && old.kind !== 'transfer'),
      toAccount: body.to_account_id !== undefined || merged.kind !== old.kind,
    });
    if (body.tag_ids !== undefined) patch.tagIds = await requireTags(tx, userId, body.tag_ids, { max: MAX_TAGS });
    const nextDate = await nextDateAfterChange(deps, tx, userId, old, merged, now);
    if (nextDate !== undefined) patch.nextDate = nextDate;
    const row = Object.keys(patch).length ? await repo.updateRule(tx, userId, id, patch) : old;
    return row!;
  });
  return toRule(await bookDueNow(deps, updated, await todayOf(deps, db, userId, now)));
}

/** The fields the body sets, each checked; a new group must take writes from the caller. */
async function patchOf(tx: Executor, userId: number, old: RuleRow, body: RecurringUpdateBody): Promise<RulePatch> {
  const patch: RulePatch = {};
  if (body.amount !== undefined) patch.amountMinor = parseAmount(body.amount);
  if (body.note !== undefined) patch.note = cleanOptionalText(body.note, 'note', 200);
  if (body.start_date !== undefined) patch.startDate = checkDate('start_date', body.start_date);
  if (body.end_date !== undefined) patch.endDate = body.end_date === null ? null : checkDate('end_date', body.end_date);
  if (body.frequency !== undefined) patch.frequency = body.frequency;
  if (body.interval !== undefined) patch.interval = body.interval;
  if (body.kind !== undefined) {
    patch.kind = body.kind;
    // becoming a transfer drops the category, and ceasing to be one the receiving account, unless the body
    // sets them
    if (body.kind === 'transfer' && old.kind !== 'transfer' && body.category_id === undefined) patch.categoryId = null;
    if (body.kind !== 'transfer' && old.kind === 'transfer' && body.to_account_id === undefined)
      patch.toAccountId = null;
  }
  if (body.category_id !== undefined) patch.categoryId = body.category_id;
  if (body.account_id !== undefined) patch.accountId = body.account_id;
  if (body.to_account_id !== undefined) patch.toAccountId = body.to_account_id;
  if (body.active !== undefined) patch.active = body.active;
  if (body.group_id !== undefined) {
    if (body.group_id !== null && body.group_id !== old.groupId) await requireWritableGroup(tx, body.group_id, userId);
    patch.groupId = body.group_id;
  }
  return patch;
}

/** The new next date when the schedule changed or the rule resumes (see updateRule); undefined keeps it. */
async function nextDateAfterChange(
  deps: RuleDeps,
  tx: Executor,
  userId: number,
  old: RuleRow,
  merged: RuleRow,
  now: Date,
): Promise<string | null | undefined> {
  const scheduleChanged =
    merged.frequency !== old.frequency ||
    merged.interval !== old.interval ||
    merged.startDate !== old.startDate ||
    merged.endDate !== old.endDate;
  const resuming = !old.active && merged.active;
  if (!scheduleChanged && !resuming) return undefined;
  let from: string;
  if (old.nextDate === old.startDate) from = merged.startDate;
  else if (old.nextDate !== null) from = old.nextDate;
  else from = old.endDate !== null ? addDays(old.endDate, 1) : merged.startDate;
  from = later(from, merged.startDate);
  if (resuming) from = later(from, await todayOf(deps, tx, userId, now));
  return firstOnOrAfter(scheduleOf(merged), from);
}
