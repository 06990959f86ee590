import { and, asc, count, eq, max, or, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { accounts, transactions, users } from '../../db/schema/index.ts';

export type AccountRow = typeof accounts.$inferSelect;
export type AccountWithBalance = AccountRow & { balance: number };

/**
 * What a row does to the balance of the account it is booked in (`account_id`): an income adds, an
 * expense and a transfer out take away, an adjustment adds its signed amount. A transfer also adds
 * `to_amount` to its `to_account_id`.
 */
export const SIGNED_AMOUNT = sql.raw(
  `case t.kind when 'income' then t.amount_cents when 'adjustment' then t.amount_cents else -t.amount_cents end`,
);

/**
 * Every account of the user with its balance: all rows, or those dated on or before `asOf` (the
 * opening balance then counts only from its opening date). One statement; each account's sums are
 * index-only scans of the account indexes.
 */
export async function listWithBalances(db: Executor, userId: number, asOf?: string): Promise<AccountWithBalance[]> {
  const dateCut = asOf === undefined ? sql`` : sql` and t.date <= ${asOf}::date`;
  const opening =
    asOf === undefined
      ? sql`a.opening_balance`
      : sql`case when a.opening_date <= ${asOf}::date then a.opening_balance else 0 end`;
  const rows = await query<{
    id: number;
    user_id: number;
    name: string;
    type: AccountRow['type'];
    currency: string;
    opening_balance: string | number;
    opening_date: string;
    color: string;
    icon: string;
    note: string;
    archived: boolean;
    is_default: boolean;
    sort: number;
    created_at: Date | string;
    updated_at: Date | string;
    balance: string | number;
  }>(
    db,
    sql`select a.id, a.user_id, a.name, a.type, a.currency, a.opening_balance, to_char(a.opening_date, 'YYYY-MM-DD') as opening_date,
               a.color, a.icon, a.note, a.archived, a.is_default, a.sort, a.created_at, a.updated_at,
               ${opening} + coalesce(o.s, 0) + coalesce(i.s, 0) as balance
        from accounts a
        left join lateral (select sum(${SIGNED_AMOUNT}) as s from transactions t where t.account_id = a.id${dateCut}) o on true
        left join lateral (select sum(t.to_amount) as s from transactions t where t.to_account_id = a.id${dateCut}) i on true
        where a.user_id = ${userId}
        order by a.sort, a.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    name: r.name,
    type: r.type,
    currency: r.currency,
    openingBalance: Number(r.opening_balance),
    openingDate: r.opening_date,
    color: r.color,
    icon: r.icon,
    note: r.note,
    archived: r.archived,
    isDefault: r.is_default,
    sort: r.sort,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    balance: Number(r.balance),
  }));
}

export async function findAccount(db: Executor, userId: number, id: number): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.id, id)));
  return row;
}

/** Same as findAccount, and locks the row until the end of the transaction. */
export async function lockAccount(db: Executor, userId: number, id: number): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.id, id)))
    .for('update');
  return row;
}

/** Serializes the account writes of one user (default flag, count limit, complete reorder lists). */
export async function lockOwner(db: Executor, userId: number): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function countAccounts(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(accounts).where(eq(accounts.userId, userId));
  return Number(row?.n ?? 0);
}

export async function nextSort(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ m: max(accounts.sort) })
    .from(accounts)
    .where(eq(accounts.userId, userId));
  return row?.m === null || row?.m === undefined ? 0 : Number(row.m) + 1;
}

export async function insertAccount(db: Executor, values: typeof accounts.$inferInsert): Promise<AccountRow> {
  const [row] = await db.insert(accounts).values(values).returning();
  return row!;
}

export async function updateAccount(
  db: Executor,
  userId: number,
  id: number,
  patch: Partial<typeof accounts.$inferInsert>,
): Promise<void> {
  await db
    .update(accounts)
    .set(patch)
    .where(and(eq(accounts.userId, userId), eq(accounts.id, id)));
}

/** The user's default account stops being the default (before another one becomes it). */
export async function clearDefault(db: Executor, userId: number): Promise<void> {
  await db
    .update(accounts)
    .set({ isDefault: false })
    .where(and(eq(accounts.userId, userId), eq(accounts.isDefault, true)));
}

export async function countRows(db: Executor, accountId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(transactions)
    .where(or(eq(transactions.accountId, accountId), eq(transactions.toAccountId, accountId)));
  return Number(row?.n ?? 0);
}

export async function idsOf(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.userId, userId))
    .orderBy(asc(accounts.id));
  return rows.map((r) => r.id);
}

/** Sets `sort` to each id's position in `ids` (0-based), in one statement. */
export async function applySort(db: Executor, userId: number, ids: number[]): Promise<void> {
  await db.execute(sql`
    update accounts a set sort = v.ord - 1, updated_at = now()
    from (select value::int as id, ord::int as ord from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as x(value, ord)) v
    where a.id = v.id and a.user_id = ${userId}`);
}

export async function deleteAccount(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.id, id)))
    .returning({ id: accounts.id });
  return rows.length > 0;
}

export interface LedgerRow {
  id: number;
  delta: number;
  balance: number;
}

/** One page of an account's rows, newest first, with what each did to the balance and the running balance after it. */
export async function ledgerPage(
  db: Executor,
  userId: number,
  account: AccountRow,
  limit: number,
  offset: number,
): Promise<{ rows: LedgerRow[]; total: number }> {
  const rows = await query<{ id: number; delta: string | number; balance: string | number; total: string | number }>(
    db,
    sql`with r as (
          select t.id, t.date,
                 (case when t.account_id = ${account.id} then ${SIGNED_AMOUNT} else 0 end)
                 + (case when t.to_account_id = ${account.id} then t.to_amount else 0 end) as delta
          from transactions t
          where t.user_id = ${userId} and (t.account_id = ${account.id} or t.to_account_id = ${account.id})
        ), run as (
          select r.id, r.date, r.delta, ${account.openingBalance}::bigint + sum(r.delta) over (order by r.date, r.id rows unbounded preceding) as balance,
                 count(*) over () as total
          from r
        )
        select id, delta, balance, total from run order by date desc, id desc limit ${limit} offset ${offset}`,
  );
  let total = rows.length ? Number(rows[0]!.total) : 0;
  if (!rows.length && offset > 0) {
    const [c] = await query<{ n: string | number }>(
      db,
      sql`select count(*) as n from transactions t where t.user_id = ${userId} and (t.account_id = ${account.id} or t.to_account_id = ${account.id})`,
    );
    total = Number(c?.n ?? 0);
  }
  return { rows: rows.map((r) => ({ id: r.id, delta: Number(r.delta), balance: Number(r.balance) })), total };
}

/** Sums per account and month (YYYY-MM) of what the rows did to each balance, for the net worth history. */
export async function monthlyDeltas(
  db: Executor,
  userId: number,
): Promise<{ accountId: number; month: string; delta: number }[]> {
  const rows = await query<{ account_id: number; month: string; delta: string | number }>(
    db,
    sql`select account_id, month, sum(delta) as delta from (
          select t.account_id, to_char(t.date, 'YYYY-MM') as month, ${SIGNED_AMOUNT} as delta
          from transactions t where t.user_id = ${userId} and t.account_id is not null
          union all
          select t.to_account_id, to_char(t.date, 'YYYY-MM'), t.to_amount
          from transactions t where t.user_id = ${userId} and t.to_account_id is not null
        ) x group by account_id, month order by month`,
  );
  return rows.map((r) => ({ accountId: r.account_id, month: r.month, delta: Number(r.delta) }));
}

/** The user's accounts by name and type (archived ones marked), in their order: what a line of text may name. */
export async function accountNames(
  db: Executor,
  userId: number,
): Promise<{ id: number; name: string; type: string; archived: boolean }[]> {
  return db
    .select({ id: accounts.id, name: accounts.name, type: accounts.type, archived: accounts.archived })
    .from(accounts)
    .where(eq(accounts.userId, userId))
    .orderBy(asc(accounts.sort), asc(accounts.id));
}

/**
 * What the account held before `from` (its opening balance and every earlier row), and what each
 * day from `from` to `to` changed, for the balance over time of one account.
 */
export async function dailyChanges(
  db: Executor,
  userId: number,
  account: AccountRow,
  from: string,
  to: string,
): Promise<{ before: number; days: { date: string; delta: number }[] }> {
  const rows = await query<{ date: string | null; delta: string | number }>(
    db,
    sql`with r as (
          select t.date,
                 (case when t.account_id = ${account.id} then ${SIGNED_AMOUNT} else 0 end)
                 + (case when t.to_account_id = ${account.id} then t.to_amount else 0 end) as delta
          from transactions t
          where t.user_id = ${userId} and (t.account_id = ${account.id} or t.to_account_id = ${account.id})
            and t.date <= ${to}::date
        )
        select null as date, coalesce(sum(delta), 0) as delta from r where r.date < ${from}::date
        union all
        select to_char(r.date, 'YYYY-MM-DD'), sum(r.delta) from r where r.date >= ${from}::date
          group by r.date having sum(r.delta) <> 0
        order by 1 nulls first`,
  );
  const [head, ...days] = rows;
  return {
    before: account.openingBalance + Number(head?.delta ?? 0),
    days: days.map((d) => ({ date: d.date!, delta: Number(d.delta) })),
  };
}
