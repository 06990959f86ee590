import type { Db, Executor } from '../../db/client.ts';
import { membershipOf, requireWritableGroup, requireLiveGroupOwner, type GroupRow } from '../books/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { currencyInfo, formatMinor, parseMinor, requireCurrency, toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import { checkDate, todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { computeShares, outstanding, suggestSettlements, type Part, type SplitMode } from '../../lib/splits.ts';
import { cleanOptionalText, cleanText } from '../../lib/text.ts';
import { sendSystemNotice } from '../notifications/index.ts';
import * as splitsRepo from './splits.repo.ts';
import type { Balances, GroupSettingsBody, Settlement, SettlementBody, SettlementListQuery, SplitInput, Suggested } from './splits.schemas.ts';

/** The currency of a group (a stored code always is one; CNY guards against a hand-edited row). */
export function groupCurrency(group: Pick<GroupRow, 'currency'>): CurrencyInfo {
  return currencyInfo(group.currency) ?? currencyInfo('CNY')!;
}

const DECIMAL2 = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/** A weight or a percentage with at most 2 decimals, in hundredths; 40001 on `field` otherwise. */
function hundredths(value: unknown, field: string): bigint {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value : null;
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
  shares: splitsRepo.ShareInsert[];
}

/**
 * The shares of `amount` (minor units of `currency`) under a split as entered: members must be
 * current members of the group, each once; the values must add up (exact: to the amount; percent:
 * to 100). Without members, `equal` means every current member. Anything else: 40001.
 */
export function resolveSplit(amount: number, currency: CurrencyInfo, split: SplitInput, members: readonly number[]): ResolvedSplit {
  const listed = split.members ?? (split.mode === 'equal' ? members.map((user_id) => ({ user_id, value: undefined })) : undefined);
  if (!listed?.length) throw Errors.field('split.members', split.mode === 'equal' ? 'must name at least one member' : `must list the members and their values for mode ${split.mode}`);
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
  return { mode: split.mode, shares: out.map((s) => ({ userId: s.userId, amountCents: s.amount, value: texts.get(s.userId) ?? null })) };
}

/**
 * The stored split of a record applied to a new amount (an edit that keeps the split). Exact
 * amounts cannot follow a new amount: 40001 asking for a new split.
 */
export function reapplySplit(amount: number, stored: NonNullable<Awaited<ReturnType<typeof splitsRepo.splitOf>>>): ResolvedSplit {
  if (stored.mode === 'exact') {
    const sum = stored.members.reduce((s, m) => s + m.amountCents, 0);
    if (sum !== amount) throw Errors.field('split', 'exact amounts no longer add up to the new amount; send the split again');
    return { mode: 'exact', shares: stored.members.map((m) => ({ userId: m.userId, amountCents: m.amountCents, value: m.value })) };
  }
  const parts = stored.members.map((m) => ({ userId: m.userId, value: stored.mode === 'equal' ? 1n : hundredths(m.value ?? '0', 'split') }));
  const out = computeShares(amount, stored.mode, parts);
  if (!Array.isArray(out)) throw Errors.field(out.field, out.message);
  const texts = new Map(stored.members.map((m) => [m.userId, m.value]));
  return { mode: stored.mode, shares: out.map((s) => ({ userId: s.userId, amountCents: s.amount, value: texts.get(s.userId) ?? null })) };
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
  repo?: typeof splitsRepo;
}

function toSettlement(row: splitsRepo.SettlementRow, currency: CurrencyInfo): Settlement {
  return {
    id: row.id,
    group_id: row.groupId,
    from: row.fromUserId,
    to: row.toUserId,
    amount: toMajorUnits(row.amountCents, currency),
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
const money = (minor: number, c: CurrencyInfo) => `${formatMinor(minor, c)} ${c.code}`;

/**
 * Personal notifications of a new group record: every member sharing it, and its payer, except the
 * one who recorded it, when the amount reaches the group's threshold; opted-out users are skipped.
 */
export async function notifyRecord(
  ex: Executor,
  group: GroupRow,
  rec: { id: number; recorder: number; paidBy: number; kind: string; amount: number; note: string; shares: { userId: number; amountCents: number }[] },
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
    const mine = rec.shares.find((s) => s.userId === userId)?.amountCents ?? 0;
    await sendSystemNotice(ex, {
      userId,
      key: income ? 'split.income' : 'split.expense',
      params: { group: group.name, group_id: group.id, who, amount: toMajorUnits(rec.amount, c), share: toMajorUnits(mine, c), currency: c.code, note: rec.note },
      title: `${group.name}: ${income ? '新的共同收入 · New shared income' : '新的共同支出 · New shared expense'}`,
      content:
        `${who} 记了一笔 ${money(rec.amount, c)}${what}，你的份额 ${money(mine, c)}。\n` +
        `${who} recorded ${money(rec.amount, c)}${rec.note ? ` (${rec.note})` : ''}; your share is ${money(mine, c)}.`,
      link: `/groups/${group.id}/balances`,
      createdBy: rec.recorder,
    });
  }
}

export function createSplitsService({ db, clock, config, repo = splitsRepo }: SplitsServiceDeps) {
  /**
   * `former`: the balances as a former member sees them: their own line and the lines of the
   * people on the other side of their balance (those they may pay or be paid by), nobody else.
   */
  async function balancesOf(ex: Executor, group: GroupRow, former?: number): Promise<Balances> {
    const c = groupCurrency(group);
    const [rows, members] = await Promise.all([repo.balanceRows(ex, group.id), repo.memberIds(ex, group.id)]);
    const byId = new Map(rows.map((r) => [r.user_id, r]));
    for (const m of members) if (!byId.has(m)) byId.set(m, { user_id: m, paid: 0, share: 0, sent: 0, received: 0 });
    const netOf = (id: number) => {
      const r = byId.get(id);
      return r ? r.paid - r.share + r.sent - r.received : 0;
    };
    let ids = [...byId.keys()].sort((a, b) => a - b);
    if (former !== undefined) {
      const mine = Math.sign(netOf(former));
      ids = ids.filter((id) => id === former || Math.sign(netOf(id)) === -mine);
    }
    const who = new Map((await repo.people(ex, group.id, ids)).map((p) => [p.userId, p]));
    return {
      currency: c.code,
      split_costs: group.splitCosts,
      list: ids.map((id) => {
        const r = byId.get(id)!;
        const p = who.get(id);
        return {
          user_id: id,
          nickname: p?.nickname ?? '',
          avatar_url: p?.avatarUrl ?? null,
          member: p?.member ?? false,
          paid: toMajorUnits(r.paid, c),
          share: toMajorUnits(r.share, c),
          sent: toMajorUnits(r.sent, c),
          received: toMajorUnits(r.received, c),
          net: toMajorUnits(r.paid - r.share + r.sent - r.received, c),
        };
      }),
    };
  }

  async function netsOf(ex: Executor, groupId: number): Promise<{ userId: number; net: number }[]> {
    return (await repo.balanceRows(ex, groupId)).map((r) => ({ userId: r.user_id, net: r.paid - r.share + r.sent - r.received }));
  }

  /**
   * Who may take part in settling a group: its members, and a former member (who left or was
   * removed) while they still have a balance in it or a payment of theirs awaits confirmation;
   * anyone else 40302. A former member reaches nothing else of the group: not its records, not the
   * balances of people who are not on the other side of theirs.
   */
  async function settlingParty(ex: Executor, groupId: number, userId: number): Promise<{ group: GroupRow; former: boolean }> {
    const m = await membershipOf(ex, groupId, userId);
    if (m) return { group: m.group, former: false };
    const group = await repo.groupById(ex, groupId);
    if (group && ((await netsOf(ex, groupId)).some((n) => n.userId === userId && n.net !== 0) || (await repo.hasOpenSettlement(ex, groupId, userId)))) {
      return { group, former: true };
    }
    throw Errors.groupForbidden();
  }

  async function notifySettlement(ex: Executor, group: GroupRow, row: splitsRepo.SettlementRow, actor: number, confirmed: boolean): Promise<void> {
    const other = row.fromUserId === actor ? row.toUserId : row.fromUserId;
    const to = await repo.notifiable(ex, [other]);
    if (!to.length) return;
    const c = groupCurrency(group);
    const who = await repo.nicknameOf(ex, actor);
    const amount = money(row.amountCents, c);
    const [key, title, content] = confirmed
      ? (['settlement.confirmed', `${group.name}: 还款已确认 · Payment confirmed`, `${who} 确认了 ${amount} 的还款。\n${who} confirmed the payment of ${amount}.`] as const)
      : row.fromUserId === actor
        ? (['settlement.paid_you', `${group.name}: 收到还款 · Payment received`, `${who} 记录了付给你的 ${amount}，请确认。\n${who} recorded paying you ${amount}; please confirm.`] as const)
        : (['settlement.received', `${group.name}: 还款已记录 · Payment recorded`, `${who} 记录了收到你的 ${amount}。\n${who} recorded receiving ${amount} from you.`] as const);
    await sendSystemNotice(ex, {
      userId: other,
      key,
      params: { group: group.name, group_id: group.id, who, amount: toMajorUnits(row.amountCents, c), currency: c.code },
      title,
      content,
      link: `/groups/${group.id}/balances`,
      createdBy: actor,
    });
  }

  return {
    async balances(userId: number, groupId: number): Promise<Balances> {
      const { group, former } = await settlingParty(db, groupId, userId);
      return balancesOf(db, group, former ? userId : undefined);
    },

    async suggested(userId: number, groupId: number): Promise<Suggested> {
      const { group, former } = await settlingParty(db, groupId, userId);
      const c = groupCurrency(group);
      // a former member is shown the payments that settle their own balance
      const transfers = suggestSettlements(await netsOf(db, groupId)).filter((t) => !former || t.from === userId || t.to === userId);
      return { currency: c.code, list: transfers.map((t) => ({ from: t.from, to: t.to, amount: toMajorUnits(t.amount, c) })) };
    },

    /**
     * Records a payment between two people of the group, by either of them. The group row is locked
     * first, so two settlements of one group take turns and the second sees the first: nobody can
     * settle more than is outstanding between the two (40901), even when both press at once.
     */
    async settle(userId: number, groupId: number, body: SettlementBody): Promise<Settlement> {
      const { group: seen } = await settlingParty(db, groupId, userId);
      if (seen.dissolvedAt) throw Errors.dissolved();
      if (body.from !== userId && body.to !== userId) throw Errors.field('from', 'either from or to must be you');
      if (body.from === body.to) throw Errors.field('to', 'must differ from from');
      const note = cleanOptionalText(body.note, 'note', 200);
      return db.transaction(async (tx) => {
        const group = await repo.lockGroup(tx, groupId);
        if (!group) throw Errors.groupForbidden();
        if (group.dissolvedAt) throw Errors.dissolved();
        const c = groupCurrency(group);
        const amount = parseMinor(body.amount, c, 'amount');
        const nets = await netsOf(tx, groupId);
        const members = await repo.memberIds(tx, groupId);
        const known = (id: number) => members.includes(id) || nets.some((n) => n.userId === id && n.net !== 0);
        if (!known(body.from)) throw Errors.field('from', 'must be a member of the group or someone with a balance in it');
        if (!known(body.to)) throw Errors.field('to', 'must be a member of the group or someone with a balance in it');
        const open = outstanding(nets, body.from, body.to);
        if (amount > open) {
          throw Errors.conflict(open === 0 ? 'nothing is outstanding between these two' : `at most ${formatMinor(open, c)} ${c.code} is outstanding between these two`);
        }
        const date = body.date === undefined ? todayIn(config.appTimezone, clock.now()) : checkDate(body.date, 'date');
        const row = await repo.insertSettlement(tx, { groupId, fromUserId: body.from, toUserId: body.to, amountCents: amount, note, date, createdBy: userId });
        await notifySettlement(tx, group, row, userId, false);
        return toSettlement(row, c);
      });
    },

    /** A group's payments; a former member with a balance sees only their own. */
    async list(userId: number, groupId: number, q: SettlementListQuery): Promise<{ list: Settlement[]; total: number }> {
      const { group, former } = await settlingParty(db, groupId, userId);
      const c = groupCurrency(group);
      const { limit, offset } = pageOf(q);
      const { rows, total } = await repo.listSettlements(db, groupId, limit, offset, former ? userId : undefined);
      return { list: rows.map((r) => toSettlement(r, c)), total };
    },

    /** The other side confirms a payment recorded by the one who made it (or received it). */
    async confirm(userId: number, id: number): Promise<Settlement> {
      // the two people of a payment see it even after leaving the group (a removed debtor confirms
      // the payment the owner recorded for them); other members see it too, to be told it is not theirs
      const row = await repo.findVisibleSettlement(db, userId, id);
      if (!row) throw Errors.notFound('settlement');
      const group = await repo.groupById(db, row.groupId);
      if (!group) throw Errors.notFound('settlement');
      const c = groupCurrency(group);
      if (row.fromUserId !== userId && row.toUserId !== userId) throw Errors.groupForbidden('only the two people of a settlement may confirm it');
      if (row.createdBy === userId) throw Errors.rule('the other side confirms a settlement, not the one who recorded it');
      if (row.confirmedAt) return toSettlement(row, c);
      return db.transaction(async (tx) => {
        const done = (await repo.confirmSettlement(tx, row.groupId, id, clock.now())) ?? (await repo.findSettlement(tx, row.groupId, id));
        if (!done) throw Errors.notFound('settlement');
        await notifySettlement(tx, group, done, userId, true);
        return toSettlement(done, c);
      });
    },

    /** The one who recorded a settlement may take it back while the other side has not confirmed it. */
    async remove(userId: number, id: number): Promise<void> {
      const row = await repo.findVisibleSettlement(db, userId, id);
      if (!row) throw Errors.notFound('settlement');
      if (await membershipOf(db, row.groupId, userId)) await requireWritableGroup(db, row.groupId, userId);
      else if ((await repo.groupById(db, row.groupId))?.dissolvedAt) throw Errors.dissolved();
      if (row.createdBy !== userId) throw Errors.groupForbidden('only the one who recorded a settlement may delete it');
      if (row.confirmedAt) throw Errors.rule('a confirmed settlement cannot be deleted');
      await repo.deleteSettlement(db, row.groupId, id);
    },

    /** Owner settings: name, currency (only before anything is recorded), splitting costs, notification threshold. */
    async updateSettings(userId: number, groupId: number, body: GroupSettingsBody): Promise<void> {
      await requireLiveGroupOwner(db, groupId, userId);
      const patch: { name?: string; currency?: string; notifyThreshold?: number | null; splitCosts?: boolean } = {};
      if (body.name !== undefined) patch.name = cleanText(body.name, 'name', 1, 30);
      // applies to records from now on: older records keep the shares they have, or have none
      if (body.split_costs !== undefined) patch.splitCosts = body.split_costs;
      await db.transaction(async (tx) => {
        const group = await repo.lockGroup(tx, groupId);
        if (!group) throw Errors.groupForbidden();
        if (body.currency !== undefined) {
          const next = requireCurrency(body.currency).code;
          if (next !== group.currency && (await repo.hasRecords(tx, groupId))) throw Errors.rule('the currency of a group cannot change once it has records or settlements');
          patch.currency = next;
        }
        if (body.notify_threshold !== undefined) {
          patch.notifyThreshold =
            body.notify_threshold === null ? null : parseMinor(body.notify_threshold, requireCurrency(patch.currency ?? group.currency), 'notify_threshold', { allowZero: true });
        }
        if (Object.keys(patch).length) await repo.updateGroupSettings(tx, groupId, patch);
      });
    },

    /** Whether the group still has balances that are not settled (dissolving then needs force). */
    async unsettled(ex: Executor, groupId: number): Promise<boolean> {
      return (await netsOf(ex, groupId)).some((n) => n.net !== 0);
    },
  };
}

export type SplitsService = ReturnType<typeof createSplitsService>;
