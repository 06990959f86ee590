import { and, asc, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { CategoryKind, TransactionKind } from '../../lib/domain.ts';
import { currencyInfo, toMajorUnits } from '../../lib/currency.ts';
import type { Executor } from '../../db/client.ts';
import { categories, groupMembers, tags, transactions, transactionTags, users } from '../../db/schema/index.ts';
import { toMajor } from '../../lib/money.ts';
import type { SplitMode } from '../../lib/splits.ts';
import { listItemFields } from './transactions.page.ts';
import type { TransactionView } from './transactions.schemas.ts';

/** The columns of one transaction row joined with its category and its owner. */
export const viewColumns = {
  id: transactions.id,
  kind: transactions.kind,
  amountMinor: transactions.amountMinor,
  categoryId: transactions.categoryId,
  note: transactions.note,
  date: transactions.date,
  groupId: transactions.groupId,
  paidBy: transactions.paidBy,
  userId: transactions.userId,
  recurringId: transactions.recurringId,
  accountId: transactions.accountId,
  currency: transactions.currency,
  toAccountId: transactions.toAccountId,
  toAmount: transactions.toAmount,
  toCurrency: transactions.toCurrency,
  rate: transactions.rate,
  parentId: transactions.parentId,
  refundOf: transactions.refundOf,
  categoryAuto: transactions.categoryAuto,
  originalAmountMinor: transactions.originalAmountMinor,
  originalCurrency: transactions.originalCurrency,
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
  amountMinor: number;
  categoryId: number | null;
  note: string;
  date: string;
  groupId: number | null;
  paidBy?: number | null;
  userId: number;
  recurringId: number | null;
  accountId: number | null;
  currency: string;
  toAccountId: number | null;
  toAmount: number | null;
  toCurrency: string | null;
  rate: string | null;
  parentId: number | null;
  refundOf?: number | null;
  categoryAuto?: boolean;
  originalAmountMinor?: number | null;
  originalCurrency?: string | null;
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

/** A group record's shares as stored: the group currency and one row per member. */
export type SplitJson = {
  currency: string;
  rows: { user_id: number; amount: number | string; mode: SplitMode; value: string | null }[];
} | null;

/** The shares of the row as JSON (null outside groups), computed beside the row. */
export const splitColumn = sql<SplitJson | string>`(
  select json_build_object('currency', g.currency, 'rows', json_agg(json_build_object('user_id', s.user_id, 'amount', s.amount_cents, 'mode', s.mode, 'value', s.value) order by s.user_id))
  from transaction_shares s join groups g on g.id = s.group_id
  where s.transaction_id = transactions.id group by g.currency)`;

export function parseSplit(v: SplitJson | string | null | undefined): SplitJson {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? (JSON.parse(v) as SplitJson) : v;
}

function splitFields(split: SplitJson): Pick<TransactionView, 'shares' | 'split'> {
  if (!split?.rows.length) return { shares: [], split: null };
  const c = currencyInfo(split.currency) ?? currencyInfo('CNY')!;
  return {
    shares: split.rows.map((r) => ({ user_id: r.user_id, amount: toMajorUnits(r.amount, c) })),
    split: { mode: split.rows[0]!.mode, members: split.rows.map((r) => ({ user_id: r.user_id, value: r.value })) },
  };
}

export function toTransactionView(row: ViewRow, rowTags: TagRef[], split: SplitJson = null): TransactionView {
  return {
    id: row.id,
    kind: row.kind,
    amount: majorOf(row.amountMinor, row.currency),
    currency: row.currency,
    account_id: row.accountId,
    to_account_id: row.toAccountId,
    to_amount: row.toAmount === null || row.toCurrency === null ? null : majorOf(row.toAmount, row.toCurrency),
    rate: row.rate,
    original_amount:
      row.originalAmountMinor == null || !row.originalCurrency
        ? null
        : majorOf(row.originalAmountMinor, row.originalCurrency),
    original_currency: row.originalAmountMinor == null ? null : (row.originalCurrency ?? null),
    parent_id: row.parentId,
    refund_of: row.refundOf ?? null,
    category_id: row.categoryId,
    category_picked: !(row.categoryAuto ?? false),
    category:
      row.categoryId === null || row.categoryName === null || row.categoryColor === null || row.categoryKind === null
        ? null
        : { id: row.categoryId, name: row.categoryName, color: row.categoryColor, kind: row.categoryKind },
    note: row.note,
    date: row.date,
    group_id: row.groupId,
    paid_by: row.paidBy ?? null,
    ...splitFields(split),
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
  const grouped = rows.filter((r) => r.groupId !== null).map((r) => r.id);
  const [byTx, splits] = await Promise.all([
    tagsOf(
      db,
      rows.map((r) => r.id),
    ),
    splitsOf(db, grouped),
  ]);
  return rows.map((r) => toTransactionView(r, byTx.get(r.id) ?? [], splits.get(r.id) ?? null));
}

/** The shares of the given group records, by transaction id. One query. */
export async function splitsOf(db: Executor, transactionIds: number[]): Promise<Map<number, SplitJson>> {
  const out = new Map<number, SplitJson>();
  if (!transactionIds.length) return out;
  const rows = await db
    .select({ id: transactions.id, split: splitColumn })
    .from(transactions)
    .where(inArray(transactions.id, transactionIds));
  for (const r of rows) out.set(r.id, parseSplit(r.split));
  return out;
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
  const ordered = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
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
  minMinor?: number;
  maxMinor?: number;
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
  if (shape.minMinor) c.push(gte(transactions.amountMinor, ph('minMinor')));
  if (shape.maxMinor) c.push(lte(transactions.amountMinor, ph('maxMinor')));
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
      return [desc(transactions.amountMinor), desc(transactions.id)];
    case 'amount_asc':
      return [asc(transactions.amountMinor), asc(transactions.id)];
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
  minMinor: boolean;
  maxMinor: boolean;
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
    minMinor: f.minMinor !== undefined,
    maxMinor: f.maxMinor !== undefined,
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
  if (f.minMinor !== undefined) p.minMinor = f.minMinor;
  if (f.maxMinor !== undefined) p.maxMinor = f.maxMinor;
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

type TotalsRow = {
  count: string | number;
  income: string | number;
  expense: string | number;
  baseCurrency: string | null;
};

/** The ids of one page of the filtered rows (filtered, sorted, cut by LIMIT and OFFSET), in its order. */
export async function listPageIds(
  db: Executor,
  f: ListFilter,
  sort: ListSort,
  limit: number,
  offset: number,
): Promise<number[]> {
  const shape = shapeOf(f);
  const stmt = preparedFor<{ id: number }>(db, `page:${sort}:${JSON.stringify(shape)}`, (name) =>
    db
      .select({ id: transactions.id })
      .from(transactions)
      .where(conditions(shape))
      .orderBy(...orderOf(sort))
      .limit(ph('limit'))
      .offset(ph('offset'))
      .prepare(name),
  );
  return (await stmt.execute({ ...paramsOf(f), limit, offset })).map((r) => r.id);
}

// The statement that writes the items has the same text and the same plan for any page, so it is a
// named statement: each connection parses and plans it once. Planned again on every request (it
// has seven subqueries), it cost PostgreSQL more than the whole page had cost the server to map.
const LIST_ITEMS_STATEMENT = 'transactions_list_items';

/**
 * The rows of `ids` as list items, each one JSON text in the API's shape (transactions.page.ts), in
 * the order of `ids`. The ids are a page `listPageIds` found for the caller: no scope is checked here.
 */
export async function listItems(db: Executor, ids: number[]): Promise<string[]> {
  if (!ids.length) return [];
  const stmt = preparedFor<{ id: number; item: string }>(db, 'items', () => {
    const fields = Object.entries(listItemFields());
    const item = db
      .select(Object.fromEntries(fields.map(([key, value]) => [key, sql`${value}`.as(key)])))
      .from(transactions)
      .where(sql`${transactions.id} = any(${ph('ids')}::int[])`)
      .as('i');
    return db
      .select({ id: sql<number>`i.id`, item: sql<string>`row_to_json(i)::text` })
      .from(item)
      .prepare(LIST_ITEMS_STATEMENT);
  });
  const byId = new Map((await stmt.execute({ ids })).map((r) => [r.id, r.item]));
  return ids.map((id) => byId.get(id)).filter((item) => item !== undefined);
}

/**
 * Count and integer sums (minor units) of the whole filtered result, in one aggregate; for one user's
 * own list also that user's base currency (the sums' currency), read by the same statement.
 */
export async function listTotals(
  db: Executor,
  f: ListFilter,
): Promise<{ count: number; incomeMinor: number; expenseMinor: number; baseCurrency: string | null }> {
  const shape = shapeOf(f);
  const stmt = preparedFor<TotalsRow>(db, `totals:${JSON.stringify(shape)}`, (name) =>
    db
      .select({
        count: sql<string>`count(*)`,
        income: sql<string>`coalesce(sum(${transactions.baseAmount}) filter (where ${transactions.kind} = 'income'), 0)`,
        expense: sql<string>`coalesce(sum(${transactions.baseAmount}) filter (where ${transactions.kind} = 'expense'), 0)`,
        baseCurrency:
          shape.scope === 'user'
            ? sql<string | null>`(select ${users.baseCurrency} from ${users} where ${users.id} = ${ph('userId')})`
            : sql<null>`null`,
      })
      .from(transactions)
      .where(conditions(shape))
      .prepare(name),
  );
  const [row] = await stmt.execute(paramsOf(f));
  return {
    count: Number(row?.count ?? 0),
    incomeMinor: Number(row?.income ?? 0),
    expenseMinor: Number(row?.expense ?? 0),
    baseCurrency: row?.baseCurrency ?? null,
  };
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
export async function findOwn(
  db: Executor,
  userId: number,
  id: number,
  lock = false,
): Promise<TransactionRow | undefined> {
  const q = db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.userId, userId)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/**
 * What the refunds of one purchase already give back, in minor units of `currency` (positive), leaving out `exceptId`.
 */
export async function refundedOf(
  db: Executor,
  userId: number,
  purchaseId: number,
  currency: string,
  exceptId?: number,
): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(-sum(${transactions.amountMinor}), 0)` })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        eq(transactions.refundOf, purchaseId),
        eq(transactions.kind, 'expense'),
        eq(transactions.currency, currency),
        sql`${transactions.amountMinor} < 0`,
        exceptId === undefined ? undefined : sql`${transactions.id} <> ${exceptId}`,
      ),
    );
  return Number(row?.total ?? 0);
}

/** Whether the owner's books hold a payment of this bill under this order id. */
export async function orderBooked(db: Executor, userId: number, source: string, externalId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(eq(transactions.userId, userId), eq(transactions.source, source), eq(transactions.externalId, externalId)),
    )
    .limit(1);
  return row !== undefined;
}
