import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { groupMembers, groups } from '../db/schema/index.ts';
import { Errors } from './errors.ts';

export type GroupRow = typeof groups.$inferSelect;

/**
 * Authorization checks shared by every feature. A service starts with one of these; they answer
 * with the contract's codes so that no feature invents its own.
 */
export async function membershipOf(db: Executor, groupId: number, userId: number): Promise<{ group: GroupRow; role: 'owner' | 'member' } | null> {
  const [row] = await db
    .select({ group: groups, role: groupMembers.role })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
  return row ?? null;
}

/** The caller must be a member (dissolved groups stay readable to their members): else 40302. */
export async function requireGroupMember(db: Executor, groupId: number, userId: number): Promise<GroupRow> {
  const m = await membershipOf(db, groupId, userId);
  if (!m) throw Errors.groupForbidden();
  return m.group;
}

/** The caller must own the group: else 40302. */
export async function requireGroupOwner(db: Executor, groupId: number, userId: number): Promise<GroupRow> {
  const m = await membershipOf(db, groupId, userId);
  if (!m || m.group.ownerId !== userId) throw Errors.groupForbidden('only the group owner may do this');
  return m.group;
}

/** Writing into a group: member (else 40302) of a live group (else 40902). */
export async function requireWritableGroup(db: Executor, groupId: number, userId: number): Promise<GroupRow> {
  const group = await requireGroupMember(db, groupId, userId);
  if (group.dissolvedAt) throw Errors.dissolved();
  return group;
}
