import { and, asc, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { accessSql } from '../../lib/access.ts';
import type { CategoryKind, TransactionKind } from '../../lib/domain.ts';
import { currencyInfo, toMajorUnits } from '../../lib/currency.ts';
import type { Executor } from '../../db/client.ts';
import { categories, groupMembers, tags, transactions, transactionTags, users } from '../../db/schema/index.ts';
import { toMajor } from '../../lib/money.ts';
import type { TransactionView } from './transactions.schemas.ts';

/** The columns of one transaction row joined with its category and its owner. */
export const viewColumns = {
  id: transactions.id,
  kind: transactions.kind,
  amountCents: transactions.amountCents,
  categoryId: transactions.categoryId,
  note: transactions.note,
  date: transactions.date,
  groupId: transactions.groupId,
  userId: transactions.userId,
  recurringId: transactions.recurringId,
  accountId: transactions.accountId,
  currency: transactions.currency,
  toAccountId: transactions.toAccountId,
  toAmount: transactions.toAmount,
  toCurrency: transactions.toCurrency,
  createdAt: transactions.createdAt,
  updatedAt: transactions.updatedAt,
  categoryName: categories.name,
  categoryColor: categories.color,
  categoryKind: categories.kind,
  ownerNickname: users.nickname,
  ownerAvatarUrl: users.avatarUrl,
};

export interface ViewRow {
  id: number;
  kind: TransactionKind;
  amountCents: number;
  categoryId: number | null;
  note: string;
  date: string;
  groupId: number | null;
  userId: number;
  recurringId: number | null;
  accountId: number | null;
  currency: string;
  toAccountId: number | null;
  toAmount: number | null;
  toCurrency: string | null;
  createdAt: Date;
  updatedAt: Date;
  categoryName: string | null;
  categoryColor: string | null;
  categoryKind: CategoryKind | null;
  ownerNickname: string;
  ownerAvatarUrl: string | null;
}

export type TagRef = { id: number; name: string };

/** Minor units of `currency` as the major-unit number the API answers (12.5 for 1250 fen, 1250 for 1250 yen). */
export function majorOf(minor: number, currency: string): number {
  const info = currencyInfo(currency);
  return info ? toMajorUnits(minor, info) : toMajor(minor);
}

export function toTransactionView(row: ViewRow, rowTags: TagRef[]): TransactionView {
  return {
    id: row.id,
    kind: row.kind,
    amount: majorOf(row.amountCents, row.currency),
    currency: row.currency,
    account_id: row.accountId,
    to_account_id: row.toAccountId,
    to_amount: row.toAmount === null || row.toCurrency === null ? null : majorOf(row.toAmount, row.toCurrency),
    category_id: row.categoryId,
    category:
      row.categoryId === null || row.categoryName === null || row.categoryColor === null || row.categoryKind === null
        ? null
        : { id: row.categoryId, name: row.categoryName, color: row.categoryColor, kind: row.categoryKind },
    note: row.note,
    date: row.date,
    group_id: row.groupId,
    tags: rowTags,
    user_id: row.userId,
    owner: { id: row.userId, nickname: row.ownerNickname, avatar_url: row.ownerAvatarUrl },
    recurring_id: row.recurringId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Tags of the given transactions, by transaction id, each list ordered by name. One query. */
export async function tagsOf(db: Executor, transactionIds: number[]): Promise<Map<number, TagRef[]>> {
  const out = new Map<number, TagRef[]>();
  if (!transactionIds.length) return out;
  const stmt = preparedFor<{ transactionId: number; id: number; name: string }>(db, 'tags', (name) =>
    db
      .select({ transactionId: transactionTags.transactionId, id: tags.id, name: tags.name })
      .from(transactionTags)
      .innerJoin(tags, eq(tags.id, transactionTags.tagId))
      .where(sql`${transactionTags.transactionId} = any(${sql.placeholder('ids')}::int[])`)
      .orderBy(asc(tags.name), asc(tags.id))
      .prepare(name),
  );
  const rows = await stmt.execute({ ids: transactionIds });
  for (const r of rows) {
    let list = out.get(r.transactionId);
    if (!list) out.set(r.transactionId, (list = []));
    list.push({ id: r.id, name: r.name });
  }
  return out;
}

/** Joins view rows with their tags, keeping the rows' order. */
export async function withTags(db: Executor, rows: ViewRow[]): Promise<TransactionView[]> {
  const byTx = await tagsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toTransactionView(r, byTx.get(r.id) ?? []));
}

/**
 * Full transaction views for ids the caller has already been authorized to see (two queries),
 * in the order of `ids`; ids that do not exist are left out.
 */
export async function loadTransactionViews(db: Executor, ids: number[]): Promise<TransactionView[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await db
    .select(viewColumns)
    .from(transactions)
    .leftJoin(categories, eq(categories.id, transactions.categoryId))
    .innerJoin(users, eq(users.id, transactions.userId))
    .where(inArray(transactions.id, unique));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is ViewRow => r !== undefined);
  return withTags(db, ordered);
}

export type TransactionRow = typeof transactions.$inferSelect;

/** Whose transactions a list covers: one user's own, or a group's (optionally one member's). */
export type ListScope = { userId: number } | { groupId: number; memberId?: number };

export interface ListFilter {
  scope: ListScope;
  startDate?: string;
  endDate?: string;
  kind?: TransactionKind;
  categoryIds?: number[];
  tagIds?: number[];
  minCents?: number;
  maxCents?: number;
  /** already trimmed, non-empty */
  keyword?: string;
}

export type ListSort = 'date_desc' | 'date_asc' | 'amount_desc' | 'amount_asc';

/** `%`, `_` and `\` match themselves in the keyword. */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const ph = sql.placeholder;

/**
 * The list's WHERE for one filter shape, with placeholders: the statement text depends only on
 * which filters are present, so the query is built once per shape and reused.
 */
function conditions(shape: ListShape): SQL {
  const c: SQL[] = [];
  if (shape.scope === 'user') c.push(eq(transactions.userId, ph('userId')));
  else c.push(eq(transactions.groupId, ph('groupId')));
  if (shape.scope === 'member') c.push(eq(transactions.userId, ph('memberId')));
  if (shape.startDate) c.push(gte(transactions.date, ph('startDate')));
  if (shape.endDate) c.push(lte(transactions.date, ph('endDate')));
  if (shape.kind) c.push(eq(transactions.kind, ph('kind')));
  if (shape.categoryIds) c.push(sql`${transactions.categoryId} = any(${ph('categoryIds')}::int[])`);
  if (shape.minCents) c.push(gte(transactions.amountCents, ph('minCents')));
  if (shape.maxCents) c.push(lte(transactions.amountCents, ph('maxCents')));
  if (shape.keyword) c.push(sql`${transactions.note} ilike ${ph('keyword')}`);
  if (shape.tagIds) {
    c.push(
      sql`exists (select 1 from ${transactionTags} where ${transactionTags.transactionId} = ${transactions.id} and ${transactionTags.tagId} = any(${ph('tagIds')}::int[]))`,
    );
  }
  return and(...c)!;
}

// The date indexes are (date DESC NULLS LAST, id DESC NULLS LAST); a plain "desc" means NULLS
// FIRST, which the planner cannot serve from them (it would sort every matching row instead).
// The columns are NOT NULL, so spelling the index's null order out changes nothing but the plan.
function orderOf(sort: ListSort): SQL[] {
  switch (sort) {
    case 'date_asc':
      return [sql`${transactions.date} asc nulls first`, sql`${transactions.id} asc nulls first`];
    case 'amount_desc':
      return [desc(transactions.amountCents), desc(transactions.id)];
    case 'amount_asc':
      return [asc(transactions.amountCents), asc(transactions.id)];
    default:
      return [sql`${transactions.date} desc nulls last`, sql`${transactions.id} desc nulls last`];
  }
}

interface ListShape {
  scope: 'user' | 'group' | 'member';
  startDate: boolean;
  endDate: boolean;
  kind: boolean;
  categoryIds: boolean;
  tagIds: boolean;
  minCents: boolean;
  maxCents: boolean;
  keyword: boolean;
}

function shapeOf(f: ListFilter): ListShape {
  return {
    scope: 'groupId' in f.scope ? (f.scope.memberId !== undefined ? 'member' : 'group') : 'user',
    startDate: f.startDate !== undefined,
    endDate: f.endDate !== undefined,
    kind: f.kind !== undefined,
    categoryIds: !!f.categoryIds?.length,
    tagIds: !!f.tagIds?.length,
    minCents: f.minCents !== undefined,
    maxCents: f.maxCents !== undefined,
    keyword: !!f.keyword,
  };
}

function paramsOf(f: ListFilter): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if ('groupId' in f.scope) {
    p.groupId = f.scope.groupId;
    if (f.scope.memberId !== undefined) p.memberId = f.scope.memberId;
  } else {
    p.userId = f.scope.userId;
  }
  if (f.startDate !== undefined) p.startDate = f.startDate;
  if (f.endDate !== undefined) p.endDate = f.endDate;
  if (f.kind !== undefined) p.kind = f.kind;
  if (f.categoryIds?.length) p.categoryIds = f.categoryIds;
  if (f.tagIds?.length) p.tagIds = f.tagIds;
  if (f.minCents !== undefined) p.minCents = f.minCents;
  if (f.maxCents !== undefined) p.maxCents = f.maxCents;
  if (f.keyword) p.keyword = likePattern(f.keyword);
  return p;
}

interface Prepared<T> {
  execute(params?: Record<string, unknown>): Promise<T[]>;
}

// Built queries per database handle and statement key: the query is built once per filter shape
// instead of on every request. They run as unnamed statements on purpose: PostgreSQL then plans
// each execution with its actual values. A named (server-side) statement would switch to a generic
// plan, which misjudges date and amount ranges and sorts every matching row instead of reading
// the date index in order. (An empty name is how node-postgres sends an unnamed statement.)
const UNNAMED = '';
const built = new WeakMap<object, Map<string, Prepared<unknown>>>();

function preparedFor<T>(db: Executor, key: string, build: (name: string) => Prepared<T>): Prepared<T> {
  let byKey = built.get(db);
  if (!byKey) built.set(db, (byKey = new Map()));
  let stmt = byKey.get(key) as Prepared<T> | undefined;
  if (!stmt) {
    stmt = build(UNNAMED);
    byKey.set(key, stmt as Prepared<unknown>);
  }
  return stmt;
}

type TotalsRow = { count: string | number; income: string | number; expense: string | number };

/** The tags of the row, ordered by name, as a JSON array computed beside the row. */
const tagsColumn = sql<TagRef[] | string>`coalesce((
  select json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}) order by ${tags.name}, ${tags.id})
  from ${transactionTags} join ${tags} on ${tags.id} = ${transactionTags.tagId}
  where ${transactionTags.transactionId} = ${transactions.id}), '[]'::json)`;

/** One page of the filtered rows with category, owner and tags, in one query. */
export async function listPage(db: Executor, f: ListFilter, sort: ListSort, limit: number, offset: number): Promise<TransactionView[]> {
  const shape = shapeOf(f);
  const stmt = preparedFor<ViewRow & { tags: TagRef[] | string }>(db, `page:${sort}:${JSON.stringify(shape)}`, (name) =>
    db
      .select({ ...viewColumns, tags: tagsColumn })
      .from(transactions)
      .leftJoin(categories, eq(categories.id, transactions.categoryId))
      .innerJoin(users, eq(users.id, transactions.userId))
      .where(conditions(shape))
      .orderBy(...orderOf(sort))
      .limit(ph('limit'))
      .offset(ph('offset'))
      .prepare(name),
  );
  const rows = await stmt.execute({ ...paramsOf(f), limit, offset });
  return rows.map((r) => toTransactionView(r, typeof r.tags === 'string' ? (JSON.parse(r.tags) as TagRef[]) : r.tags));
}

/** Count and integer sums (cents) of the whole filtered result, in one aggregate. */
export async function listTotals(db: Executor, f: ListFilter): Promise<{ count: number; incomeCents: number; expenseCents: number }> {
  const shape = shapeOf(f);
  const stmt = preparedFor<TotalsRow>(db, `totals:${JSON.stringify(shape)}`, (name) =>
    db
      .select({
        count: sql<string>`count(*)`,
        income: sql<string>`coalesce(sum(${transactions.amountCents}) filter (where ${transactions.kind} = 'income'), 0)`,
        expense: sql<string>`coalesce(sum(${transactions.amountCents}) filter (where ${transactions.kind} = 'expense'), 0)`,
      })
      .from(transactions)
      .where(conditions(shape))
      .prepare(name),
  );
  const [row] = await stmt.execute(paramsOf(f));
  return { count: Number(row?.count ?? 0), incomeCents: Number(row?.income ?? 0), expenseCents: Number(row?.expense ?? 0) };
}

/** A transaction the viewer may read: their own, or one recorded in a group they belong to. */
export async function findVisibleView(db: Executor, viewerId: number, id: number): Promise<ViewRow | undefined> {
  const [row] = await db
    .select(viewColumns)
    .from(transactions)
    .leftJoin(categories, eq(categories.id, transactions.categoryId))
    .innerJoin(users, eq(users.id, transactions.userId))
    .where(
      and(
        eq(transactions.id, id),
        or(
          eq(transactions.userId, viewerId),
          sql`exists (select 1 from ${groupMembers} where ${groupMembers.groupId} = ${transactions.groupId} and ${groupMembers.userId} = ${viewerId})`,
        ),
      ),
    );
  return row;
}

/** The caller's own transaction (only the owner may change or delete it). */
export async function findOwn(db: Executor, userId: number, id: number): Promise<TransactionRow | undefined> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.userId, userId)));
  return row;
}

export async function updateOwn(db: Executor, userId: number, id: number, patch: Partial<typeof transactions.$inferInsert>): Promise<void> {
  await db
    .update(transactions)
    .set(patch)
    .where(and(eq(transactions.id, id), eq(transactions.userId, userId)));
}

/** Sets the tags of one of the caller's transactions to exactly `tagIds`. */
export async function replaceTags(db: Executor, transactionId: number, tagIds: number[]): Promise<void> {
  await db.delete(transactionTags).where(eq(transactionTags.transactionId, transactionId));
  if (tagIds.length) await db.insert(transactionTags).values(tagIds.map((tagId) => ({ transactionId, tagId })));
}

export async function deleteOwn(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.userId, userId)))
    .returning({ id: transactions.id });
  return rows.length > 0;
}

export interface CheckedInsert {
  userId: number;
  kind: CategoryKind;
  amountCents: number;
  categoryId: number;
  /** null: the user's default account */
  accountId: number | null;
  note: string;
  date: string;
  groupId: number | null;
  /** distinct ids, at most 10 */
  tagIds: number[];
}

interface InsertedRow {
  id: number;
  kind: CategoryKind;
  account_id: number;
  currency: string;
  amount_cents: string | number;
  category_id: number;
  note: string;
  date: string;
  group_id: number | null;
  user_id: number;
  recurring_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  category_name: string;
  category_color: string;
  category_kind: CategoryKind;
  owner_nickname: string;
  owner_avatar_url: string | null;
  tags: TagRef[] | string;
}

/**
 * Records a transaction in one statement (one round trip): the row is written only when the
 * category is the caller's and of the same kind, every tag is the caller's, the group, if any,
 * is live and has the caller as a member, and the account (the default one when none is named) is
 * the caller's and in their base currency (a foreign one needs a conversion: the caller books it
 * itself). Answers the full view, or null when a check failed (the caller then finds out which one
 * and answers its error).
 */
export async function insertChecked(db: Executor, v: CheckedInsert): Promise<TransactionView | null> {
  const tagArray = sql`${`{${v.tagIds.join(',')}}`}::int[]`;
  const res = (await db.execute(sql`
    with cat as (
      select c.id, c.name, c.color, c.kind from categories c where ${accessSql.categoryOfKind(sql`c`, sql`${v.categoryId}`, sql`${v.userId}`, sql`${v.kind}`)}
    ), acc as (
      select a.id, a.currency from accounts a where ${accessSql.baseAccount(sql`a`, sql`${v.accountId}::int`, sql`${v.userId}`)}
    ), ok as (
      select acc.id as account_id, acc.currency from cat, acc
      where ${accessSql.tags(tagArray, sql`${v.userId}`)} and ${accessSql.writableGroupOrNone(sql`${v.groupId}::int`, sql`${v.userId}`)}
    ), ins as (
      insert into transactions (user_id, kind, amount_cents, category_id, note, date, group_id, account_id, currency, base_amount)
      select ${v.userId}, ${v.kind}, ${v.amountCents}, ${v.categoryId}, ${v.note}, ${v.date}::date, ${v.groupId}::int,
             ok.account_id, ok.currency, ${v.amountCents} from ok
      returning *
    ), tt as (
      insert into transaction_tags (transaction_id, tag_id) select ins.id, t from ins, unnest(${tagArray}) t
    )
    select ins.id, ins.kind, ins.amount_cents, ins.category_id, ins.account_id, ins.currency, ins.note, to_char(ins.date, 'YYYY-MM-DD') as date,
           ins.group_id, ins.user_id, ins.recurring_id, ins.created_at, ins.updated_at,
           cat.name as category_name, cat.color as category_color, cat.kind as category_kind,
           u.nickname as owner_nickname, u.avatar_url as owner_avatar_url,
           coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name, t.id)
                     from tags t where t.id = any(${tagArray}) and t.user_id = ${v.userId}), '[]'::json) as tags
    from ins cross join cat join users u on u.id = ins.user_id`)) as unknown as { rows: InsertedRow[] };
  const r = res.rows[0];
  if (!r) return null;
  const rowTags = typeof r.tags === 'string' ? (JSON.parse(r.tags) as TagRef[]) : r.tags;
  return toTransactionView(
    {
      id: r.id,
      kind: r.kind,
      amountCents: Number(r.amount_cents),
      categoryId: r.category_id,
      note: r.note,
      date: r.date,
      groupId: r.group_id,
      userId: r.user_id,
      recurringId: r.recurring_id,
      accountId: r.account_id,
      currency: r.currency,
      toAccountId: null,
      toAmount: null,
      toCurrency: null,
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
      categoryName: r.category_name,
      categoryColor: r.category_color,
      categoryKind: r.category_kind,
      ownerNickname: r.owner_nickname,
      ownerAvatarUrl: r.owner_avatar_url,
    },
    rowTags,
  );
}
