// What a recurring rule must be: its dates within bounds, its shape whole, its references the caller's own.
import type { Executor } from '../../db/client.ts';
import { isValidDate } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { toMajor } from '../../lib/money.ts';
import type { Schedule } from '../../lib/recurrence.ts';
import { requireAccount, requireCategory, requireOpenAccount } from '../books/index.ts';
import type { RuleRow } from './recurring.repo.ts';
import type { RecurringRule } from './recurring.schemas.ts';

export const MAX_TAGS = 10;

/** Rules live between these dates: a start centuries back would book millions of catch-up rows. */
export const EARLIEST_RULE_DATE = '2000-01-01';
export const LATEST_RULE_DATE = '2099-12-31';

export function toRule(row: RuleRow): RecurringRule {
  return {
    id: row.id,
    kind: row.kind,
    amount: toMajor(row.amountMinor),
    category_id: row.categoryId,
    account_id: row.accountId,
    to_account_id: row.toAccountId,
    note: row.note,
    tag_ids: row.tagIds,
    group_id: row.groupId,
    frequency: row.frequency,
    interval: row.interval,
    start_date: row.startDate,
    end_date: row.endDate,
    next_date: row.nextDate,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}

export const scheduleOf = (r: Pick<RuleRow, 'frequency' | 'interval' | 'startDate' | 'endDate'>): Schedule => ({
  frequency: r.frequency,
  interval: r.interval,
  startDate: r.startDate,
  endDate: r.endDate,
});

export function checkDate(field: string, value: string): string {
  if (!isValidDate(value)) throw Errors.field(field, 'must be a valid date (YYYY-MM-DD)');
  if (value < EARLIEST_RULE_DATE || value > LATEST_RULE_DATE)
    throw Errors.field(field, `must be between ${EARLIEST_RULE_DATE} and ${LATEST_RULE_DATE}`);
  return value;
}

/** The parts of a rule that decide where its occurrences go. */
export interface Shape {
  kind: RuleRow['kind'];
  categoryId: number | null;
  accountId: number | null;
  toAccountId: number | null;
  groupId: number | null;
}

/**
 * A rule's shape must be whole: an expense or an income names a category of its kind and no
 * receiving account; a transfer names two different open accounts of one currency, no category and
 * no group. `changed` names the references the request set, which alone are checked against the
 * caller's own (unchanged ones were checked when they were set).
 */
export async function checkShape(
  ex: Executor,
  userId: number,
  s: Shape,
  changed: { category: boolean; account: boolean; toAccount: boolean },
): Promise<void> {
  if (changed.account && s.accountId !== null) await requireOpenAccount(ex, userId, s.accountId);
  if (s.kind === 'transfer') {
    if (s.categoryId !== null) throw Errors.field('category_id', 'is not for a transfer');
    if (s.groupId !== null) throw Errors.field('group_id', 'a transfer moves your own money and cannot be in a group');
    if (s.toAccountId === null) throw Errors.field('to_account_id', 'is required for a transfer');
    if (s.toAccountId === s.accountId) throw Errors.field('to_account_id', 'must be another account than account_id');
    if (changed.account || changed.toAccount) {
      const from = await requireAccount(ex, userId, s.accountId!, { field: 'account_id' });
      const to = await requireOpenAccount(ex, userId, s.toAccountId, 'to_account_id');
      if (from.currency !== to.currency)
        throw Errors.field('to_account_id', `must be an account of the same currency as account_id (${from.currency})`);
    }
    return;
  }
  if (s.toAccountId !== null) throw Errors.field('to_account_id', 'is only for a transfer');
  if (s.categoryId === null) throw Errors.field('category_id', 'is required for an expense or an income');
  if (changed.category) await requireCategory(ex, userId, s.categoryId, { kind: s.kind });
}
