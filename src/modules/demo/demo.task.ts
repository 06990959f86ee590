import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { groupMembers, groups, images, recurringRules, trackEvents, users } from '../../db/schema/index.ts';
import { write } from '../books/index.ts';
import type { SchedulerTask } from '../scheduler.ts';

/** how long a demo account lives */
export const DEMO_TTL_MS = 24 * 3600 * 1000;
const BATCH = 100;

/** Demo users created before `cutoff`, oldest first. */
async function expiredDemoUsers(db: Executor, cutoff: Date, afterId: number): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isDemo, true), lt(users.createdAt, cutoff), sql`${users.id} > ${afterId}`))
    .orderBy(asc(users.id))
    .limit(BATCH);
  return rows.map((r) => r.id);
}

/**
 * The groups a demo user owns would go with the user (ON DELETE CASCADE), but rows of other users
 * still point at them. A group that still has other members is handed to the member who joined
 * first, so that the people sharing it keep it whole. A group with no other member left is
 * deleted; the transactions and rules that former members recorded in it become personal
 * (as they would be had the group never existed).
 */
async function releaseOwnedGroups(tx: Executor, userId: number): Promise<void> {
  const owned = await tx.select({ id: groups.id }).from(groups).where(eq(groups.ownerId, userId));
  for (const { id: groupId } of owned) {
    const [heir] = await tx
      .select({ userId: groupMembers.userId })
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), ne(groupMembers.userId, userId)))
      .orderBy(asc(groupMembers.joinedAt), asc(groupMembers.userId))
      .limit(1);
    if (heir) {
      await tx
        .update(groups)
        .set({ ownerId: heir.userId })
        .where(and(eq(groups.id, groupId), eq(groups.ownerId, userId)));
      await tx
        .update(groupMembers)
        .set({ role: 'owner' })
        .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, heir.userId)));
      await tx
        .update(groupMembers)
        .set({ role: 'member' })
        .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
    } else {
      await write(tx, userId, { type: 'detachGroup', groupId });
      await tx
        .update(recurringRules)
        .set({ groupId: null })
        .where(and(eq(recurringRules.groupId, groupId), ne(recurringRules.userId, userId)));
    }
  }
}

/** Hard-deletes one demo user and everything of theirs, in one transaction. False when it is no longer there. */
async function purgeOne(db: Db, userId: number, cutoff: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    // re-checked under a row lock: a user cannot be purged twice or stop being a demo user meanwhile
    const [u] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.isDemo, true), lt(users.createdAt, cutoff)))
      .for('update');
    if (!u) return false;
    await releaseOwnedGroups(tx, userId);
    // rows that would otherwise survive with their author set to null
    await tx.delete(images).where(eq(images.userId, userId));
    await tx.delete(trackEvents).where(eq(trackEvents.userId, userId));
    // everything else (books, tags, filters, budgets, memberships, tokens, feedback...) cascades
    await tx.delete(users).where(eq(users.id, userId));
    return true;
  });
}

export interface PurgeResult {
  purged: number[];
  failed: number[];
}

/** Purges every demo user created more than 24 hours before `now`. One failing user does not stop the others. */
export async function purgeDemoUsers(
  db: Db,
  now: Date,
  log?: { error: (obj: object, msg: string) => void },
): Promise<PurgeResult> {
  const cutoff = new Date(now.getTime() - DEMO_TTL_MS);
  const result: PurgeResult = { purged: [], failed: [] };
  let afterId = 0;
  for (;;) {
    const ids = await expiredDemoUsers(db, cutoff, afterId);
    if (!ids.length) break;
    afterId = ids[ids.length - 1]!;
    for (const id of ids) {
      try {
        if (await purgeOne(db, id, cutoff)) result.purged.push(id);
      } catch (err) {
        // left for the next run (and visible in the log) rather than blocking every other purge
        result.failed.push(id);
        log?.error({ err, userId: id }, 'demo user purge failed');
      }
    }
    if (ids.length < BATCH) break;
  }
  return result;
}

/** Hard-deletes demo users older than 24 hours with all their data. */
export const demoPurgeTask: SchedulerTask = {
  name: 'demo-purge',
  run: async ({ db, log, userState }, now) => {
    const result = await purgeDemoUsers(db, now, log);
    // their tokens stop working at once in this process
    for (const id of result.purged) userState.invalidate(id);
    if (result.purged.length) log.info({ purged: result.purged.length }, 'demo users purged');
    return result;
  },
};
