// Making a recurring rule: its fields checked, its first due occurrences booked at once.
import { Errors } from '../../lib/errors.ts';
import { parseAmount } from '../../lib/money.ts';
import { firstOnOrAfter } from '../../lib/recurrence.ts';
import { cleanOptionalText } from '../../lib/text.ts';
import { defaultAccount, requireTags, requireWritableGroup } from '../books/index.ts';
import { todayOf, type RuleDeps } from './recurring.deps.ts';
import { bookDueNow } from './recurring.generate.ts';
import { checkDate, checkShape, MAX_TAGS, toRule, type Shape } from './recurring.rules.ts';
import type { RecurringCreateBody, RecurringRule } from './recurring.schemas.ts';

/** Makes a rule; a start in the past books the occurrences since then unless the body says not to. */
export async function createRule(deps: RuleDeps, userId: number, body: RecurringCreateBody): Promise<RecurringRule> {
  const { db, clock, repo } = deps;
  const now = clock.now();
  const amountMinor = parseAmount(body.amount);
  const note = cleanOptionalText(body.note, 'note', 200);
  const startDate =
    body.start_date === undefined ? await todayOf(deps, db, userId, now) : checkDate('start_date', body.start_date);
  const endDate = body.end_date == null ? null : checkDate('end_date', body.end_date);
  if (endDate !== null && endDate < startDate) throw Errors.field('end_date', 'must not be before start_date');
  const groupId = body.group_id ?? null;
  const accountId = body.account_id ?? (await defaultAccount(db, userId)).id;
  const shape: Shape = {
    kind: body.kind,
    categoryId: body.category_id ?? null,
    accountId,
    toAccountId: body.to_account_id ?? null,
    groupId,
  };
  await checkShape(db, userId, shape, { category: true, account: true, toAccount: true });
  const tagIds = await requireTags(db, userId, body.tag_ids ?? [], { max: MAX_TAGS });
  if (groupId !== null) await requireWritableGroup(db, groupId, userId);
  // a start in the past books the occurrences since then unless the caller said not to
  const today = await todayOf(deps, db, userId, now);
  const schedule = { frequency: body.frequency, interval: body.interval ?? 1, startDate, endDate };
  const nextDate = body.book_past === false && startDate < today ? firstOnOrAfter(schedule, today) : startDate;
  const row = await repo.insertRule(db, userId, {
    ...shape,
    amountMinor,
    note,
    tagIds,
    frequency: body.frequency,
    interval: body.interval ?? 1,
    startDate,
    endDate,
    nextDate,
    active: body.active ?? true,
  });
  return toRule(await bookDueNow(deps, row, today));
}
