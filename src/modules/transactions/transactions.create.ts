import type { Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { checkDate } from '../../lib/dates.ts';
import type { CategoryKind } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanOptionalText } from '../../lib/text.ts';
import * as books from '../books/index.ts';
import {
  bookIn,
  defaultAccount,
  parseAmountIn,
  requireCategory,
  requireOpenAccount,
  requireTags,
  requireWritableGroup,
  type CheckedRow,
} from '../books/index.ts';
import { memberIds as splitsRepoMemberIds } from '../splits/index.ts';
import { groupCurrency, notifyRecord, sharesFor } from '../splits/index.ts';
import { ANY_CURRENCY, checkPayer, MAX_TAGS_PER_TRANSACTION, view, type TransactionDeps } from './transactions.deps.ts';
import { createWithOriginal, originalOf } from './transactions.original.ts';
import { createRefund } from './transactions.refunds.ts';
import { toTransactionView } from './transactions.repo.ts';
import type { TransactionCreateBody, TransactionView } from './transactions.schemas.ts';
import { createTransfer } from './transactions.transfers.ts';

/** An expense or an income as the body gives it, its fields checked. */
interface EntryFields {
  kind: CategoryKind;
  categoryId: number;
  accountId: number | null;
  note: string;
  date: string;
  tagIds: number[];
  groupId: number | null;
}

/**
 * Records a transaction: a transfer, a refund, a group record or an expense or income of one's own.
 * `tx`: an open transaction to write in (an idempotent request's); alone, rows recorded at the same
 * moment share a statement.
 */
export async function createTransaction(
  deps: TransactionDeps,
  userId: number,
  body: TransactionCreateBody,
  tx?: Executor,
): Promise<TransactionView> {
  const inTransaction = <T>(write: (w: Executor) => Promise<T>) =>
    tx ? tx.transaction(write) : deps.db.transaction(write);
  const order = orderOf(body);
  if (order) {
    const { source: _s, external_id: _e, ...entry } = body;
    return inTransaction((w) => createWithOrder(deps, w, userId, entry, order));
  }
  const original = originalOf(body);
  if (original !== undefined && (body.kind === 'transfer' || body.kind === 'refund'))
    throw Errors.field('original_amount', 'is for an expense or an income');
  if (body.kind === 'transfer') {
    if (body.refund_of !== undefined) throw Errors.field('refund_of', 'is only for a refund');
    return inTransaction(async (w) => view(deps, w, await createTransfer(w, userId, body)));
  }
  if (body.kind === 'refund')
    return inTransaction(async (w) => view(deps, w, await createRefund(deps, w, userId, body)));
  const fields = entryFields(body, original !== undefined);
  if (original) {
    // paid in another currency than the account's: priced from what was paid, which is kept beside
    const draft = { ...fields, original, amount: body.amount, rate: body.rate };
    const categoryAuto = body.category_picked === false;
    return inTransaction(async (w) => view(deps, w, await createWithOriginal(w, userId, { ...draft, categoryAuto })));
  }
  if (fields.groupId !== null) {
    const groupId = fields.groupId;
    return inTransaction((w) => createInGroup(deps, w, userId, { ...fields, groupId }, body));
  }
  const written = await books.write(tx ?? deps.db, userId, {
    type: 'manual',
    draft: { ...fields, amount: body.amount, rate: body.rate, categoryAuto: body.category_picked === false },
    inTransaction: tx !== undefined,
  });
  return 'row' in written ? checkedView(written.row) : view(deps, tx ?? deps.db, written.id);
}

/** The bill and the order id a confirmed screenshot gives its entry: both or neither, on an own expense or income. */
function orderOf(body: TransactionCreateBody): books.Adoption | null {
  const { source, external_id: externalId } = body;
  if (source === undefined && externalId === undefined) return null;
  if (source === undefined) throw Errors.field('source', 'is required with external_id');
  if (externalId === undefined) throw Errors.field('external_id', 'is required with source');
  if (body.kind !== 'expense' && body.kind !== 'income')
    throw Errors.field('source', 'is for an expense or an income of your own');
  if (body.group_id != null) throw Errors.field('source', 'is for an expense or an income of your own');
  return { id: 0, source, externalId, at: null, counterparty: '' };
}

/**
 * An entry confirmed from a payment screenshot: written as any other, then given the bill's source
 * and order id through the books writer, in one transaction. A later bill row with that id is this
 * entry; an order id already in the books is refused (40901) and nothing is written.
 */
async function createWithOrder(
  deps: TransactionDeps,
  w: Executor,
  userId: number,
  body: TransactionCreateBody,
  order: books.Adoption,
): Promise<TransactionView> {
  const refuse = () => Errors.conflict(`order ${order.externalId} of ${order.source} is already in your books`);
  if (await deps.repo.orderBooked(w, userId, order.source!, order.externalId!)) throw refuse();
  const { id } = await createTransaction(deps, userId, body, w);
  const kept = await books.write(w, userId, { type: 'adopt', rows: [{ ...order, id }] }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? refuse() : err;
  });
  if (kept.length !== 1) throw refuse();
  return view(deps, w, id);
}

/** The fields of an expense or an income, checked in the order the API documents its errors. */
function entryFields(body: TransactionCreateBody, paidElsewhere = false): EntryFields {
  if (body.refund_of !== undefined) throw Errors.field('refund_of', 'is only for a refund');
  for (const f of ['to_account_id', 'to_amount', 'fee', 'fee_category_id'] as const) {
    if (body[f] !== undefined) throw Errors.field(f, 'is only for a transfer');
  }
  // the amount's shape first (valid in some currency); its decimals are checked against the account's currency
  if (!paidElsewhere || body.amount !== undefined) parseAmountIn(body.amount, ANY_CURRENCY);
  if (body.category_id === undefined) throw Errors.field('category_id', 'is required for an expense or an income');
  const kind = body.kind as CategoryKind;
  const date = checkDate(body.date, 'date');
  const note = cleanOptionalText(body.note, 'note', 200);
  const tagIds = [...new Set(body.tag_ids ?? [])];
  if (tagIds.length > MAX_TAGS_PER_TRANSACTION)
    throw Errors.field('tag_ids', `must hold at most ${MAX_TAGS_PER_TRANSACTION} tags`);
  const groupId = body.group_id ?? null;
  if (groupId === null && body.paid_by !== undefined) throw Errors.field('paid_by', 'is only allowed with group_id');
  if (groupId === null && body.split !== undefined) throw Errors.field('split', 'is only allowed with group_id');
  return { kind, categoryId: body.category_id, accountId: body.account_id ?? null, note, date, tagIds, groupId };
}

/** The view of a row the one-statement create wrote. */
function checkedView(r: CheckedRow): TransactionView {
  const { tags, ...row } = r;
  return toTransactionView(
    { ...row, paidBy: null, toAccountId: null, toAmount: null, toCurrency: null, rate: null, parentId: null },
    tags,
  );
}

/**
 * A group record: who paid and who shares it (default: the recorder paid; shared as `sharesFor`
 * decides), written with its shares in one transaction; the members involved are notified.
 */
async function createInGroup(
  deps: TransactionDeps,
  ex: Executor,
  userId: number,
  row: EntryFields & { groupId: number },
  body: TransactionCreateBody,
): Promise<TransactionView> {
  const group = await requireWritableGroup(ex, row.groupId, userId);
  const members = await splitsRepoMemberIds(ex, row.groupId);
  const paidBy = checkPayer(body.paid_by ?? userId, members);
  const currency = groupCurrency(group);
  // the amount is in the group currency: its decimals are that currency's
  const amountMinor = parseAmountIn(body.amount, currency);
  const split = sharesFor(group, amountMinor, currency, members, { split: body.split, isNew: true });
  await requireCategory(ex, userId, row.categoryId, { kind: row.kind });
  await requireTags(ex, userId, row.tagIds);
  const booking = await groupBooking(ex, userId, row, paidBy, amountMinor, currency.code, body.rate);
  const id = await books.write(ex, userId, {
    type: 'group',
    row: {
      kind: row.kind,
      amount: amountMinor,
      categoryId: row.categoryId,
      note: row.note,
      date: row.date,
      groupId: row.groupId,
      paidBy,
      categoryAuto: body.category_picked === false,
      ...booking,
    },
    tagIds: row.tagIds,
    split,
  });
  await notifyRecord(ex, group, {
    id,
    recorder: userId,
    paidBy,
    kind: row.kind,
    amount: amountMinor,
    note: row.note,
    shares: split.shares,
  });
  return view(deps, ex, id);
}

/**
 * The record is kept in the group currency: the payer's own record moves one of their accounts in
 * that currency; a record for another payer moves none of the recorder's accounts.
 */
async function groupBooking(
  ex: Executor,
  userId: number,
  row: EntryFields,
  paidBy: number,
  amountMinor: number,
  currency: string,
  rate: unknown,
): Promise<{ accountId: number | null; currency: string; baseAmount: number; rate: string | null }> {
  if (paidBy === userId) {
    const account =
      row.accountId === null ? await defaultAccount(ex, userId) : await requireOpenAccount(ex, userId, row.accountId);
    if (account.currency !== currency)
      throw Errors.field('account_id', `must be an account in the group currency ${currency}`);
    return bookIn(ex, userId, account, amountMinor, row.date, rate);
  }
  if (row.accountId !== null) throw Errors.field('account_id', 'is not allowed on a record another member paid');
  const notAnAccount = { id: 0, currency, archived: false };
  return { ...(await bookIn(ex, userId, notAnAccount, amountMinor, row.date, rate)), accountId: null };
}
