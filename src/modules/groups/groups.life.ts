import { baseCurrencyOf, membershipOf, requireLiveGroupOwner, requireMembership } from '../books/index.ts';
import { requireCurrency } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';
import { balanceRows } from '../splits/index.ts';
import { normalizeInviteCode, view, withFreshCode, type GroupsDeps } from './groups.deps.ts';
import { GROUP_MEMBER_CAP, type Group } from './groups.schemas.ts';

/** A new group with its creator as owner, under a fresh invite code. */
export async function createGroup(
  deps: GroupsDeps,
  userId: number,
  body: { name: string; currency?: string; split_costs?: boolean },
): Promise<Group> {
  const { db, repo, defaultCurrency } = deps;
  const name = cleanText(body.name, 'name', 1, 30);
  // a new group keeps its balances in its creator's base currency unless told otherwise
  const currency =
    body.currency !== undefined
      ? requireCurrency(body.currency).code
      : ((await baseCurrencyOf(db, userId).catch(() => null))?.code ?? defaultCurrency);
  const group = await db.transaction(async (tx) => {
    const row = await withFreshCode(deps, (code) =>
      repo.insertGroup(tx, userId, name, code, currency, body.split_costs === true),
    );
    await repo.insertMember(tx, row.id, userId, 'owner');
    return row;
  });
  return view(deps, group.id, userId);
}

/** Joins the group of an invite code (already a member: the group as it is). */
export async function joinGroup(deps: GroupsDeps, userId: number, rawCode: string): Promise<Group> {
  const { db, repo } = deps;
  const code = normalizeInviteCode(rawCode);
  const groupId = await db.transaction(async (tx) => {
    // The row lock serializes joins of one group, so the member count read below cannot be
    // overtaken by a concurrent join: the cap holds under any concurrency.
    const group = await repo.lockGroupByCode(tx, code);
    if (!group) throw Errors.notFound('invite code');
    if (group.dissolvedAt) throw Errors.dissolved();
    if (await membershipOf(tx, group.id, userId)) return group.id;
    if ((await repo.countMembers(tx, group.id)) >= GROUP_MEMBER_CAP)
      throw Errors.rule(`a group has at most ${GROUP_MEMBER_CAP} members`);
    await repo.insertMember(tx, group.id, userId, 'member');
    return group.id;
  });
  return view(deps, groupId, userId);
}

/** A member leaves a group; the owner cannot. */
export async function leaveGroup({ db, repo }: GroupsDeps, userId: number, groupId: number): Promise<void> {
  const m = await requireMembership(db, groupId, userId);
  if (m.role === 'owner' || m.group.ownerId === userId)
    throw Errors.rule('the owner cannot leave their own group; dissolve it instead');
  // transactions recorded in the group keep their group_id
  await repo.deleteMember(db, groupId, userId);
}

/**
 * In a group that splits costs, balances not yet settled stop a dissolve unless `force` (they
 * stay readable, frozen). A group that does not split (every group of a first-version client)
 * dissolves as the first contract says, whatever explicit splits left behind.
 */
export async function dissolveGroup(
  { db, clock, repo }: GroupsDeps,
  userId: number,
  groupId: number,
  force = false,
): Promise<void> {
  const group = await requireLiveGroupOwner(db, groupId, userId);
  if (
    !force &&
    group.splitCosts &&
    (await balanceRows(db, groupId)).some((r) => r.paid - r.share + r.sent - r.received !== 0)
  ) {
    throw Errors.rule('the group has unsettled balances; settle them first or dissolve with force=true');
  }
  // the record, memberships and transactions' group_id stay; the code stops joining
  if (!(await repo.markDissolved(db, groupId, userId, clock.now()))) throw Errors.dissolved();
}

/** A fresh invite code for a live group (owner only); the old one stops joining. */
export async function refreshInviteCode(
  deps: GroupsDeps,
  userId: number,
  groupId: number,
): Promise<{ invite_code: string }> {
  const { db, repo } = deps;
  await requireLiveGroupOwner(db, groupId, userId);
  return withFreshCode(deps, async (code) => {
    const res = await repo.updateInviteCode(db, groupId, userId, code);
    if (res === 'gone') throw Errors.dissolved();
    return res === 'ok' ? { invite_code: code } : null;
  });
}
