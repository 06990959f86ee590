import type { Db, Executor } from '../../db/client.ts';
import { zoneOr } from '../../lib/access.ts';
import * as books from '../books/index.ts';
import { defaultAccount, membershipOf, ownTagIds, requireAccount, requireCategory, requireOpenAccount, requireTags, requireWritableGroup, userTimezone, type AccountRef } from '../books/index.ts';
import type { ServiceDeps } from '../service.ts';
import { addDays, isValidDate, todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { parseAmount, toMajor } from '../../lib/money.ts';
import { dueOccurrences, firstOnOrAfter, type Schedule } from '../../lib/recurrence.ts';
import { cleanOptionalText } from '../../lib/text.ts';
import * as recurringRepo from './recurring.repo.ts';
import type { RuleRow } from './recurring.repo.ts';
import type { RecurringCreateBody, RecurringRule, RecurringUpdateBody } from './recurring.schemas.ts';

export const MAX_TAGS = 10;

export function toRule(row: RuleRow): RecurringRule {
  return {
    id: row.id,
    kind: row.kind,
    amount: toMajor(row.amountCents),
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

export const scheduleOf = (r: Pick<recurringRepo.RuleRow, 'frequency' | 'interval' | 'startDate' | 'endDate'>): Schedule => ({
  frequency: r.frequency,
  interval: r.interval,
  startDate: r.startDate,
  endDate: r.endDate,
});


const later = (a: string, b: string) => (a > b ? a : b);

/** Rules live between these dates: a start centuries back would book millions of catch-up rows. */
export const EARLIEST_RULE_DATE = '2000-01-01';
export const LATEST_RULE_DATE = '2099-12-31';

function checkDate(field: string, value: string): string {
  if (!isValidDate(value)) throw Errors.field(field, 'must be a valid date (YYYY-MM-DD)');
  if (value < EARLIEST_RULE_DATE || value > LATEST_RULE_DATE) throw Errors.field(field, `must be between ${EARLIEST_RULE_DATE} and ${LATEST_RULE_DATE}`);
  return value;
}

/** The parts of a rule that decide where its occurrences go. */
interface Shape {
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
async function checkShape(ex: Executor, userId: number, s: Shape, changed: { category: boolean; account: boolean; toAccount: boolean }): Promise<void> {
  if (changed.account && s.accountId !== null) await requireOpenAccount(ex, userId, s.accountId);
  if (s.kind === 'transfer') {
    if (s.categoryId !== null) throw Errors.field('category_id', 'is not for a transfer');
    if (s.groupId !== null) throw Errors.field('group_id', 'a transfer moves your own money and cannot be in a group');
    if (s.toAccountId === null) throw Errors.field('to_account_id', 'is required for a transfer');
    if (s.toAccountId === s.accountId) throw Errors.field('to_account_id', 'must be another account than account_id');
    if (changed.account || changed.toAccount) {
      const from = await requireAccount(ex, userId, s.accountId!, { field: 'account_id' });
      const to = await requireOpenAccount(ex, userId, s.toAccountId, 'to_account_id');
      if (from.currency !== to.currency) throw Errors.field('to_account_id', `must be an account of the same currency as account_id (${from.currency})`);
    }
    return;
  }
  if (s.toAccountId !== null) throw Errors.field('to_account_id', 'is only for a transfer');
  if (s.categoryId === null) throw Errors.field('category_id', 'is required for an expense or an income');
  if (changed.category) await requireCategory(ex, userId, s.categoryId, { kind: s.kind });
}

export type RecurringDeps = ServiceDeps<typeof recurringRepo, 'appTimezone'>;

export function createRecurringService({ db, clock, config, repo = recurringRepo }: RecurringDeps) {
  async function todayOf(ex: Executor, userId: number, now: Date): Promise<string> {
    return todayIn(await userTimezone(ex, userId, config.appTimezone), now);
  }

  return {
    async list(userId: number): Promise<{ list: RecurringRule[] }> {
      const rules = await repo.listRules(db, userId);
      // a tag deleted since the rule was saved is no longer attached: it is left out here too
      const live = await ownTagIds(db, userId, rules.flatMap((r) => r.tagIds));
      return { list: rules.map((r) => toRule({ ...r, tagIds: r.tagIds.filter((id) => live.has(id)) })) };
    },

    async create(userId: number, body: RecurringCreateBody): Promise<RecurringRule> {
      const now = clock.now();
      const amountCents = parseAmount(body.amount);
      const note = cleanOptionalText(body.note, 'note', 200);
      const startDate = body.start_date === undefined ? await todayOf(db, userId, now) : checkDate('start_date', body.start_date);
      const endDate = body.end_date == null ? null : checkDate('end_date', body.end_date);
      if (endDate !== null && endDate < startDate) throw Errors.field('end_date', 'must not be before start_date');
      const groupId = body.group_id ?? null;
      const accountId = body.account_id ?? (await defaultAccount(db, userId)).id;
      const shape: Shape = { kind: body.kind, categoryId: body.category_id ?? null, accountId, toAccountId: body.to_account_id ?? null, groupId };
      await checkShape(db, userId, shape, { category: true, account: true, toAccount: true });
      const tagIds = await requireTags(db, userId, body.tag_ids ?? [], { max: MAX_TAGS });
      if (groupId !== null) await requireWritableGroup(db, groupId, userId);
      // a start in the past books the occurrences since then unless the caller said not to
      const today = await todayOf(db, userId, now);
      const schedule = { frequency: body.frequency, interval: body.interval ?? 1, startDate, endDate };
      const nextDate = body.book_past === false && startDate < today ? firstOnOrAfter(schedule, today) : startDate;
      const row = await repo.insertRule(db, userId, {
        ...shape,
        amountCents,
        note,
        tagIds,
        frequency: body.frequency,
        interval: body.interval ?? 1,
        startDate,
        endDate,
        nextDate,
        active: body.active ?? true,
      });
      return toRule(row);
    },

    /**
     * Any subset of the fields. Pausing keeps next_date. Resuming, or changing the schedule,
     * recomputes next_date as the first occurrence of the (new) schedule on or after a watermark:
     * the old next_date (every date before it was already generated or skipped), or the start
     * date when nothing has happened yet; a resume also moves the watermark to today, so the
     * paused dates are skipped, not filled in.
     */
    async update(userId: number, id: number, body: RecurringUpdateBody): Promise<RecurringRule> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const old = await repo.findRule(tx, userId, id, true);
        if (!old) throw Errors.notFound('recurring rule');
        const patch: Partial<recurringRepo.RuleInsert> = {};
        if (body.amount !== undefined) patch.amountCents = parseAmount(body.amount);
        if (body.note !== undefined) patch.note = cleanOptionalText(body.note, 'note', 200);
        if (body.start_date !== undefined) patch.startDate = checkDate('start_date', body.start_date);
        if (body.end_date !== undefined) patch.endDate = body.end_date === null ? null : checkDate('end_date', body.end_date);
        if (body.frequency !== undefined) patch.frequency = body.frequency;
        if (body.interval !== undefined) patch.interval = body.interval;
        if (body.kind !== undefined) {
          patch.kind = body.kind;
          // becoming a transfer drops the category, and ceasing to be one the receiving account, unless the body sets them
          if (body.kind === 'transfer' && old.kind !== 'transfer' && body.category_id === undefined) patch.categoryId = null;
          if (body.kind !== 'transfer' && old.kind === 'transfer' && body.to_account_id === undefined) patch.toAccountId = null;
        }
        if (body.category_id !== undefined) patch.categoryId = body.category_id;
        if (body.account_id !== undefined) patch.accountId = body.account_id;
        if (body.to_account_id !== undefined) patch.toAccountId = body.to_account_id;
        if (body.active !== undefined) patch.active = body.active;
        if (body.group_id !== undefined) {
          if (body.group_id !== null && body.group_id !== old.groupId) await requireWritableGroup(tx, body.group_id, userId);
          patch.groupId = body.group_id;
        }
        const merged = { ...old, ...patch };
        if (merged.endDate !== null && merged.endDate < merged.startDate) throw Errors.field('end_date', 'must not be before start_date');
        // a rule from before rules had an account books into the default account
        if (merged.accountId === null && merged.kind === 'transfer') merged.accountId = patch.accountId = (await defaultAccount(tx, userId)).id;
        await checkShape(tx, userId, merged, {
          category: body.kind !== undefined || body.category_id !== undefined,
          account: body.account_id !== undefined || (merged.kind === 'transfer' && old.kind !== 'transfer'),
          toAccount: body.to_account_id !== undefined || merged.kind !== old.kind,
        });
        if (body.tag_ids !== undefined) patch.tagIds = await requireTags(tx, userId, body.tag_ids, { max: MAX_TAGS });

        const scheduleChanged =
          merged.frequency !== old.frequency || merged.interval !== old.interval || merged.startDate !== old.startDate || merged.endDate !== old.endDate;
        const resuming = !old.active && merged.active;
        if (scheduleChanged || resuming) {
          let from: string;
          if (old.nextDate === old.startDate) from = merged.startDate;
          else if (old.nextDate !== null) from = old.nextDate;
          else from = old.endDate !== null ? addDays(old.endDate, 1) : merged.startDate;
          from = later(from, merged.startDate);
          if (resuming) from = later(from, await todayOf(tx, userId, now));
          patch.nextDate = firstOnOrAfter(scheduleOf(merged), from);
        }
        const row = Object.keys(patch).length ? await repo.updateRule(tx, userId, id, patch) : old;
        return toRule(row!);
      });
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.deleteRule(db, userId, id))) throw Errors.notFound('recurring rule');
    },
  };
}

// ---- generation ----

/** occurrences written per database transaction, and transactions per rule and run */
const CHUNK = 500;
const CHUNKS_PER_RUN = 20;
const CANDIDATE_PAGE = 200;

export interface GenerationResult {
  rules: number;
  created: number;
}

/**
 * Creates every due occurrence (date <= today in the owner's time zone) of every active rule,
 * including those missed while the service was down. Safe to run in several processes at once:
 * each rule is locked with FOR UPDATE SKIP LOCKED in its own transaction, and the unique
 * (recurring_id, date) index turns a repeat into a no-op. A rule with a very long backlog is
 * caught up over successive runs, CHUNK * CHUNKS_PER_RUN occurrences at a time.
 */
export async function generateDue(db: Db, appTimezone: string, now: Date): Promise<GenerationResult> {
  // the latest "today" anywhere on Earth (UTC+14) bounds the candidates; each owner's own today decides
  const horizon = addDays(todayIn('UTC', now), 1);
  const result: GenerationResult = { rules: 0, created: 0 };
  let afterId = 0;
  for (;;) {
    const page = await recurringRepo.dueCandidates(db, horizon, afterId, CANDIDATE_PAGE);
    if (!page.length) break;
    afterId = page[page.length - 1]!.id;
    for (const c of page) {
      const today = todayIn(zoneOr(c.timezone, appTimezone), now);
      if (c.nextDate > today) continue;
      let touched = false;
      for (let i = 0; i < CHUNKS_PER_RUN; i++) {
        const step = await generateChunk(db, c.id, today);
        if (!step) break;
        touched = true;
        result.created += step.created;
        if (!step.more) break;
      }
      if (touched) result.rules++;
    }
    if (page.length < CANDIDATE_PAGE) break;
  }
  return result;
}

/**
 * One row per date in the rule's account (the owner's default account for a rule from before rules
 * had one); a date the rule already has (unique rule + date) is left alone. A rule's amount is kept
 * with 2 decimals: it is fitted to the account currency's minor unit (rounded half away from zero in
 * a currency of fewer digits), then converted to the base currency at each date's rate. A transfer
 * names its receiving account, which receives the same amount (both accounts share one currency).
 * Answers the ids of the rows written.
 */
async function writeOccurrences(tx: Executor, rule: recurringRepo.RuleRow, dates: string[], groupId: number | null): Promise<number[]> {
  if (!dates.length) return [];
  const account: AccountRef = rule.accountId === null ? await books.defaultAccount(tx, rule.userId) : await books.requireAccount(tx, rule.userId, rule.accountId);
  const amount = books.fitHundredths(rule.amountCents, books.accountCurrency(account), true)!;
  const bookings = await books.bookAll(
    tx,
    rule.userId,
    account,
    dates.map((date) => ({ minor: amount, date })),
  );
  const transfer = rule.kind === 'transfer' && rule.toAccountId !== null ? { toAccountId: rule.toAccountId, toAmount: amount, toCurrency: account.currency } : {};
  const rows = dates.map(
    (date, i): books.BookedRow => ({
      kind: rule.kind,
      amount,
      categoryId: rule.categoryId,
      note: rule.note,
      date,
      groupId: rule.kind === 'transfer' ? null : groupId,
      recurringId: rule.id,
      ...bookings[i]!,
      ...transfer,
    }),
  );
  return books.insertRows(tx, rule.userId, rows, { skipRecurringDuplicates: true });
}

async function generateChunk(db: Db, ruleId: number, today: string): Promise<{ created: number; more: boolean } | null> {
  return db.transaction(async (tx) => {
    const rule = await recurringRepo.lockDueRule(tx, ruleId, today);
    if (!rule || rule.nextDate === null) return null;
    const { dates, next } = dueOccurrences(scheduleOf(rule), rule.nextDate, today, CHUNK);
    // a group the owner has left, or that was dissolved, no longer takes writes: book it personally
    let groupId = rule.groupId;
    if (groupId !== null) {
      const m = await membershipOf(tx, groupId, rule.userId);
      if (!m || m.group.dissolvedAt) groupId = null;
    }
    const ids = await writeOccurrences(tx, rule, dates, groupId);
    await books.linkTagsToAll(tx, ids, [...(await ownTagIds(tx, rule.userId, rule.tagIds))]);
    await recurringRepo.setNextDate(tx, rule.userId, rule.id, next);
    return { created: ids.length, more: next !== null && next <= today };
  });
}
