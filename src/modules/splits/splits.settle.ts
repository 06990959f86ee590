import type { Executor } from '../../db/client.ts';
import { membershipOf, requireWritableGroup, type GroupRow } from '../books/index.ts';
import { formatMinor, parseMinor, toMajorUnits } from '../../lib/currency.ts';
import { checkDate, todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { outstanding } from '../../lib/splits.ts';
import { cleanOptionalText } from '../../lib/text.ts';
import { markNoticesRead, sendSystemNotice } from '../notifications/index.ts';
import { recordEvent } from '../webhooks/index.ts';
import { netsOf, settlingParty } from './splits.balances.ts';
import type * as splitsRepo from './splits.repo.ts';
import type { Settlement, SettlementBody, SettlementListQuery } from './splits.schemas.ts';
import { groupCurrency, money, toSettlement, type SplitsDeps } from './splits.shares.ts';

/** Tells the other person of a payment that it was recorded or confirmed. */
async function notifySettlement(
  { repo }: SplitsDeps,
  ex: Executor,
  group: GroupRow,
  row: splitsRepo.SettlementRow,
  actor: number,
  confirmed: boolean,
): Promise<void> {
  const other = row.fromUserId === actor ? row.toUserId : row.fromUserId;
  const to = await repo.notifiable(ex, [other]);
  if (!to.length) return;
  const c = groupCurrency(group);
  const who = await repo.nicknameOf(ex, actor);
  const amount = money(row.amountMinor, c);
  const [key, title, content] = confirmed
    ? ([
        'settlement.confirmed',
        `${group.name}: 还款已确认 · Payment confirmed`,
        `${who} 确认了 ${amount} 的还款。\n${who} confirmed the payment of ${amount}.`,
      ] as const)
    : row.fromUserId === actor
      ? ([
          'settlement.paid_you',
          `${group.name}: 收到还款 · Payment received`,
          `${who} 记录了付给你的 ${amount}，请确认。\n${who} recorded paying you ${amount}; please confirm.`,
        ] as const)
      : ([
          'settlement.received',
          `${group.name}: 还款已记录 · Payment recorded`,
          `${who} 记录了收到你的 ${amount}。\n${who} recorded receiving ${amount} from you.`,
        ] as const);
  await sendSystemNotice(ex, {
    userId: other,
    key,
    params: {
      group: group.name,
      group_id: group.id,
      settlement_id: row.id,
      who,
      amount: toMajorUnits(row.amountMinor, c),
      currency: c.code,
    },
    title,
    content,
    link: `/groups/${group.id}/balances`,
    createdBy: actor,
  });
}

/** The amount of a payment in minor units, once both people are known and it is not more than is outstanding. */
async function checkedAmount(deps: SplitsDeps, tx: Executor, group: GroupRow, body: SettlementBody): Promise<number> {
  const c = groupCurrency(group);
  const amount = parseMinor(body.amount, c, 'amount');
  const nets = await netsOf(deps, tx, group.id);
  const members = await deps.repo.memberIds(tx, group.id);
  const known = (id: number) => members.includes(id) || nets.some((n) => n.userId === id && n.net !== 0);
  if (!known(body.from)) throw Errors.field('from', 'must be a member of the group or someone with a balance in it');
  if (!known(body.to)) throw Errors.field('to', 'must be a member of the group or someone with a balance in it');
  const open = outstanding(nets, body.from, body.to);
  if (amount > open) {
    throw Errors.conflict(
      open === 0
        ? 'nothing is outstanding between these two'
        : `at most ${formatMinor(open, c)} ${c.code} is outstanding between these two`,
    );
  }
  return amount;
}

/**
 * Records a payment between two people of the group, by either of them. The group row is locked
 * first, so two settlements of one group take turns and the second sees the first: nobody can
 * settle more than is outstanding between the two (40901), even when both press at once.
 */
export async function settle(
  deps: SplitsDeps,
  userId: number,
  groupId: number,
  body: SettlementBody,
  ex: Executor = deps.db,
): Promise<Settlement> {
  const { repo, config, clock } = deps;
  const { group: seen } = await settlingParty(deps, ex, groupId, userId);
  if (seen.dissolvedAt) throw Errors.dissolved();
  if (body.from !== userId && body.to !== userId) throw Errors.field('from', 'either from or to must be you');
  if (body.from === body.to) throw Errors.field('to', 'must differ from from');
  const note = cleanOptionalText(body.note, 'note', 200);
  // inside an idempotent request's transaction (ex), a savepoint of it
  return ex.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw Errors.groupForbidden();
    if (group.dissolvedAt) throw Errors.dissolved();
    const c = groupCurrency(group);
    const amount = await checkedAmount(deps, tx, group, body);
    const date = body.date === undefined ? todayIn(config.appTimezone, clock.now()) : checkDate(body.date, 'date');
    const row = await repo.insertSettlement(tx, {
      groupId,
      fromUserId: body.from,
      toUserId: body.to,
      amountMinor: amount,
      note,
      date,
      createdBy: userId,
    });
    await notifySettlement(deps, tx, group, row, userId, false);
    const settlement = toSettlement(row, c);
    await recordEvent(tx, [row.fromUserId, row.toUserId], 'settlement.recorded', { ...settlement });
    return settlement;
  });
}

/** A group's payments; a former member with a balance sees only their own. */
export async function listSettlements(
  deps: SplitsDeps,
  userId: number,
  groupId: number,
  q: SettlementListQuery,
): Promise<{ list: Settlement[]; total: number }> {
  const { group, former } = await settlingParty(deps, deps.db, groupId, userId);
  const c = groupCurrency(group);
  const { limit, offset } = pageOf(q);
  const { rows, total } = await deps.repo.listSettlements(deps.db, groupId, limit, offset, former ? userId : undefined);
  return { list: rows.map((r) => toSettlement(r, c)), total };
}

/** The other side confirms a payment recorded by the one who made it (or received it). */
export async function confirmSettlement(deps: SplitsDeps, userId: number, id: number): Promise<Settlement> {
  const { db, repo, clock } = deps;
  // the two people of a payment see it even after leaving the group (a removed debtor confirms
  // the payment the owner recorded for them); other members see it too, to be told it is not theirs
  const row = await repo.findVisibleSettlement(db, userId, id);
  if (!row) throw Errors.notFound('settlement');
  const group = await deps.groupById(db, row.groupId);
  if (!group) throw Errors.notFound('settlement');
  const c = groupCurrency(group);
  if (row.fromUserId !== userId && row.toUserId !== userId)
    throw Errors.groupForbidden('only the two people of a settlement may confirm it');
  if (row.createdBy === userId) throw Errors.rule('the other side confirms a settlement, not the one who recorded it');
  if (row.confirmedAt) return toSettlement(row, c);
  return db.transaction(async (tx) => {
    const done =
      (await repo.confirmSettlement(tx, row.groupId, id, clock.now())) ??
      (await repo.findSettlement(tx, row.groupId, id));
    if (!done) throw Errors.notFound('settlement');
    await notifySettlement(deps, tx, group, done, userId, true);
    // the notice that asked for this confirmation has been answered
    await markNoticesRead(tx, userId, 'settlement.paid_you', { settlement_id: id });
    return toSettlement(done, c);
  });
}

/** The one who recorded a settlement may take it back while the other side has not confirmed it. */
export async function removeSettlement({ db, repo, groupById }: SplitsDeps, userId: number, id: number): Promise<void> {
  const row = await repo.findVisibleSettlement(db, userId, id);
  if (!row) throw Errors.notFound('settlement');
  if (await membershipOf(db, row.groupId, userId)) await requireWritableGroup(db, row.groupId, userId);
  else if ((await groupById(db, row.groupId))?.dissolvedAt) throw Errors.dissolved();
  if (row.createdBy !== userId) throw Errors.groupForbidden('only the one who recorded a settlement may delete it');
  if (row.confirmedAt) throw Errors.rule('a confirmed settlement cannot be deleted');
  await repo.deleteSettlement(db, row.groupId, id);
}
