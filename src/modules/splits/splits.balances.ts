import type { Executor } from '../../db/client.ts';
import { membershipOf, type GroupRow } from '../books/index.ts';
import { toMajorUnits } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { suggestSettlements } from '../../lib/splits.ts';
import type { Balances, Suggested } from './splits.schemas.ts';
import { groupCurrency, type SplitsDeps } from './splits.shares.ts';

/**
 * `former`: the balances as a former member sees them: their own line and the lines of the
 * people on the other side of their balance (those they may pay or be paid by), nobody else.
 */
async function balancesOf({ repo }: SplitsDeps, ex: Executor, group: GroupRow, former?: number): Promise<Balances> {
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

/** What each person with a line in a group is owed (positive) or owes (negative), in minor units. */
export async function netsOf(
  { repo }: SplitsDeps,
  ex: Executor,
  groupId: number,
): Promise<{ userId: number; net: number }[]> {
  return (await repo.balanceRows(ex, groupId)).map((r) => ({
    userId: r.user_id,
    net: r.paid - r.share + r.sent - r.received,
  }));
}

/**
 * Who may take part in settling a group: its members, and a former member (who left or was
 * removed) while they still have a balance in it or a payment of theirs awaits confirmation;
 * anyone else 40302. A former member reaches nothing else of the group: not its records, not the
 * balances of people who are not on the other side of theirs.
 */
export async function settlingParty(
  deps: SplitsDeps,
  ex: Executor,
  groupId: number,
  userId: number,
): Promise<{ group: GroupRow; former: boolean }> {
  const m = await membershipOf(ex, groupId, userId);
  if (m) return { group: m.group, former: false };
  const group = await deps.groupById(ex, groupId);
  if (
    group &&
    ((await netsOf(deps, ex, groupId)).some((n) => n.userId === userId && n.net !== 0) ||
      (await deps.repo.hasOpenSettlement(ex, groupId, userId)))
  ) {
    return { group, former: true };
  }
  throw Errors.groupForbidden();
}

/** The balances of a group as the person may see them. */
export async function groupBalances(deps: SplitsDeps, userId: number, groupId: number): Promise<Balances> {
  const { group, former } = await settlingParty(deps, deps.db, groupId, userId);
  return balancesOf(deps, deps.db, group, former ? userId : undefined);
}

/** The payments that would settle a group, as the person may see them. */
export async function suggestedSettlements(deps: SplitsDeps, userId: number, groupId: number): Promise<Suggested> {
  const { group, former } = await settlingParty(deps, deps.db, groupId, userId);
  const c = groupCurrency(group);
  // a former member is shown the payments that settle their own balance
  const transfers = suggestSettlements(await netsOf(deps, deps.db, groupId)).filter(
    (t) => !former || t.from === userId || t.to === userId,
  );
  return {
    currency: c.code,
    list: transfers.map((t) => ({ from: t.from, to: t.to, amount: toMajorUnits(t.amount, c) })),
  };
}

/** Whether the group still has balances that are not settled (dissolving then needs force). */
export async function hasUnsettled(deps: SplitsDeps, ex: Executor, groupId: number): Promise<boolean> {
  return (await netsOf(deps, ex, groupId)).some((n) => n.net !== 0);
}
