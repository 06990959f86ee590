// The outbox's pure rules: how a new write joins the operations already waiting, and how the
// waiting operations show in a page of the books (rows marked pending, totals including them).
import type { Category, Transaction, TransactionPage } from '../../api/types';
import type { Op } from './db';
import { baseMinor, minorScale } from '../../lib/amounts';

/** What a row built from a create body needs to know about the user's lists. */
export interface RowContext {
  categories: Category[];
  accounts: { id: number; currency: string }[];
  tags: { id: number; name: string }[];
  me: { id: number; nickname: string; avatar_url: string | null; base_currency?: string } | null;
}

export interface Fold {
  /** operations to store (new or changed) */
  put: Op[];
  /** outbox positions to remove */
  remove: number[];
}

/** An operation that was never sent (or was refused, so the server stored nothing): it may still change. */
function open(op: Op): boolean {
  return op.attempts === 0 || op.state === 'refused';
}

/**
 * How a new operation joins the outbox. An edit or delete of a row created offline whose create
 * was never sent changes that create (a delete drops it and everything waiting on it), so that
 * the server only sees the end result. An edit of an edit never sent merges into it. An edit of a
 * refused create fixes it: the create waits again with a new key (the refused one stored nothing).
 * Anything else waits in order behind what is there.
 */
export function fold(ops: Op[], op: Op): Fold {
  const create = op.target < 0 ? ops.find((o) => o.kind === 'create' && o.target === op.target) : undefined;
  if (op.kind === 'delete' && create && open(create)) {
    return { put: [], remove: ops.filter((o) => o.target === op.target).map((o) => o.seq!) };
  }
  if (op.kind === 'update' && create && open(create)) {
    const key = create.state === 'refused' ? op.key : create.key;
    return {
      put: [{ ...create, key, body: { ...create.body, ...op.body }, state: 'queued', refusal: null }],
      remove: [],
    };
  }
  if (op.kind === 'update') {
    const last = [...ops].reverse().find((o) => o.target === op.target);
    if (last && last.kind === 'update' && open(last)) {
      return {
        put: [{ ...last, body: { ...last.body, ...op.body }, state: 'queued', refusal: null, attempts: 0 }],
        remove: [],
      };
    }
  }
  return { put: [op], remove: [] };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}
function num(v: unknown): number | null {
  return typeof v === 'number' ? v : null;
}

/** What a body (over its row) says was paid in another currency than the account's; null when nothing is. */
function paidOf(body: Record<string, unknown>, base?: Transaction): { amount: number; currency: string } | null {
  if ('original_amount' in body || 'original_currency' in body) {
    const amount = body.original_amount;
    const currency = body.original_currency;
    if (amount === null || currency === null || amount === undefined || typeof currency !== 'string') return null;
    return { amount: Number(amount), currency };
  }
  return base?.original_amount != null && base.original_currency
    ? { amount: base.original_amount, currency: base.original_currency }
    : null;
}

/** A row of the books built from what was saved offline (over the row it changes, if known). */
export function rowOf(body: Record<string, unknown>, id: number, ctx: RowContext, base?: Transaction): Transaction {
  const categoryId = 'category_id' in body ? num(body.category_id) : (base?.category_id ?? null);
  const cat = ctx.categories.find((c) => c.id === categoryId);
  const accountId = 'account_id' in body ? num(body.account_id) : (base?.account_id ?? null);
  const account = ctx.accounts.find((a) => a.id === accountId);
  const tagIds = Array.isArray(body.tag_ids) ? (body.tag_ids as number[]) : null;
  const now = new Date().toISOString();
  const paid = paidOf(body, base);
  // paid in another currency, the account's amount not yet known: shown as paid, counted once the server prices it
  const unpriced = paid !== null && !('amount' in body);
  const owner = ctx.me
    ? { id: ctx.me.id, nickname: ctx.me.nickname, avatar_url: ctx.me.avatar_url }
    : (base?.owner ?? { id: 0, nickname: '', avatar_url: null });
  return {
    id,
    // a refund is answered as an expense of a negative amount
    kind: (body.kind === 'refund' ? 'expense' : str(body.kind) || base?.kind || 'expense') as Transaction['kind'],
    amount: unpriced
      ? paid.amount
      : 'amount' in body
        ? body.kind === 'refund'
          ? -Math.abs(Number(body.amount))
          : Number(body.amount)
        : (base?.amount ?? 0),
    currency: unpriced ? paid.currency : (account?.currency ?? base?.currency ?? ctx.me?.base_currency ?? 'CNY'),
    original_amount: paid?.amount ?? null,
    original_currency: paid?.currency ?? null,
    account_id: accountId,
    to_account_id: base?.to_account_id ?? null,
    to_amount: base?.to_amount ?? null,
    rate: unpriced ? '0' : (base?.rate ?? null),
    parent_id: base?.parent_id ?? null,
    category_id: categoryId,
    category: cat
      ? { id: cat.id, name: cat.name, color: cat.color, kind: cat.kind }
      : categoryId === base?.category_id
        ? (base?.category ?? null)
        : null,
    note: 'note' in body ? str(body.note) : (base?.note ?? ''),
    date: str(body.date) || base?.date || now.slice(0, 10),
    group_id: 'group_id' in body ? num(body.group_id) : (base?.group_id ?? null),
    paid_by: base?.paid_by ?? null,
    shares: base?.shares ?? [],
    split: base?.split ?? null,
    tags: tagIds
      ? tagIds.map((t) => ({ id: t, name: ctx.tags.find((x) => x.id === t)?.name ?? '' }))
      : (base?.tags ?? []),
    user_id: owner.id,
    owner,
    recurring_id: base?.recurring_id ?? null,
    refund_of: 'refund_of' in body ? num(body.refund_of) : (base?.refund_of ?? null),
    category_picked: typeof body.category_picked === 'boolean' ? body.category_picked : (base?.category_picked ?? true),
    created_at: base?.created_at ?? now,
    updated_at: now,
  };
}

/** The filters of a books page that a waiting row is checked against. */
export interface PageQuery {
  startDate?: string;
  endDate?: string;
  kind?: string;
  group_id?: number;
  sort?: string;
  page?: number;
}

function matches(row: Transaction, q: PageQuery): boolean {
  if (q.startDate && row.date < q.startDate) return false;
  if (q.endDate && row.date > q.endDate) return false;
  if (q.kind && q.kind !== 'all' && row.kind !== q.kind) return false;
  if (q.group_id && row.group_id !== q.group_id) return false;
  return true;
}

/** A row's income and expense in minor units of the base currency (`scale` of them to one unit). */
function minorOf(row: Transaction, scale: number): { income: number; expense: number } {
  const v = baseMinor(row, scale);
  return { income: row.kind === 'income' ? v : 0, expense: row.kind === 'expense' ? v : 0 };
}

/** The totals of these rows in the base currency, counted in its minor units. */
export function sumsOf(rows: Transaction[], baseCurrency: string | undefined): TransactionPage['sums'] {
  const scale = minorScale(baseCurrency);
  let income = 0;
  let expense = 0;
  for (const r of rows) {
    const v = minorOf(r, scale);
    income += v.income;
    expense += v.expense;
  }
  return { income: income / scale, expense: expense / scale, balance: (income - expense) / scale, count: rows.length };
}

function order(q: PageQuery): (a: Transaction, b: Transaction) => number {
  switch (q.sort) {
    case 'date_asc':
      return (a, b) => a.date.localeCompare(b.date);
    case 'amount_desc':
      return (a, b) => b.amount - a.amount;
    case 'amount_asc':
      return (a, b) => a.amount - b.amount;
    default:
      return (a, b) => b.date.localeCompare(a.date);
  }
}

export interface Overlaid {
  page: TransactionPage;
  /** ids of the rows on the page that carry waiting changes */
  pending: number[];
  /** ids of the rows on the page whose change the server refused */
  refused: number[];
}

/**
 * A page of the books with the waiting operations applied: created rows added where the filters
 * take them (on the first page), edited rows changed, deleted rows gone, and the totals moved by
 * the same amounts. `ids` maps local ids of rows the server already created to their server ids.
 */
export function overlay(
  src: TransactionPage,
  ops: Op[],
  ids: Map<number, number>,
  ctx: RowContext,
  q: PageQuery,
): Overlaid {
  const list = [...src.list];
  const scale = minorScale(ctx.me?.base_currency);
  let income = Math.round(src.sums.income * scale);
  let expense = Math.round(src.sums.expense * scale);
  let count = src.sums.count;
  let total = src.total;
  const pending = new Set<number>();
  const refused = new Set<number>();
  const take = (row: Transaction, sign: 1 | -1) => {
    const c = minorOf(row, scale);
    income += sign * c.income;
    expense += sign * c.expense;
    count += sign;
    total += sign;
  };
  const firstPage = (q.page ?? 1) === 1;
  for (const op of ops) {
    const id = op.target < 0 ? (ids.get(op.target) ?? op.target) : op.target;
    const at = list.findIndex((r) => r.id === id);
    const mark = (rowId: number) => (op.state === 'refused' ? refused : pending).add(rowId);
    if (op.kind === 'create') {
      if (at >= 0) {
        mark(id);
        continue;
      }
      // its files reach the server after it: none to show yet
      const row = { ...rowOf(op.body ?? {}, id, ctx), attachments: [] };
      if (!matches(row, q) || !firstPage) continue;
      list.push(row);
      take(row, 1);
      mark(id);
    } else if (op.kind === 'update' && at >= 0) {
      const old = list[at]!;
      const row = { ...rowOf(op.body ?? {}, old.id, ctx, old), attachments: old.attachments ?? [] };
      take(old, -1);
      if (matches(row, q)) {
        list[at] = row;
        take(row, 1);
        mark(row.id);
      } else list.splice(at, 1);
    } else if (op.kind === 'delete' && at >= 0) {
      if (op.state === 'refused') {
        mark(id);
        continue;
      }
      take(list[at]!, -1);
      list.splice(at, 1);
    }
  }
  list.sort(order(q));
  return {
    page: {
      ...src,
      list,
      total,
      sums: { income: income / scale, expense: expense / scale, balance: (income - expense) / scale, count },
    },
    pending: [...pending],
    refused: [...refused],
  };
}
