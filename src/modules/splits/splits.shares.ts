import type { Db, Executor } from '../../db/client.ts';
import { type GroupRow, type ShareInsert } from '../books/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { currencyInfo, formatMinor, parseMinor, toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { computeShares, type Part, type SplitMode } from '../../lib/splits.ts';
import { sendSystemNotice } from '../notifications/index.ts';
import * as splitsRepo from './splits.repo.ts';
import type { Settlement, SplitInput } from './splits.schemas.ts';

/** The currency of a group (a stored code always is one; CNY guards against a hand-edited row). */
export function groupCurrency(group: Pick<GroupRow, 'currency'>): CurrencyInfo {
  return currencyInfo(group.currency) ?? currencyInfo('CNY')!;
}

const DECIMAL2 = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/** A weight or a percentage with at most 2 decimals, in hundredths; 40001 on `field` otherwise. */
function hundredths(value: unknown, field: string): bigint {
  const text =
    typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value : null;
  const m = text === null ? null : DECIMAL2.exec(text);
  if (!m) throw Errors.field(field, 'must be a non-negative number with at most 2 decimals');
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
}

function hundredthsText(v: bigint): string {
  const int = v / 100n;
  const frac = (v % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : `${int}`;
}

export interface ResolvedSplit {
  mode: SplitMode;
  shares: ShareInsert[];
}

/**
 * The shares of `amount` (minor units of `currency`) under a split as entered: members must be
 * current members of the group, each once; the values must add up (exact: to the amount; percent:
 * to 100). Without members, `equal` means every current member. Anything else: 40001.
 */
export function resolveSplit(
  amount: number,
  currency: CurrencyInfo,
  split: SplitInput,
  members: readonly number[],
): ResolvedSplit {
  const listed =
    split.members ?? (split.mode === 'equal' ? members.map((user_id) => ({ user_id, value: undefined })) : undefined);
  if (!listed?.length)
    throw Errors.field(
      'split.members',
      split.mode === 'equal'
        ? 'must name at least one member'
        : `must list the members and their values for mode ${split.mode}`,
    );
  const seen = new Set<number>();
  const parts: Part[] = [];
  const texts = new Map<number, string | null>();
  for (const [i, m] of listed.entries()) {
    const field = `split.members[${i}]`;
    if (!members.includes(m.user_id)) throw Errors.field(`${field}.user_id`, 'must be a member of the group');
    if (seen.has(m.user_id)) throw Errors.field(`${field}.user_id`, 'must be listed once');
    seen.add(m.user_id);
    if (split.mode === 'equal') {
      parts.push({ userId: m.user_id, value: 1n });
      texts.set(m.user_id, null);
      continue;
    }
    if (m.value === undefined) throw Errors.field(`${field}.value`, `is required for mode ${split.mode}`);
    let value: bigint;
    if (split.mode === 'exact') {
      value = BigInt(parseMinor(m.value, currency, `${field}.value`, { allowZero: true }));
      texts.set(m.user_id, formatMinor(value, currency));
    } else {
      value = hundredths(m.value, `${field}.value`);
      if (split.mode === 'percent' && value > 10_000n) throw Errors.field(`${field}.value`, 'must be at most 100');
      texts.set(m.user_id, hundredthsText(value));
    }
    parts.push({ userId: m.user_id, value });
  }
  const out = computeShares(amount, split.mode, parts);
  if (!Array.isArray(out)) throw Errors.field(out.field, out.message);
  return {
    mode: split.mode,
    shares: out.map((s) => ({ userId: s.userId, amountMinor: s.amount, value: texts.get(s.userId) ?? null })),
  };
}

/**
 * The stored split of a record applied to a new amount (an edit that keeps the split). Exact
 * amounts cannot follow a new amount: 40001 asking for a new split.
 */
export function reapplySplit(
  amount: number,
  stored: NonNullable<Awaited<ReturnType<typeof splitsRepo.splitOf>>>,
): ResolvedSplit {
  if (stored.mode === 'exact') {
    const sum = stored.members.reduce((s, m) => s + m.amountMinor, 0);
    if (sum !== amount)
      throw Errors.field('split', 'exact amounts no longer add up to the new amount; send the split again');
    return {
      mode: 'exact',
      shares: stored.members.map((m) => ({ userId: m.userId, amountMinor: m.amountMinor, value: m.value })),
    };
  }
  const parts = stored.members.map((m) => ({
    userId: m.userId,
    value: stored.mode === 'equal' ? 1n : hundredths(m.value ?? '0', 'split'),
  }));
  const out = computeShares(amount, stored.mode, parts);
  if (!Array.isArray(out)) throw Errors.field(out.field, out.message);
  const texts = new Map(stored.members.map((m) => [m.userId, m.value]));
  return {
    mode: stored.mode,
    shares: out.map((s) => ({ userId: s.userId, amountMinor: s.amount, value: texts.get(s.userId) ?? null })),
  };
}

/** The split of a record that nobody shares: no share rows, so it moves no balance. */
export const NO_SHARES: ResolvedSplit = { mode: 'equal', shares: [] };

/**
 * Which shares a group record gets. An explicit split always counts. Without one, a record keeps
 * its stored split (applied to its amount); a record new to the group is shared equally among
 * every member when the group splits costs, and by nobody when it does not (shared books, no
 * debts). Switching the setting therefore never adds or removes shares of older records.
 */
export function sharesFor(
  group: Pick<GroupRow, 'splitCosts'>,
  amount: number,
  currency: CurrencyInfo,
  members: readonly number[],
  opts: { split?: SplitInput; stored?: Awaited<ReturnType<typeof splitsRepo.splitOf>>; isNew: boolean },
): ResolvedSplit {
  if (opts.split !== undefined) return resolveSplit(amount, currency, opts.split, members);
  if (opts.stored) return reapplySplit(amount, opts.stored);
  if (opts.isNew && group.splitCosts) return resolveSplit(amount, currency, { mode: 'equal' }, members);
  return NO_SHARES;
}

export interface SplitsServiceDeps {
  db: Db;
  clock: Clock;
  config: { appTimezone: string };
  /** the groups module's read of a group row (handed over by the composition root: groups use splits) */
  groupById: (ex: Executor, groupId: number) => Promise<GroupRow | null>;
  repo?: typeof splitsRepo;
}

/** What the settling use cases are built from. */
export type SplitsDeps = Required<SplitsServiceDeps>;

export function toSettlement(row: splitsRepo.SettlementRow, currency: CurrencyInfo): Settlement {
  return {
    id: row.id,
    group_id: row.groupId,
    from: row.fromUserId,
    to: row.toUserId,
    amount: toMajorUnits(row.amountMinor, currency),
    currency: currency.code,
    note: row.note,
    date: row.date,
    created_by: row.createdBy,
    confirmed: row.confirmedAt !== null,
    confirmed_at: row.confirmedAt ? row.confirmedAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Money as people read it in a notification: "12.50 CNY". */
export const money = (minor: number, c: CurrencyInfo) => `${formatMinor(minor, c)} ${c.code}`;

/**
 * Personal notifications of a new group record: every member sharing it, and its payer, except the
 * one who recorded it, when the amount reaches the group's threshold; opted-out users are skipped.
 */
export async function notifyRecord(
  ex: Executor,
  group: GroupRow,
  rec: {
    id: number;
    recorder: number;
    paidBy: number;
    kind: string;
    amount: number;
    note: string;
    shares: { userId: number; amountMinor: number }[];
  },
  repo: typeof splitsRepo = splitsRepo,
): Promise<void> {
  if (group.notifyThreshold === null || rec.amount < group.notifyThreshold || !rec.shares.length) return;
  const involved = new Set([...rec.shares.map((s) => s.userId), rec.paidBy]);
  involved.delete(rec.recorder);
  const to = await repo.notifiable(ex, [...involved]);
  if (!to.length) return;
  const c = groupCurrency(group);
  const who = await repo.nicknameOf(ex, rec.recorder);
  const what = rec.note ? `「${rec.note}」` : '';
  const income = rec.kind === 'income';
  for (const userId of to) {
    const mine = rec.shares.find((s) => s.userId === userId)?.amountMinor ?? 0;
    await sendSystemNotice(ex, {
      userId,
      key: income ? 'split.income' : 'split.expense',
      params: {
        group: group.name,
        group_id: group.id,
        who,
        amount: toMajorUnits(rec.amount, c),
        share: toMajorUnits(mine, c),
        currency: c.code,
        note: rec.note,
      },
      title: `${group.name}: ${income ? '新的共同收入 · New shared income' : '新的共同支出 · New shared expense'}`,
      content:
        `${who} 记了一笔 ${money(rec.amount, c)}${what}，你的份额 ${money(mine, c)}。\n` +
        `${who} recorded ${money(rec.amount, c)}${rec.note ? ` (${rec.note})` : ''}; your share is ${money(mine, c)}.`,
      link: `/groups/${group.id}/balances`,
      createdBy: rec.recorder,
    });
  }
}
