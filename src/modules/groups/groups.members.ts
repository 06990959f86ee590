import { membershipOf, requireGroupMember, requireGroupOwner } from '../books/index.ts';
import { Errors } from '../../lib/errors.ts';
import { toGroup, view, type GroupsDeps } from './groups.deps.ts';
import type { Group, Member } from './groups.schemas.ts';

/** The live groups the person is in. */
export async function listGroups({ db, repo }: GroupsDeps, userId: number): Promise<{ list: Group[] }> {
  return { list: (await repo.listLiveGroups(db, userId)).map(toGroup) };
}

/** One group the person is in. */
export async function getGroup(deps: GroupsDeps, userId: number, groupId: number): Promise<Group> {
  await requireGroupMember(deps.db, groupId, userId);
  return view(deps, groupId, userId);
}

/** The members of a group the person is in. */
export async function groupMembers(
  { db, repo }: GroupsDeps,
  userId: number,
  groupId: number,
): Promise<{ list: Member[] }> {
  await requireGroupMember(db, groupId, userId);
  const rows = await repo.listMembers(db, groupId);
  return {
    list: rows.map((r) => ({
      user_id: r.userId,
      nickname: r.nickname,
      avatar_url: r.avatarUrl,
      role: r.role,
      joined_at: r.joinedAt.toISOString(),
    })),
  };
}

/** The owner removes another member of a live group. */
export async function removeMember(
  { db, repo }: GroupsDeps,
  userId: number,
  groupId: number,
  memberId: number,
): Promise<void> {
  const group = await requireGroupOwner(db, groupId, userId);
  const target = memberId === userId ? true : await membershipOf(db, groupId, memberId);
  if (!target) throw Errors.notFound('group member');
  if (group.dissolvedAt) throw Errors.dissolved();
  if (memberId === userId) throw Errors.rule('the owner cannot remove themselves; dissolve the group instead');
  if (!(await repo.deleteMember(db, groupId, memberId))) throw Errors.notFound('group member');
}
