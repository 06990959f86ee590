import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { query } from '../../db/client.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { coalesce, type Waiting } from '../../lib/coalesce.ts';
import type { CurrencyInfo } from '../../lib/currency.ts';
import type { CategoryKind } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import { accessSql, refusal, type AccountRef } from './books.access.ts';
import { writeDraft } from './books.drafts.ts';
import { accountCurrency, parseAmountIn } from './books.money.ts';
import { NEXT_ID } from './books.writer.ts';

/*
 * A manual entry (an expense or an income a person records): its references are checked once, by
 * the statement that writes it. The statement answers, per entry, what it found of the category,
 * the tags and the account; an entry whose amount has 2 decimals, in a base-currency account of 2
 * minor digits, without a rate given, is written by that same statement (one round trip). Any other
 * entry that passed is booked in its account's currency (books.drafts.ts) without checking again; a
 * failed rule answers the error books.access.ts gives for it.
 */

const TWO_DECIMALS: CurrencyInfo = { code: 'CNY', digits: 2, name: 'two decimals' };
const MAX_BATCH = 100;

/** An expense or an income as a person records it. */
export interface ManualDraft {
  kind: CategoryKind;
  /** the amount as typed: a decimal in the account currency's digits */
  amount: unknown;
  categoryId: number;
  /** null: the user's default account */
  accountId: number | null;
  note: string;
  date: string;
  /** distinct ids, at most 10 */
  tagIds: readonly number[];
  /** a rate given by hand; else the user's rate of `date` */
  rate?: unknown;
  /** the category is the suggester's guess, left as it was */
  categoryAuto?: boolean;
}

export type TagRef = { id: number; name: string };

/** A row the statement wrote, with what a view of it needs. */
export interface CheckedRow {
  id: number;
  kind: CategoryKind;
  amountMinor: number;
  categoryId: number;
  note: string;
  date: string;
  groupId: null;
  userId: number;
  recurringId: null;
  accountId: number;
  currency: string;
  createdAt: Date;
  updatedAt: Date;
  categoryName: string;
  categoryColor: string;
  categoryKind: CategoryKind;
  ownerNickname: string;
  ownerAvatarUrl: string | null;
  tags: TagRef[];
}

/** A manual entry written: the row as the statement wrote it, or the id of a row booked in another currency. */
export type ManualWritten = { row: CheckedRow } | { id: number };

/** One entry of the statement: `write` when it may be written as is. */
export interface CheckedEntry {
  userId: number;
  kind: CategoryKind;
  /** hundredths; used only when `write` */
  amountMinor: number;
  categoryId: number;
  accountId: number | null;
  note: string;
  date: string;
  tagIds: readonly number[];
  write: boolean;
}

interface VerdictRow {
  idx: number;
  id: number | null;
  category_kind: CategoryKind | null;
  tags_ok: boolean;
  account_id: number | null;
  account_currency: string | null;
  account_archived: boolean | null;
  created_at: Date | string | null;
  updated_at: Date | string | null;
  category_name: string | null;
  category_color: string | null;
  owner_nickname: string | null;
  owner_avatar_url: string | null;
  tags: TagRef[] | string | null;
}

/** What the statement answered for one entry: the row it wrote, or what it found. */
export interface Verdict {
  row: CheckedRow | null;
  categoryKind: CategoryKind | null;
  tagsOk: boolean;
  account: AccountRef | null;
}

/** The amount in hundredths when it has at most 2 decimals (what the statement writes as is), else null. */
function hundredthsOf(value: unknown): number | null {
  try {
    return parseAmountIn(value, TWO_DECIMALS);
  } catch {
    return null;
  }
}

/**
 * Writes a manual entry. Outside a transaction, entries recorded at the same moment share one
 * statement (createInsertBatcher); inside one (`inTransaction`), the statement runs in a savepoint
 * so that a reference deleted meanwhile does not end the caller's transaction.
 */
export async function writeManual(
  ex: Executor,
  userId: number,
  d: ManualDraft,
  inTransaction: boolean,
): Promise<ManualWritten> {
  const hundredths = hundredthsOf(d.amount);
  const entry: CheckedEntry = {
    userId,
    kind: d.kind,
    amountMinor: hundredths ?? 0,
    categoryId: d.categoryId,
    accountId: d.accountId,
    note: d.note,
    date: d.date,
    tagIds: d.tagIds,
    // a category the suggester chose and the person left is marked, which only the booked path writes
    write: hundredths !== null && d.rate === undefined && !d.categoryAuto,
  };
  const verdict = await checkOne(ex, entry, inTransaction).catch((err: unknown) => {
    // a category, tag or account deleted while the row was being written
    if (isForeignKeyViolation(err))
      throw Errors.conflict(
        'the transaction could not be recorded because its category, tags or group changed meanwhile; try again',
      );
    throw err;
  });
  if (verdict.row) return { row: verdict.row };
  const found = refusal(verdict, entry);
  if ('error' in found) throw found.error;
  return { id: await bookManual(ex, userId, d, found.account, inTransaction) };
}

function checkOne(ex: Executor, entry: CheckedEntry, inTransaction: boolean): Promise<Verdict> {
  if (!entry.write) return checkedInsert(ex, [entry]).then((v) => v[0]!);
  if (inTransaction) return ex.transaction((sp) => checkedInsert(sp, [entry])).then((v) => v[0]!);
  return batcherOf(ex as Db).insert(entry);
}

/**
 * An entry whose references passed, in an account of another currency or digits (or with a rate): converted once and
 * written with its tags.
 */
async function bookManual(
  ex: Executor,
  userId: number,
  d: ManualDraft,
  account: AccountRef,
  inTransaction: boolean,
): Promise<number> {
  const minor = parseAmountIn(d.amount, accountCurrency(account));
  const write = (w: Executor) =>
    writeDraft(w, userId, {
      categoryAuto: d.categoryAuto ?? false,
      kind: d.kind,
      amount: { minor },
      account,
      categoryId: d.categoryId,
      tagIds: d.tagIds,
      note: d.note,
      date: d.date,
      groupId: null,
      rate: d.rate,
    });
  return inTransaction ? write(ex) : ex.transaction(write);
}

const tagsOf = (t: TagRef[] | string | null): TagRef[] =>
  t === null ? [] : typeof t === 'string' ? (JSON.parse(t) as TagRef[]) : t;

/**
 * Checks entries in one statement and writes those marked `write` whose references all passed
 * (the user's category of that kind, the user's tags, the user's open account in their base
 * currency of 2 minor digits). Answers a verdict per entry, in order.
 */
export async function checkedInsert(ex: Executor, entries: readonly CheckedEntry[]): Promise<Verdict[]> {
  const input = JSON.stringify(
    entries.map((r, idx) => ({
      idx,
      user_id: r.userId,
      kind: r.kind,
      amount_cents: r.amountMinor,
      category_id: r.categoryId,
      note: r.note,
      date: r.date,
      account_id: r.accountId,
      tag_ids: r.tagIds,
      write: r.write,
    })),
  );
  const rows = await query<VerdictRow>(ex, verdictSql(input));
  const byIdx = new Map(rows.map((r) => [Number(r.idx), r]));
  return entries.map((e, idx) => verdictOf(e, byIdx.get(idx)));
}

function verdictSql(input: string) {
  return sql`
    with input as (
      select x.idx, x.user_id, x.kind, x.amount_cents, x.category_id, x.note, x.date, x.account_id, x.write,
             array(select jsonb_array_elements_text(x.tag_ids)::int) as tag_ids
      from jsonb_to_recordset(${input}::jsonb) as x(idx int, user_id int, kind text, amount_cents bigint, category_id int,
                                                   note text, date date, account_id int, tag_ids jsonb, write boolean)
    ), checked as materialized (
      select i.*, c.kind as category_kind, c.name as category_name, c.color as category_color,
             a.id as acc_id, a.currency as acc_currency, a.archived as acc_archived,
             coalesce(${accessSql.bookedAsIs(sql`a`, sql`u.base_currency`)}, false) as as_is,
             ${accessSql.tags(sql`i.tag_ids`, sql`i.user_id`)} as tags_ok,
             u.nickname as owner_nickname, u.avatar_url as owner_avatar_url
      from input i
      left join users u on u.id = i.user_id
      left join categories c on ${accessSql.ownCategory(sql`c`, sql`i.category_id`, sql`i.user_id`)}
      left join accounts a on ${accessSql.namedAccount(sql`a`, sql`i.account_id`, sql`i.user_id`)}
    ), ok as materialized (
      select k.*, ${NEXT_ID} as new_id from checked k
      where k.write and k.category_kind = k.kind and k.tags_ok and k.acc_id is not null and not k.acc_archived and k.as_is
    ), ins as (
      insert into transactions (id, user_id, kind, amount_cents, category_id, note, date, group_id, account_id, currency, base_amount)
      select new_id, user_id, kind, amount_cents, category_id, note, date, null, acc_id, acc_currency, amount_cents from ok
      returning id, created_at, updated_at
    ), tt as (
      insert into transaction_tags (transaction_id, tag_id) select ok.new_id, t from ok, unnest(ok.tag_ids) t
    )
    select k.idx, ins.id, k.category_kind, k.tags_ok, k.acc_id as account_id, k.acc_currency as account_currency,
           k.acc_archived as account_archived, ins.created_at, ins.updated_at, k.category_name, k.category_color,
           k.owner_nickname, k.owner_avatar_url,
           case when ins.id is not null then
             coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name, g.id)
                       from tags g where g.id = any(k.tag_ids) and g.user_id = k.user_id), '[]'::json) end as tags
    from checked k left join ok on ok.idx = k.idx left join ins on ins.id = ok.new_id`;
}

function verdictOf(e: CheckedEntry, r: VerdictRow | undefined): Verdict {
  if (!r) return { row: null, categoryKind: null, tagsOk: false, account: null };
  const account =
    r.account_id === null
      ? null
      : { id: r.account_id, currency: r.account_currency!, archived: r.account_archived === true };
  const verdict = { categoryKind: r.category_kind, tagsOk: r.tags_ok === true, account };
  if (r.id === null) return { ...verdict, row: null };
  return {
    ...verdict,
    row: {
      id: Number(r.id),
      kind: e.kind,
      amountMinor: e.amountMinor,
      categoryId: e.categoryId,
      note: e.note,
      date: e.date,
      groupId: null,
      userId: e.userId,
      recurringId: null,
      accountId: r.account_id!,
      currency: r.account_currency!,
      createdAt: new Date(r.created_at!),
      updatedAt: new Date(r.updated_at!),
      categoryName: r.category_name!,
      categoryColor: r.category_color!,
      categoryKind: e.kind,
      ownerNickname: r.owner_nickname!,
      ownerAvatarUrl: r.owner_avatar_url,
      tags: tagsOf(r.tags),
    },
  };
}

const batchers = new WeakMap<Db, ReturnType<typeof createInsertBatcher>>();

/** The batcher of a database, made on first use. */
function batcherOf(db: Db) {
  let b = batchers.get(db);
  if (!b) batchers.set(db, (b = createInsertBatcher(db)));
  return b;
}

/**
 * Coalesces the entries recorded at the same moment into one statement (one round trip and one
 * commit for all of them), the way a database groups commits. Each entry keeps its own verdict. If
 * the statement itself fails (a row that cannot be stored, say a date the database refuses), each
 * entry runs in a statement of its own, so that one bad entry never costs another its write.
 */
export function createInsertBatcher(db: Db, maxInFlight = 4) {
  type Pending = Waiting<CheckedEntry, Verdict>;
  async function runBatch(batch: Pending[]): Promise<void> {
    const alone = (p: Pending) => checkedInsert(db, [p.item]).then((v) => p.resolve(v[0]!), p.reject);
    if (batch.length === 1) return alone(batch[0]!);
    let verdicts: Verdict[];
    try {
      verdicts = await checkedInsert(
        db,
        batch.map((p) => p.item),
      );
    } catch {
      await Promise.all(batch.map(alone));
      return;
    }
    batch.forEach((p, idx) => p.resolve(verdicts[idx]!));
  }
  return {
    /** Checks one entry, and writes it when it passed and may be written as is. */
    insert: coalesce(runBatch, { maxBatch: MAX_BATCH, maxInFlight }),
  };
}
