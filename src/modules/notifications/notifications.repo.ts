import { and, desc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { groups, notificationReads, notifications, users } from '../../db/schema/index.ts';
import type { Scope } from './notifications.schemas.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationViewRow = NotificationRow & { read: boolean };
export type NotificationInsert = typeof notifications.$inferInsert;

const n = notifications;

/** Whether `userId` has read the notification of the current row. */
const readBy = (userId: number) =>
  sql<boolean>`exists (select 1 from notification_reads r where r.notification_id = ${n.id} and r.user_id = ${userId})`.mapWith(
    Boolean,
  );

/**
 * What a user sees at `now`: system notices, notices of the live groups they belong to, and personal
 * notices addressed to them; only between publish_at (null: at once) and expire_at (null: never).
 */
export function visibleTo(userId: number, now: Date): SQL {
  return and(
    or(
      eq(n.scope, 'system'),
      and(eq(n.scope, 'personal'), eq(n.userId, userId)),
      and(
        eq(n.scope, 'group'),
        sql`exists (select 1 from group_members m join groups g on g.id = m.group_id
                    where m.group_id = ${n.groupId} and m.user_id = ${userId} and g.dissolved_at is null)`,
      ),
    ),
    or(isNull(n.publishAt), lte(n.publishAt, now)),
    or(isNull(n.expireAt), gt(n.expireAt, now)),
  )!;
}

const newestFirst = [desc(n.pinned), desc(sql`coalesce(${n.publishAt}, ${n.createdAt})`), desc(n.id)];

async function pageWithRead(
  db: Executor,
  userId: number,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
) {
  const [rows, [count]] = await Promise.all([
    db
      .select({ row: n, read: readBy(userId) })
      .from(n)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db
      .select({ total: sql<number>`count(*)::int`.mapWith(Number) })
      .from(n)
      .where(where),
  ]);
  return { rows: rows.map((r) => ({ ...r.row, read: r.read })), total: count?.total ?? 0 };
}

/** A page of the notifications visible to `userId`, pinned first, then newest first. */
export function listVisible(
  db: Executor,
  userId: number,
  now: Date,
  opts: { scope?: Scope; limit: number; offset: number },
) {
  const where = and(visibleTo(userId, now), opts.scope ? eq(n.scope, opts.scope) : undefined);
  return pageWithRead(db, userId, where, newestFirst, opts.limit, opts.offset);
}

/** Every notification (administration), scheduled and expired ones included, newest first. */
export function listAll(db: Executor, readerId: number, opts: { scope?: Scope; limit: number; offset: number }) {
  return pageWithRead(
    db,
    readerId,
    opts.scope ? eq(n.scope, opts.scope) : undefined,
    [desc(n.createdAt), desc(n.id)],
    opts.limit,
    opts.offset,
  );
}

const unread = (userId: number) =>
  sql`not exists (select 1 from notification_reads r where r.notification_id = ${n.id} and r.user_id = ${userId})`;

export async function countUnread(db: Executor, userId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(n)
    .where(and(visibleTo(userId, now), unread(userId)));
  return row?.n ?? 0;
}

export async function listUnreadStrong(
  db: Executor,
  userId: number,
  now: Date,
  limit: number,
): Promise<NotificationViewRow[]> {
  const rows = await db
    .select()
    .from(n)
    .where(and(visibleTo(userId, now), unread(userId), eq(n.strong, true)))
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map((r) => ({ ...r, read: false }));
}

/** The notification if `userId` can see it now, else null. */
export async function findVisible(
  db: Executor,
  id: number,
  userId: number,
  now: Date,
): Promise<NotificationRow | null> {
  const [row] = await db
    .select()
    .from(n)
    .where(and(eq(n.id, id), visibleTo(userId, now)));
  return row ?? null;
}

export async function markRead(db: Executor, id: number, userId: number): Promise<void> {
  await db.insert(notificationReads).values({ notificationId: id, userId }).onConflictDoNothing();
}

/** Marks every notification visible to `userId` read (group notices included); answers how many were unread. */
export async function markAllRead(db: Executor, userId: number, now: Date): Promise<number> {
  const rows = await query<{ notification_id: number }>(
    db,
    sql`insert into notification_reads (notification_id, user_id)
        select ${n.id}, ${userId}::int from ${n} where ${visibleTo(userId, now)}
        on conflict do nothing
        returning notification_id`,
  );
  return rows.length;
}

/**
 * A notification by id, for the publishing checks of the service (which decide who may see or change
 * it); never answered to a client without those checks.
 */
export async function findById(db: Executor, id: number): Promise<NotificationRow | null> {
  const [row] = await db.select().from(n).where(eq(n.id, id));
  return row ?? null;
}

export async function withRead(db: Executor, row: NotificationRow, userId: number): Promise<NotificationViewRow> {
  const [r] = await db
    .select({ one: sql`1` })
    .from(notificationReads)
    .where(and(eq(notificationReads.notificationId, row.id), eq(notificationReads.userId, userId)));
  return { ...row, read: Boolean(r) };
}

export async function insertNotification(db: Executor, values: NotificationInsert): Promise<NotificationRow> {
  const [row] = await db.insert(n).values(values).returning();
  return row!;
}

export async function updateNotification(
  db: Executor,
  id: number,
  patch: Partial<NotificationInsert>,
): Promise<NotificationRow | null> {
  const [row] = await db
    .update(n)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(n.id, id))
    .returning();
  return row ?? null;
}

export async function deleteNotification(db: Executor, id: number): Promise<boolean> {
  const rows = await db.delete(n).where(eq(n.id, id)).returning({ id: n.id });
  return rows.length > 0;
}

/** Whether a user exists and is not soft-deleted (the addressee of a personal notice). */
export async function liveUserExists(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return Boolean(row);
}

/** Existence and dissolution of a group named as a notice's audience. */
export async function findGroupState(db: Executor, groupId: number): Promise<{ dissolvedAt: Date | null } | null> {
  const [row] = await db.select({ dissolvedAt: groups.dissolvedAt }).from(groups).where(eq(groups.id, groupId));
  return row ?? null;
}

/** Whether `userId` was already sent a notice of `key` whose params hold `match` (one alert per occasion). */
export async function wasSent(
  db: Executor,
  userId: number,
  key: string,
  match: Record<string, string | number>,
): Promise<boolean> {
  const [row] = await db
    .select({ id: n.id })
    .from(n)
    .where(
      and(
        eq(n.scope, 'personal'),
        eq(n.userId, userId),
        eq(n.key, key),
        sql`${n.params} @> ${JSON.stringify(match)}::jsonb`,
      ),
    )
    .limit(1);
  return Boolean(row);
}
