import { and, count, desc, eq, ilike, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

export interface DashboardCounts {
  users_total: number;
  users_active: number;
  users_disabled: number;
  users_deleted: number;
  users_new_today: number;
  transactions_total: number;
  transactions_today: number;
  groups_total: number;
  groups_live: number;
  feedback_pending: number;
}

/** Every figure of the dashboard in one round trip; "today" is [start, end) of the day `today` in `tz`. */
export async function dashboardCounts(db: Executor, today: string, tz: string): Promise<DashboardCounts> {
  const start = sql`((${today})::date::timestamp at time zone ${tz})`;
  const end = sql`(((${today})::date + 1)::timestamp at time zone ${tz})`;
  const [row] = await query<Record<keyof DashboardCounts, number | string>>(
    db,
    sql`select
      (select count(*) from users)::int as users_total,
      (select count(*) from users where deleted_at is null and status = 'active')::int as users_active,
      (select count(*) from users where deleted_at is null and status = 'disabled')::int as users_disabled,
      (select count(*) from users where deleted_at is not null)::int as users_deleted,
      (select count(*) from users where created_at >= ${start} and created_at < ${end})::int as users_new_today,
      (select count(*) from transactions)::int as transactions_total,
      (select count(*) from transactions where created_at >= ${start} and created_at < ${end})::int as transactions_today,
      (select count(*) from groups)::int as groups_total,
      (select count(*) from groups where dissolved_at is null)::int as groups_live,
      (select count(*) from feedback where status = 'pending')::int as feedback_pending`,
  );
  const out = {} as DashboardCounts;
  for (const [k, v] of Object.entries(row!)) out[k as keyof DashboardCounts] = Number(v);
  return out;
}

/** `%`, `_` and `\` taken literally inside an ILIKE pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface UserFilter {
  keyword?: string;
  status: 'active' | 'disabled' | 'deleted' | 'all';
  limit: number;
  offset: number;
}

export async function listUsers(db: Executor, f: UserFilter): Promise<{ rows: UserRow[]; total: number }> {
  const where: SQL[] = [];
  if (f.status === 'active') where.push(isNull(users.deletedAt), eq(users.status, 'active'));
  if (f.status === 'disabled') where.push(isNull(users.deletedAt), eq(users.status, 'disabled'));
  if (f.status === 'deleted') where.push(isNotNull(users.deletedAt));
  const keyword = f.keyword?.trim();
  if (keyword) {
    const byName = ilike(users.nickname, `%${escapeLike(keyword)}%`);
    const asId = /^\d{1,10}$/.test(keyword) && Number(keyword) <= 2147483647 ? Number(keyword) : null;
    where.push(asId !== null ? or(byName, eq(users.id, asId))! : byName);
  }
  const cond = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db.select().from(users).where(cond).orderBy(desc(users.createdAt), desc(users.id)).limit(f.limit).offset(f.offset),
    db.select({ n: count() }).from(users).where(cond),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/**
 * Changes that could leave the service without an administrator take turns (across processes),
 * so that two administrators demoting each other at once cannot both succeed.
 */
export async function lockAdminChanges(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(727274101)`);
}

export async function lockUserRow(tx: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

/** Active administrators (not deleted, not disabled) other than `exceptId`. */
export async function countOtherActiveAdmins(tx: Executor, exceptId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active'), isNull(users.deletedAt), ne(users.id, exceptId)));
  return Number(row?.n ?? 0);
}

export async function softDeleteUser(tx: Executor, id: number, at: Date): Promise<UserRow | undefined> {
  const [row] = await tx
    .update(users)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .returning();
  return row;
}

export async function restoreUser(db: Executor, id: number, at: Date): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ deletedAt: null, updatedAt: at })
    .where(and(eq(users.id, id), isNotNull(users.deletedAt)))
    .returning();
  return row;
}

export async function updateLiveUser(
  tx: Executor,
  id: number,
  patch: { status?: 'active' | 'disabled'; role?: 'user' | 'admin' },
  at: Date,
): Promise<UserRow | undefined> {
  const [row] = await tx
    .update(users)
    .set({ ...patch, updatedAt: at })
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .returning();
  return row;
}
