import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { categories, groupMembers, groups, settlements, transactions, users } from '../../db/schema/index.ts';
import type { CategoryKind } from '../../lib/domain.ts';

/** The current members of a group with their nicknames. */
export async function membersOf(db: Executor, groupId: number): Promise<{ userId: number; nickname: string }[]> {
  return db
    .select({ userId: groupMembers.userId, nickname: users.nickname })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, groupId));
}

export async function nicknameOf(db: Executor, userId: number): Promise<string> {
  const [row] = await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, userId));
  return row?.nickname ?? '';
}

/**
 * The file's record ids the user already has from this app, with the group they are in: an
 * imported record is in a user's books once, whatever group the file went to.
 */
export async function importedIds(
  db: Executor,
  userId: number,
  source: string,
  ids: string[],
): Promise<{ externalId: string; groupId: number | null }[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ externalId: transactions.externalId, groupId: transactions.groupId })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        eq(transactions.source, source),
        isNotNull(transactions.externalId),
        inArray(transactions.externalId, ids),
      ),
    );
  return rows.map((r) => ({ externalId: r.externalId!, groupId: r.groupId }));
}

/** A live group of the user's by id (they are a member of it), or null; `lock`: locked until the transaction ends. */
export async function liveGroupOf(db: Executor, userId: number, groupId: number, opts: { lock?: boolean } = {}) {
  const q = db
    .select({ group: groups })
    .from(groups)
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)))
    .where(and(eq(groups.id, groupId), isNull(groups.dissolvedAt)));
  const [row] = opts.lock ? await q.for('update', { of: groups }) : await q;
  return row?.group ?? null;
}

/** The payments of a group as (from, to, amount, date, note) keys, with how often each occurs. */
export async function settlementKeys(db: Executor, groupId: number): Promise<Map<string, number>> {
  const rows = await db
    .select({
      key: sql<string>`${settlements.fromUserId} || ':' || ${settlements.toUserId} || ':' || ${settlements.amountMinor} || ':' || ${settlements.date} || ':' || ${settlements.note}`,
      n: sql<number>`count(*)::int`.mapWith(Number),
    })
    .from(settlements)
    .where(eq(settlements.groupId, groupId))
    .groupBy(settlements.fromUserId, settlements.toUserId, settlements.amountMinor, settlements.date, settlements.note);
  return new Map(rows.map((r) => [r.key, r.n]));
}

export function settlementKey(from: number, to: number, amount: number, date: string, note: string): string {
  return `${from}:${to}:${amount}:${date}:${note}`;
}

/** The user's categories of a kind: id and name, in their order. */
export async function categoriesOf(db: Executor, userId: number, kind: CategoryKind) {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(and(eq(categories.userId, userId), eq(categories.kind, kind)))
    .orderBy(categories.sort, categories.id);
}

/**
 * A person of an imported group who has no account here: a user row nobody can sign in as (no
 * provider, username or password; disabled), named as the file names them, who takes no notices.
 */
export async function insertPlaceholder(db: Executor, nickname: string, baseCurrency: string): Promise<number> {
  const [row] = await db
    .insert(users)
    .values({ nickname, status: 'disabled', notifySplits: false, baseCurrency })
    .returning({ id: users.id });
  return row!.id;
}
