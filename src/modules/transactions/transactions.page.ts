import { sql, type SQL } from 'drizzle-orm';
import { bookableCurrencies } from '../../lib/currency.ts';
import {
  attachmentFiles,
  attachments,
  categories,
  groups,
  tags,
  transactions as t,
  transactionShares,
  transactionTags,
  users,
} from '../../db/schema/index.ts';

/**
 * A page of the list as the API answers it, built by PostgreSQL: each row one JSON text in the shape
 * of `TransactionListItem`, keys in the schema's order, so that a list request neither decodes its
 * rows nor maps and serializes them again (that was most of its own CPU). `toTransactionView` builds
 * the same shape for one transaction in TypeScript: test/transactions-page-json.test.ts compares the
 * two row for row, and the page's text with the response schema's serializer byte for byte.
 *
 * The values are written as JavaScript writes them:
 * - an amount is its minor units times 10^-digits of its currency, with no trailing zeros
 *   (`trim_scale`): 1250 fen is 12.5, as `1250 / 100` prints; a code outside the bookable table has
 *   2 digits, as in `majorOf`;
 * - a timestamp is UTC with milliseconds and a Z, the microseconds cut off, as `toISOString` writes
 *   the Date the driver makes of it;
 * - text is escaped by PostgreSQL's JSON writer, which escapes what `JSON.stringify` does (quote,
 *   backslash, control characters; nothing else).
 */

/** 10^-digits of each bookable currency whose minor unit is not a hundredth (JPY 1, KWD 0.001). */
const NOT_HUNDREDTHS = bookableCurrencies()
  .filter((c) => c.digits !== 2)
  .map((c) => `when '${c.code}' then ${c.digits === 0 ? '1' : `0.${'0'.repeat(c.digits - 1)}1`}`)
  .join(' ');

/** Minor units of `currency` as the JSON number of its major units. */
function majorUnits(minor: SQL, currency: SQL): SQL {
  return sql`trim_scale(${minor}::numeric * case ${currency} ${sql.raw(NOT_HUNDREDTHS)} else 0.01 end)`;
}

/** A timestamptz as `Date.prototype.toISOString` writes it (2026-11-28T22:08:39.123Z). */
function isoInstant(at: SQL): SQL {
  return sql`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A JSON array of the rows of `rows` (a select whose columns are the keys), in `order`; [] without rows. */
function jsonArray(rows: SQL, order: SQL): SQL {
  return sql`coalesce((select array_to_json(array_agg(row_to_json(x) order by ${order})) from (${rows}) x), '[]'::json)`;
}

/** A JSON object of the one row of `row` (a select whose columns are the keys); null without a row. */
function jsonObject(row: SQL): SQL {
  return sql`(select row_to_json(o) from (${row}) o)`;
}

/** A group record's shares in major units of the group currency, by member; [] for any other row. */
function sharesOf(): SQL {
  const rows = sql`select s.user_id as user_id, ${majorUnits(sql`s.amount_cents`, sql`g.currency`)} as amount
    from ${transactionShares} s join ${groups} g on g.id = s.group_id where s.transaction_id = ${t.id}`;
  return sql`case when ${t.groupId} is null then '[]'::json else ${jsonArray(rows, sql`x.user_id`)} end`;
}

/** A group record's split as entered (the first member's mode, every member's value); null without shares. */
function splitOf(): SQL {
  const member = jsonObject(sql`select s.user_id as user_id, s.value as value`);
  return sql`case when ${t.groupId} is null then null else (select row_to_json(sp) from (
    select (array_agg(s.mode order by s.user_id))[1] as mode,
      array_to_json(array_agg(${member} order by s.user_id)) as members
    from ${transactionShares} s where s.transaction_id = ${t.id} having count(*) > 0) sp) end`;
}

/** The row's tags ordered by name, then id. */
function tagsOf(): SQL {
  const rows = sql`select tg.id as id, tg.name as name
    from ${transactionTags} tt join ${tags} tg on tg.id = tt.tag_id where tt.transaction_id = ${t.id}`;
  return jsonArray(rows, sql`x.name, x.id`);
}

/**
 * The row's attachments, oldest first. Whoever may see a row may open its files (the rule of
 * /api/attachments/{id}/file), so the page's own scope is the only check needed.
 */
function filesOf(): SQL {
  const rows = sql`select a.id as id, f.mime as mime, a.name as name, f.thumbnail is not null as has_thumbnail
    from ${attachments} a join ${attachmentFiles} f on f.sha256 = a.sha256 where a.transaction_id = ${t.id}`;
  return jsonArray(rows, sql`x.id`);
}

/**
 * The columns of one list item, keys in `TransactionListItem`'s order, computed from a row of
 * `transactions`: `row_to_json` of a select of them is the item's JSON text (PostgreSQL writes it
 * without spaces, as the serializer does; `json_build_object` would add them). The category and the
 * owner are read by key for each row, so that a plan made once serves any page.
 */
export function listItemFields(): Record<string, SQL> {
  return {
    id: sql`${t.id}`,
    kind: sql`${t.kind}`,
    amount: majorUnits(sql`${t.amountMinor}`, sql`${t.currency}`),
    currency: sql`${t.currency}`,
    account_id: sql`${t.accountId}`,
    to_account_id: sql`${t.toAccountId}`,
    to_amount: sql`case when ${t.toAmount} is null or ${t.toCurrency} is null then null
      else ${majorUnits(sql`${t.toAmount}`, sql`${t.toCurrency}`)} end`,
    rate: sql`${t.rate}`,
    original_amount: sql`case when ${t.originalAmountMinor} is null or coalesce(${t.originalCurrency}, '') = '' then null
      else ${majorUnits(sql`${t.originalAmountMinor}`, sql`${t.originalCurrency}`)} end`,
    original_currency: sql`case when ${t.originalAmountMinor} is null then null else ${t.originalCurrency} end`,
    parent_id: sql`${t.parentId}`,
    refund_of: sql`${t.refundOf}`,
    category_id: sql`${t.categoryId}`,
    category_picked: sql`not ${t.categoryAuto}`,
    category: jsonObject(sql`select c.id as id, c.name as name, c.color as color, c.kind as kind
      from ${categories} c where c.id = ${t.categoryId}`),
    note: sql`${t.note}`,
    date: sql`${t.date}`,
    group_id: sql`${t.groupId}`,
    paid_by: sql`${t.paidBy}`,
    shares: sharesOf(),
    split: splitOf(),
    tags: tagsOf(),
    user_id: sql`${t.userId}`,
    owner: jsonObject(sql`select u.id as id, u.nickname as nickname, u.avatar_url as avatar_url
      from ${users} u where u.id = ${t.userId}`),
    recurring_id: sql`${t.recurringId}`,
    created_at: isoInstant(sql`${t.createdAt}`),
    updated_at: isoInstant(sql`${t.updatedAt}`),
    attachments: filesOf(),
  };
}
