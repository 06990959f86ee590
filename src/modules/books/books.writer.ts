import { and, eq, ne, Param, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { query } from '../../db/client.ts';
import { transactions, transactionShares, transactionTags } from '../../db/schema/index.ts';
import type { TransactionKind } from '../../lib/domain.ts';
import type { SplitMode } from '../../lib/splits.ts';
import type { CurrencyInfo } from '../../lib/currency.ts';
import { convertMinorSql, fitHundredthsSql, rateSql, rateTextSql } from './books.money.ts';

/**
 * The statements of the books: every insert, update and delete of `transactions`, `transaction_tags`
 * and `transaction_shares` is a function of this file or of books.manual.ts (the linter refuses them
 * outside src/modules/books), called only through `write` (books.write.ts). The
 * callers build rows whose money was decided by books.money.ts (amounts in the minor units of their
 * account's currency, base amounts converted once); the writer owns the statements, and the
 * one-statement paths (the batched insert, the set-based import insert) stay one statement.
 */

// ---- rows whose money is decided ----

/** A transaction ready to be written: every amount in integer minor units of its currency. */
export interface BookedRow {
  /** an id reserved beforehand (allocateIds), so that links can be built before the write */
  id?: number;
  kind: TransactionKind;
  /** minor units of `currency`, the account's currency */
  amount: number;
  categoryId: number | null;
  note: string;
  date: string;
  groupId: number | null;
  paidBy?: number | null;
  recurringId?: number | null;
  accountId: number | null;
  currency: string;
  /** minor units of the owner's base currency */
  baseAmount: number;
  rate: string | null;
  toAccountId?: number | null;
  toAmount?: number | null;
  toCurrency?: string | null;
  parentId?: number | null;
  source?: string | null;
  externalId?: string | null;
  refundOf?: number | null;
  /** the category is the suggester's guess, left as it was (such rows do not teach the suggester) */
  categoryAuto?: boolean;
  /** when the row was first recorded (an import keeps the original's); now when absent */
  createdAt?: string | Date | null;
}

/**
 * The next transaction id. The sequence is looked up once per statement (a scalar subquery), not
 * once per row: pg_get_serial_sequence in a row's expression reads the catalogue for every row,
 * about ten times the cost of nextval itself over a bill of a hundred thousand rows.
 */
export const NEXT_ID = sql`nextval((select pg_get_serial_sequence('transactions', 'id')::regclass))`;

/** Reserves `n` transaction ids, so that tag links and references can be built without relying on RETURNING order. */
export async function allocateIds(ex: Executor, n: number): Promise<number[]> {
  if (n <= 0) return [];
  const rows = await query<{ id: number }>(ex, sql`select ${NEXT_ID}::int as id from generate_series(1, ${n}::int)`);
  return rows.map((r) => Number(r.id));
}

/**
 * Writes `rows` of one owner in one statement, each column sent as one array. A row without an id
 * gets the next one. With `skipRecurringDuplicates`, a (recurring rule, date) the books already
 * hold is left alone. Answers the ids written (in no particular order; reserve ids to know which
 * row is which).
 */
export async function insertRows(
  ex: Executor,
  userId: number,
  rows: readonly BookedRow[],
  opts: { skipRecurringDuplicates?: boolean } = {},
): Promise<number[]> {
  if (!rows.length) return [];
  const col = <T>(f: (r: BookedRow) => T) => new Param(rows.map(f));
  const created = (r: BookedRow) => (r.createdAt instanceof Date ? r.createdAt.toISOString() : (r.createdAt ?? null));
  const conflict = opts.skipRecurringDuplicates
    ? sql`on conflict (recurring_id, date) where recurring_id is not null do nothing`
    : sql``;
  const out = await query<{ id: number }>(
    ex,
    sql`insert into transactions (id, user_id, kind, amount_cents, category_id, note, date, group_id, paid_by, recurring_id, account_id, currency,
                                  base_amount, rate, to_account_id, to_amount, to_currency, parent_id, source, external_id, refund_of, category_auto, created_at, updated_at)
        select coalesce(k.id, ${NEXT_ID}), ${userId}::int, k.kind, k.amount, k.category_id, k.note, k.date,
               k.group_id, k.paid_by, k.recurring_id, k.account_id, k.currency, k.base_amount, k.rate, k.to_account_id, k.to_amount, k.to_currency,
               k.parent_id, k.source, k.external_id, k.refund_of, coalesce(k.category_auto, false), coalesce(k.created_at, now()), now()
        from unnest(${col((r) => r.id ?? null)}::int[], ${col((r) => r.kind)}::text[], ${col((r) => r.amount)}::bigint[], ${col((r) => r.categoryId)}::int[],
                    ${col((r) => r.note)}::text[], ${col((r) => r.date)}::date[], ${col((r) => r.groupId)}::int[], ${col((r) => r.paidBy ?? null)}::int[],
                    ${col((r) => r.recurringId ?? null)}::int[], ${col((r) => r.accountId)}::int[], ${col((r) => r.currency)}::text[],
                    ${col((r) => r.baseAmount)}::bigint[], ${col((r) => r.rate)}::text[], ${col((r) => r.toAccountId ?? null)}::int[],
                    ${col((r) => r.toAmount ?? null)}::bigint[], ${col((r) => r.toCurrency ?? null)}::text[], ${col((r) => r.parentId ?? null)}::int[],
                    ${col((r) => r.source ?? null)}::text[], ${col((r) => r.externalId ?? null)}::text[], ${col((r) => r.refundOf ?? null)}::int[],
                    ${col((r) => r.categoryAuto ?? false)}::boolean[], ${col(created)}::timestamptz[])
             as k(id, kind, amount, category_id, note, date, group_id, paid_by, recurring_id, account_id, currency, base_amount, rate,
                  to_account_id, to_amount, to_currency, parent_id, source, external_id, refund_of, category_auto, created_at)
        ${conflict}
        returning id`,
  );
  return out.map((r) => Number(r.id));
}

/** the largest safe integer, the bound of an amount once converted */
const MAX = sql`9007199254740991`;

/**
 * What a set-based write did: rows written, transfers and refunds among them, or why rows cannot be booked (then
 * nothing is written).
 */
export interface SetWritten {
  written: number;
  transfers: number;
  refunds: number;
  /** the first 1,000 rows that cannot be booked, in row order; nothing was written when there is one */
  errors: { row: number; message: string }[];
}

/**
 * Writes the rows a query chooses, however many, in one statement: the import's commit. `source` is
 * a SELECT giving, per row: `row` (unique in the set), `kind`, `hundredths` (the positive amount as
 * read, with 2 decimals), `currency` (the currency it was paid in; null: its account's), `category_id`,
 * `note`, `date`, `group_id`, `account_id`, `to_account_id`, `source`, `external_id`, `refund_of` (a
 * transaction the row refunds), `refund_of_row` (a row of the same set it refunds), `created_at` and
 * `tags` (a jsonb array of the owner's tag names). Money follows the rules of priceIn, in SQL with the
 * same integer arithmetic (books.money.ts): the amount fitted to the currency it was paid in, booked
 * into its account's currency and valued in the base currency at the user's rates of its date; a
 * refund is negative. Accounts are the owner's (a row in another's is not written). A row that cannot
 * be booked (a currency no longer bookable, too many decimals, a missing rate, zero once converted)
 * writes nothing at all and is answered with its reason. `currencies`: the digits of every currency
 * the rows may meet (the owner's accounts', the base and the paid-in ones).
 */
export async function insertSelected(
  ex: Executor,
  userId: number,
  source: SQL,
  currencies: readonly CurrencyInfo[],
): Promise<SetWritten> {
  const { rateOf, minor, base } = selectedPricing(userId);
  const [out] = await query<{
    written: number;
    transfers: number;
    refunds: number;
    errors: { row: number; message: string }[] | string;
  }>(
    ex,
    sql`with cur as (select * from unnest(${new Param(currencies.map((c) => c.code))}::text[], ${new Param(currencies.map((c) => c.digits))}::int[]) as c(code, digits)),
      keyed as materialized (
        select s.*, ${NEXT_ID} as id from (${source}) s order by s.row
      ),
      p as (
        select k.*, a.currency as acc_code, b.currency as to_code, u.base_currency as base_code, coalesce(k.currency, a.currency) as given_code,
               ad.digits as acc_d, bd.digits as base_d, gd.digits as given_d,
               ar.rate as acc_rate, gr.rate as given_rate, ${fitHundredthsSql(sql`k.hundredths`, sql`gd.digits`)} as gm
        from keyed k
        join users u on u.id = ${userId}::int
        join accounts a on a.id = k.account_id and a.user_id = ${userId}::int
        left join accounts b on b.id = k.to_account_id and b.user_id = ${userId}::int
        left join cur ad on ad.code = a.currency
        left join cur bd on bd.code = u.base_currency
        left join cur gd on gd.code = coalesce(k.currency, a.currency)
        left join lateral ${rateOf(sql`a.currency`, sql`a.currency <> u.base_currency`)} ar on true
        left join lateral ${rateOf(sql`k.currency`, sql`k.currency not in (a.currency, u.base_currency)`)} gr on true
      ),
      priced as materialized (
        select q.*, case
            when q.acc_d is null or q.base_d is null then 'the account''s currency ' || q.acc_code || ' can no longer be booked'
            when q.given_d is null then 'the currency ' || q.given_code || ' can no longer be booked'
            when q.gm is null then 'amount must have at most ' || q.given_d || ' decimals in ' || q.given_code
            when q.acc_code <> q.base_code and q.acc_rate is null
              then 'no exchange rate for ' || q.acc_code || ' on or before ' || to_char(q.date, 'YYYY-MM-DD') || ' (' || q.acc_code || ' to ' || q.base_code || ')'
            when q.given_code not in (q.acc_code, q.base_code) and q.given_rate is null
              then 'no exchange rate for ' || q.given_code || ' on or before ' || to_char(q.date, 'YYYY-MM-DD') || ' (' || q.given_code || ' to ' || q.base_code || ')'
            when q.given_code <> q.acc_code and q.minor = 0 then 'the amount, converted to ' || q.acc_code || ', is zero'
            when abs(q.minor) > ${MAX} or abs(q.base_amount) > ${MAX} then 'the amount is too large once converted'
          end as reason,
          case when q.refund_of is not null or q.refund_of_row is not null then -1 else 1 end as sign
        from (select p.*, ${minor} as minor, ${base} as base_amount from p) q
      ),
      bad as (select row, reason from priced where reason is not null order by row limit 1000),
      ins as (
        insert into transactions (id, user_id, kind, amount_cents, category_id, note, date, group_id, account_id, currency, base_amount, rate,
                                  to_account_id, to_amount, to_currency, source, external_id, refund_of, category_auto, created_at, updated_at)
        select q.id, ${userId}::int, q.kind, q.sign * q.minor, case when q.kind = 'transfer' then null else q.category_id end, q.note, q.date, q.group_id,
               q.account_id, q.acc_code, q.sign * q.base_amount, case when q.acc_rate is null then null else ${rateTextSql(sql`q.acc_rate`)} end,
               case when q.kind = 'transfer' then q.to_account_id end, case when q.kind = 'transfer' then q.minor end,
               case when q.kind = 'transfer' then q.to_code end, q.source, q.external_id,
               coalesce(q.refund_of, rr.id), false, coalesce(q.created_at, now()), now()
        from priced q left join keyed rr on rr.row = q.refund_of_row
        where not exists (select 1 from bad)
        returning id, kind, refund_of
      ),
      tagged as (
        insert into transaction_tags (transaction_id, tag_id)
        select q.id, g.id from priced q cross join jsonb_array_elements_text(q.tags) as t(name) join tags g on g.user_id = ${userId}::int and g.name = t.name
        where q.tags <> '[]'::jsonb and not exists (select 1 from bad)
        on conflict do nothing
      )
      select (select count(*)::int from ins) as written,
             (select count(*)::int from ins where kind = 'transfer') as transfers,
             (select count(*)::int from ins where refund_of is not null) as refunds,
             (select coalesce(json_agg(json_build_object('row', row, 'message', reason) order by row), '[]'::json) from bad) as errors`,
  );
  const errors =
    typeof out!.errors === 'string' ? (JSON.parse(out!.errors) as { row: number; message: string }[]) : out!.errors;
  return {
    written: Number(out!.written),
    transfers: Number(out!.transfers),
    refunds: Number(out!.refunds),
    errors: errors.map((e) => ({ row: Number(e.row), message: e.message })),
  };
}

/**
 * The money of insertSelected's rows in SQL (the rules of priceIn): the user's rate of a currency on
 * a row's date, the amount in its account's minor units and its base amount.
 */
function selectedPricing(userId: number) {
  // the user's rate of a currency on the row's date, looked up only for the rows that need it
  const rateOf = (code: SQL, needed: SQL) =>
    sql`(select x.rate from exchange_rates x where ${needed} and x.user_id = ${userId}::int and x.currency = ${code} and x.date <= k.date order by x.date desc limit 1)`;
  const acc = rateSql(sql`p.acc_rate`);
  const giv = rateSql(sql`p.given_rate`);
  const gm = sql`p.gm`;
  // given = account: as is; given = base: at the inverse of the account's rate; else through the given currency's rate
  const minor = sql`case when p.given_code = p.acc_code then ${gm}
      when p.given_code = p.base_code then ${convertMinorSql(gm, sql`p.base_d`, sql`p.acc_d`, { num: acc.den, den: acc.num })}
      when p.acc_rate is null then ${convertMinorSql(gm, sql`p.given_d`, sql`p.acc_d`, giv)}
      else ${convertMinorSql(gm, sql`p.given_d`, sql`p.acc_d`, { num: sql`${giv.num} * ${acc.den}`, den: sql`${giv.den} * ${acc.num}` })} end`;
  const base = sql`case when p.given_code = p.base_code then ${gm}
      when p.given_code = p.acc_code then (case when p.acc_rate is null then ${gm} else ${convertMinorSql(gm, sql`p.acc_d`, sql`p.base_d`, acc)} end)
      else ${convertMinorSql(gm, sql`p.given_d`, sql`p.base_d`, giv)} end`;
  return { rateOf, minor, base };
}

/** Writes one row; answers its id. */
export async function insertRow(ex: Executor, userId: number, row: BookedRow): Promise<number> {
  const [id] = await insertRows(ex, userId, [row]);
  return id!;
}

/** The columns a correction may change (money columns only as a whole booking decided by books.money.ts). */
export type RowPatch = Partial<
  Pick<
    typeof transactions.$inferInsert,
    | 'kind'
    | 'amountMinor'
    | 'categoryId'
    | 'categoryAuto'
    | 'note'
    | 'date'
    | 'groupId'
    | 'paidBy'
    | 'accountId'
    | 'currency'
    | 'baseAmount'
    | 'rate'
    | 'toAccountId'
    | 'toAmount'
    | 'toCurrency'
    | 'updatedAt'
  >
>;

/** Changes one of the owner's rows. */
export async function updateRow(ex: Executor, userId: number, id: number, patch: RowPatch): Promise<void> {
  await ex
    .update(transactions)
    .set(patch)
    .where(and(eq(transactions.id, id), eq(transactions.userId, userId)));
}

/** Deletes one of the owner's rows (its fee, tags and shares go with it); false when there was none. */
export async function deleteRow(ex: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await ex
    .delete(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.userId, userId)))
    .returning({ id: transactions.id });
  return rows.length > 0;
}

// ---- tags and shares ----

/** Sets the tags of one of the caller's transactions to exactly `tagIds`. */
export async function replaceTags(ex: Executor, transactionId: number, tagIds: readonly number[]): Promise<void> {
  await ex.delete(transactionTags).where(eq(transactionTags.transactionId, transactionId));
  if (tagIds.length) await ex.insert(transactionTags).values(tagIds.map((tagId) => ({ transactionId, tagId })));
}

/** Adds tag links (one statement); a link already there is left alone. */
export async function linkTags(
  ex: Executor,
  links: readonly { transactionId: number; tagId: number }[],
): Promise<void> {
  if (!links.length) return;
  await query(
    ex,
    sql`insert into transaction_tags (transaction_id, tag_id)
        select * from unnest(${new Param(links.map((l) => l.transactionId))}::int[], ${new Param(links.map((l) => l.tagId))}::int[])
        on conflict do nothing`,
  );
}

/** Links every row of `transactionIds` to every tag of `tagIds`. */
export async function linkTagsToAll(
  ex: Executor,
  transactionIds: readonly number[],
  tagIds: readonly number[],
): Promise<void> {
  await linkTags(
    ex,
    transactionIds.flatMap((transactionId) => tagIds.map((tagId) => ({ transactionId, tagId }))),
  );
}

export interface ShareInsert {
  userId: number;
  amountMinor: number;
  value: string | null;
}

/** Replaces the shares of one group record (delete, then insert) inside the caller's transaction. */
export async function replaceShares(
  ex: Executor,
  transactionId: number,
  groupId: number | null,
  mode: SplitMode,
  shares: readonly ShareInsert[],
): Promise<void> {
  await ex.delete(transactionShares).where(eq(transactionShares.transactionId, transactionId));
  if (groupId === null || !shares.length) return;
  await ex.insert(transactionShares).values(
    shares.map((s) => ({
      transactionId,
      groupId,
      userId: s.userId,
      amountMinor: s.amountMinor,
      mode,
      value: s.value,
    })),
  );
}

// ---- rows moved by other features ----

/** A category that goes: its rows move to `toId` (same owner, same kind); answers how many. */
export async function moveCategory(ex: Executor, userId: number, fromId: number, toId: number): Promise<number> {
  const rows = await ex
    .update(transactions)
    .set({ categoryId: toId, updatedAt: new Date() })
    .where(and(eq(transactions.userId, userId), eq(transactions.categoryId, fromId)))
    .returning({ id: transactions.id });
  return rows.length;
}

/**
 * Moves everything booked in `fromId` to `toId` (same currency): the transfers between the two
 * become meaningless and are removed (their fee rows are kept as expenses), the other rows are
 * repointed. Answers the counts.
 */
export async function mergeAccountRows(
  ex: Executor,
  userId: number,
  fromId: number,
  toId: number,
): Promise<{ moved: number; removedTransfers: number }> {
  const between = sql`t.user_id = ${userId} and t.kind = 'transfer' and ((t.account_id = ${fromId} and t.to_account_id = ${toId}) or (t.account_id = ${toId} and t.to_account_id = ${fromId}))`;
  await ex.execute(
    sql`update transactions f set parent_id = null, updated_at = now() from transactions t where f.parent_id = t.id and ${between}`,
  );
  const removed = await query<{ id: number }>(ex, sql`delete from transactions t where ${between} returning t.id`);
  const a = await query<{ id: number }>(
    ex,
    sql`update transactions set account_id = ${toId}, updated_at = now() where user_id = ${userId} and account_id = ${fromId} returning id`,
  );
  const b = await query<{ id: number }>(
    ex,
    sql`update transactions set to_account_id = ${toId}, updated_at = now() where user_id = ${userId} and to_account_id = ${fromId} returning id`,
  );
  return { moved: new Set([...a.map((r) => r.id), ...b.map((r) => r.id)]).size, removedTransfers: removed.length };
}

/** A group that goes away: the rows others recorded in it become their personal rows. */
export async function detachGroupRows(ex: Executor, groupId: number, exceptUserId: number): Promise<void> {
  await ex
    .update(transactions)
    .set({ groupId: null })
    .where(and(eq(transactions.groupId, groupId), ne(transactions.userId, exceptUserId)));
}
