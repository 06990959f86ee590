import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Executor } from '../../db/client.ts';
import { groupMembers, groups, users } from '../../db/schema/index.ts';
import type { GroupRow } from '../books/index.ts';

export type GroupViewRow = GroupRow & { role: 'owner' | 'member'; memberCount: number };

const memberCount = sql<number>`(select count(*)::int from group_members m where m.group_id = ${groups.id})`.mapWith(
  Number,
);

/** Inserts a group unless its invite code is taken; null on a code collision. */
export async function insertGroup(
  db: Executor,
  ownerId: number,
  name: string,
  inviteCode: string,
  currency: string,
  splitCosts = false,
): Promise<GroupRow | null> {
  const [row] = await db
    .insert(groups)
    // a new group tells its members of every shared record that names them; the owner may raise the threshold
    .values({ name, ownerId, inviteCode, currency, splitCosts, notifyThreshold: 0 })
    .onConflictDoNothing({ target: groups.inviteCode })
    .returning();
  return row ?? null;
}

/** Adds a membership; false when the user already is a member (the primary key decides, so races cannot duplicate). */
export async function insertMember(
  db: Executor,
  groupId: number,
  userId: number,
  role: 'owner' | 'member',
): Promise<boolean> {
  const rows = await db
    .insert(groupMembers)
    .values({ groupId, userId, role })
    .onConflictDoNothing({ target: [groupMembers.groupId, groupMembers.userId] })
    .returning({ userId: groupMembers.userId });
  return rows.length > 0;
}

/** The group behind an invite code, locked for the rest of the transaction so that joins take turns. */
export async function lockGroupByCode(db: Executor, inviteCode: string): Promise<GroupRow | null> {
  const [row] = await db.select().from(groups).where(eq(groups.inviteCode, inviteCode)).for('update');
  return row ?? null;
}

export async function countMembers(db: Executor, groupId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId));
  return row?.n ?? 0;
}

/** One group as the member `userId` sees it; null when they are not a member. */
export async function findGroupView(db: Executor, groupId: number, userId: number): Promise<GroupViewRow | null> {
  const [row] = await db
    .select({ group: groups, role: groupMembers.role, memberCount })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
  return row ? { ...row.group, role: row.role, memberCount: row.memberCount } : null;
}

/** The live (not dissolved) groups of a user, the most recently joined first. */
export async function listLiveGroups(db: Executor, userId: number): Promise<GroupViewRow[]> {
  const rows = await db
    .select({ group: groups, role: groupMembers.role, memberCount })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.userId, userId), isNull(groups.dissolvedAt)))
    .orderBy(desc(groupMembers.joinedAt), desc(groups.id));
  return rows.map((r) => ({ ...r.group, role: r.role, memberCount: r.memberCount }));
}

/** Members of a group, the owner first, then by join time. */
export async function listMembers(db: Executor, groupId: number) {
  return db
    .select({
      userId: groupMembers.userId,
      nickname: users.nickname,
      avatarUrl: users.avatarUrl,
      role: groupMembers.role,
      joinedAt: groupMembers.joinedAt,
    })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(
      sql`case when ${groupMembers.role} = 'owner' then 0 else 1 end`,
      asc(groupMembers.joinedAt),
      asc(groupMembers.userId),
    );
}

/** Removes a plain member (never the owner); false when `userId` is not a plain member of the group. */
export async function deleteMember(db: Executor, groupId: number, userId: number): Promise<boolean> {
  const rows = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId), ne(groupMembers.role, 'owner')))
    .returning({ userId: groupMembers.userId });
  return rows.length > 0;
}

/** Marks a live group of `ownerId` dissolved; false when it was already dissolved. */
export async function markDissolved(db: Executor, groupId: number, ownerId: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(groups)
    .set({ dissolvedAt: at })
    .where(and(eq(groups.id, groupId), eq(groups.ownerId, ownerId), isNull(groups.dissolvedAt)))
    .returning({ id: groups.id });
  return rows.length > 0;
}

/**
 * Replaces the invite code of a live group of `ownerId`. 'taken' when another group holds that
 * code (unique violation), 'gone' when the group is not live any more.
 */
export async function updateInviteCode(
  db: Executor,
  groupId: number,
  ownerId: number,
  inviteCode: string,
): Promise<'ok' | 'taken' | 'gone'> {
  try {
    const rows = await db
      .update(groups)
      .set({ inviteCode })
      .where(and(eq(groups.id, groupId), eq(groups.ownerId, ownerId), isNull(groups.dissolvedAt)))
      .returning({ id: groups.id });
    return rows.length ? 'ok' : 'gone';
  } catch (err) {
    if (isUniqueViolation(err)) return 'taken';
    throw err;
  }
}

/** A group row by id, whoever asks (for a record or a settlement already in it); null when there is none. */
export async function groupById(db: Executor, groupId: number): Promise<GroupRow | null> {
  const [row] = await db.select().from(groups).where(eq(groups.id, groupId));
  return row ?? null;
}
