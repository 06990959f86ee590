import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { groupMembers, groups, settlements, transactionShares, users } from '../../db/schema/index.ts';
import type { SplitMode } from '../../lib/splits.ts';

export type SettlementRow = typeof settlements.$inferSelect;

/** The stored split of a record: its mode and each member's entered value. */
export async function splitOf(
  db: Executor,
  transactionId: number,
): Promise<{ mode: SplitMode; members: { userId: number; value: string | null; amountMinor: number }[] } | null> {
  const rows = await db
    .select({
      userId: transactionShares.userId,
      mode: transactionShares.mode,
      value: transactionShares.value,
      amountMinor: transactionShares.amountMinor,
    })
    .from(transactionShares)
    .where(eq(transactionShares.transactionId, transactionId))
    .orderBy(asc(transactionShares.userId));
  if (!rows.length) return null;
  return {
    mode: rows[0]!.mode,
    members: rows.map((r) => ({ userId: r.userId, value: r.value, amountMinor: r.amountMinor })),
  };
}

/** User ids of the current members of a group. */
export async function memberIds(db: Executor, groupId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: groupMembers.userId })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(asc(groupMembers.userId));
  return rows.map((r) => r.userId);
}

/** The group row, locked until the end of the transaction: settlements of one group take turns. */
export async function lockGroup(db: Executor, groupId: number) {
  const [row] = await db.select().from(groups).where(eq(groups.id, groupId)).for('update');
  return row ?? null;
}

export interface BalanceRow {
  user_id: number;
  paid: number;
  share: number;
  sent: number;
  received: number;
}

/**
 * Every person's totals in one group, in one statement: what they paid (expenses) minus what they
 * received (incomes), their shares of expenses minus of incomes, and settlements sent and received.
 * Integer sums of minor units. A record nobody shares (a group that does not split costs) is
 * shared books, not a debt: its payer is not counted as having paid it.
 */
export async function balanceRows(db: Executor, groupId: number): Promise<BalanceRow[]> {
  const rows = await query<{ user_id: number; paid: string; share: string; sent: string; received: string }>(
    db,
    sql`with p as (
          select t.paid_by as user_id, sum(case when t.kind = 'income' then -t.amount_cents else t.amount_cents end) as v
          from transactions t where t.group_id = ${groupId} and t.paid_by is not null
            and exists (select 1 from transaction_shares x where x.transaction_id = t.id)
          group by t.paid_by
        ), s as (
          select sh.user_id, sum(case when t.kind = 'income' then -sh.amount_cents else sh.amount_cents end) as v
          from transaction_shares sh join transactions t on t.id = sh.transaction_id
          where sh.group_id = ${groupId} group by sh.user_id
        ), so as (
          select from_user_id as user_id, sum(amount_cents) as v from settlements where group_id = ${groupId} group by from_user_id
        ), si as (
          select to_user_id as user_id, sum(amount_cents) as v from settlements where group_id = ${groupId} group by to_user_id
        ), ids as (
          select user_id from p union select user_id from s union select user_id from so union select user_id from si
        )
        select ids.user_id, coalesce(p.v, 0)::text as paid, coalesce(s.v, 0)::text as share,
               coalesce(so.v, 0)::text as sent, coalesce(si.v, 0)::text as received
        from ids left join p using (user_id) left join s using (user_id) left join so using (user_id) left join si using (user_id)
        order by ids.user_id`,
  );
  return rows.map((r) => ({
    user_id: Number(r.user_id),
    paid: Number(r.paid),
    share: Number(r.share),
    sent: Number(r.sent),
    received: Number(r.received),
  }));
}

/** Nickname, avatar and current membership of the given users in a group. */
export async function people(db: Executor, groupId: number, ids: number[]) {
  if (!ids.length) return [];
  return db
    .select({
      userId: users.id,
      nickname: users.nickname,
      avatarUrl: users.avatarUrl,
      member: sql<boolean>`exists (select 1 from group_members m where m.group_id = ${groupId} and m.user_id = ${users.id})`,
    })
    .from(users)
    .where(inArray(users.id, ids));
}

export async function insertSettlement(db: Executor, v: typeof settlements.$inferInsert): Promise<SettlementRow> {
  const [row] = await db.insert(settlements).values(v).returning();
  return row!;
}

/** A group's settlements, the latest first; `involving`: only those this user paid or received. */
export async function listSettlements(
  db: Executor,
  groupId: number,
  limit: number,
  offset: number,
  involving?: number,
): Promise<{ rows: SettlementRow[]; total: number }> {
  const where =
    involving === undefined
      ? eq(settlements.groupId, groupId)
      : and(
          eq(settlements.groupId, groupId),
          or(eq(settlements.fromUserId, involving), eq(settlements.toUserId, involving)),
        );
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(settlements)
      .where(where)
      .orderBy(desc(settlements.createdAt), desc(settlements.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(settlements)
      .where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

/** A settlement of this group (the group in the WHERE: another group's id is not found). */
export async function findSettlement(db: Executor, groupId: number, id: number): Promise<SettlementRow | null> {
  const [row] = await db
    .select()
    .from(settlements)
    .where(and(eq(settlements.id, id), eq(settlements.groupId, groupId)));
  return row ?? null;
}

/**
 * A settlement the viewer paid or received, or one of a group the viewer belongs to; null for
 * anyone else (not found). Its two people see it even after leaving the group.
 */
export async function findVisibleSettlement(db: Executor, viewerId: number, id: number): Promise<SettlementRow | null> {
  const [row] = await db
    .select()
    .from(settlements)
    .where(
      and(
        eq(settlements.id, id),
        or(
          eq(settlements.fromUserId, viewerId),
          eq(settlements.toUserId, viewerId),
          sql`exists (select 1 from group_members m where m.group_id = ${settlements.groupId} and m.user_id = ${viewerId})`,
        ),
      ),
    );
  return row ?? null;
}

/** Whether a payment this user made or received in the group still awaits confirmation. */
export async function hasOpenSettlement(db: Executor, groupId: number, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: settlements.id })
    .from(settlements)
    .where(
      and(
        eq(settlements.groupId, groupId),
        isNull(settlements.confirmedAt),
        or(eq(settlements.fromUserId, userId), eq(settlements.toUserId, userId)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function confirmSettlement(
  db: Executor,
  groupId: number,
  id: number,
  at: Date,
): Promise<SettlementRow | null> {
  const [row] = await db
    .update(settlements)
    .set({ confirmedAt: at })
    .where(and(eq(settlements.id, id), eq(settlements.groupId, groupId), sql`${settlements.confirmedAt} is null`))
    .returning();
  return row ?? null;
}

export async function deleteSettlement(db: Executor, groupId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(settlements)
    .where(and(eq(settlements.id, id), eq(settlements.groupId, groupId)))
    .returning({ id: settlements.id });
  return rows.length > 0;
}

/** Of these users, the ones who take personal notifications of shared expenses and settlements. */
export async function notifiable(db: Executor, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.notifySplits, true), sql`${users.deletedAt} is null`));
  return rows.map((r) => r.id);
}

export async function nicknameOf(db: Executor, userId: number): Promise<string> {
  const [row] = await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, userId));
  return row?.nickname ?? '';
}

export async function hasRecords(db: Executor, groupId: number): Promise<boolean> {
  const rows = await query<{ x: number }>(
    db,
    sql`select 1 as x from transactions where group_id = ${groupId} union all select 1 from settlements where group_id = ${groupId} limit 1`,
  );
  return rows.length > 0;
}

export async function updateGroupSettings(
  db: Executor,
  groupId: number,
  patch: Partial<typeof groups.$inferInsert>,
): Promise<void> {
  await db.update(groups).set(patch).where(eq(groups.id, groupId));
}
