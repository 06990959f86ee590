// Booking the occurrences of recurring rules: due ones on each run, and at once for a rule made or changed.
import type { Db, Executor } from '../../db/client.ts';
import { zoneOr } from '../../lib/access.ts';
import { addDays, todayIn } from '../../lib/dates.ts';
import { dueOccurrences } from '../../lib/recurrence.ts';
import * as books from '../books/index.ts';
import { membershipOf, ownTagIds, type AccountRef } from '../books/index.ts';
import type { RuleDeps } from './recurring.deps.ts';
import * as recurringRepo from './recurring.repo.ts';
import { scheduleOf } from './recurring.rules.ts';

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
 * Books at once what a rule made or changed just now has due (its first bill on its start date
 * today, or the dates since a start in the past), as the scheduler would on its next run, so the
 * rule answers with its true next date. A backlog longer than one chunk (a daily rule started
 * years ago) is left, after its first chunk, to the scheduler. Answers the rule as it then stands.
 */
export async function bookDueNow(
  { db, repo }: RuleDeps,
  rule: recurringRepo.RuleRow,
  today: string,
): Promise<recurringRepo.RuleRow> {
  if (!rule.active || rule.nextDate === null || rule.nextDate > today) return rule;
  await generateChunk(db, rule.id, today);
  return (await repo.findRule(db, rule.userId, rule.id)) ?? rule;
}

/**
 * One row per date in the rule's account (the owner's default account for a rule from before rules
 * had one); a date the rule already has (unique rule + date) is left alone. A rule's amount is kept
 * with 2 decimals: it is fitted to the account currency's minor unit (rounded half away from zero in
 * a currency of fewer digits), then converted to the base currency at each date's rate. A transfer
 * names its receiving account, which receives the same amount (both accounts share one currency).
 * Answers the ids of the rows written.
 */
async function writeOccurrences(
  tx: Executor,
  rule: recurringRepo.RuleRow,
  dates: string[],
  groupId: number | null,
  tagIds: readonly number[],
): Promise<number[]> {
  if (!dates.length) return [];
  const account: AccountRef =
    rule.accountId === null
      ? await books.defaultAccount(tx, rule.userId)
      : await books.requireAccount(tx, rule.userId, rule.accountId);
  const amount = books.fitHundredths(rule.amountMinor, books.accountCurrency(account), true)!;
  const bookings = await books.bookAll(
    tx,
    rule.userId,
    account,
    dates.map((date) => ({ minor: amount, date })),
  );
  const transfer =
    rule.kind === 'transfer' && rule.toAccountId !== null
      ? { toAccountId: rule.toAccountId, toAmount: amount, toCurrency: account.currency }
      : {};
  const rows = dates.map((date, i): books.BookedRow => ({
    kind: rule.kind,
    amount,
    categoryId: rule.categoryId,
    note: rule.note,
    date,
    groupId: rule.kind === 'transfer' ? null : groupId,
    recurringId: rule.id,
    ...bookings[i]!,
    ...transfer,
  }));
  return books.write(tx, rule.userId, { type: 'recurring', rows, tagIds });
}

async function generateChunk(
  db: Db,
  ruleId: number,
  today: string,
): Promise<{ created: number; more: boolean } | null> {
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
    const tagIds = [...(await ownTagIds(tx, rule.userId, rule.tagIds))];
    const ids = await writeOccurrences(tx, rule, dates, groupId, tagIds);
    await recurringRepo.setNextDate(tx, rule.userId, rule.id, next);
    return { created: ids.length, more: next !== null && next <= today };
  });
}
