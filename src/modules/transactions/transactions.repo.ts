import { asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { categories, tags, transactions, transactionTags, users } from '../../db/schema/index.ts';
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
  kind: 'expense' | 'income';
  amountCents: number;
  categoryId: number;
  note: string;
  date: string;
  groupId: number | null;
  userId: number;
  recurringId: number | null;
  createdAt: Date;
  updatedAt: Date;
  categoryName: string;
  categoryColor: string;
  categoryKind: 'expense' | 'income';
  ownerNickname: string;
  ownerAvatarUrl: string | null;
}

export type TagRef = { id: number; name: string };

export function toTransactionView(row: ViewRow, rowTags: TagRef[]): TransactionView {
  return {
    id: row.id,
    kind: row.kind,
    amount: toMajor(row.amountCents),
    category_id: row.categoryId,
    category: { id: row.categoryId, name: row.categoryName, color: row.categoryColor, kind: row.categoryKind },
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
  const rows = await db
    .select({ transactionId: transactionTags.transactionId, id: tags.id, name: tags.name })
    .from(transactionTags)
    .innerJoin(tags, eq(tags.id, transactionTags.tagId))
    .where(inArray(transactionTags.transactionId, transactionIds))
    .orderBy(asc(tags.name), asc(tags.id));
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
    .innerJoin(categories, eq(categories.id, transactions.categoryId))
    .innerJoin(users, eq(users.id, transactions.userId))
    .where(inArray(transactions.id, unique));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is ViewRow => r !== undefined);
  return withTags(db, ordered);
}
