import type { Executor } from '../../db/client.ts';
import { checkDate } from '../../lib/dates.ts';
import { isCategoryKind } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';
import * as books from '../books/index.ts';
import {
  accountCurrency,
  defaultAccount,
  parseAmountIn,
  rebook,
  requireCategory,
  requireGroupMember,
  requireOpenAccount,
  requireTags,
  requireWritableGroup,
  type AccountRef,
} from '../books/index.ts';
import { groupById } from '../groups/index.ts';
import { memberIds as splitsRepoMemberIds, splitOf as splitsRepoSplitOf } from '../splits/index.ts';
import { groupCurrency, sharesFor, type ResolvedSplit } from '../splits/index.ts';
import { ANY_CURRENCY, checkPayer, MAX_TAGS_PER_TRANSACTION, view, type TransactionDeps } from './transactions.deps.ts';
import { keepOriginal, originalOf, repriceOriginal } from './transactions.original.ts';
import { checkRefundCap } from './transactions.refunds.ts';
import type { TransactionRow } from './transactions.repo.ts';
import type { TransactionUpdateBody, TransactionView } from './transactions.schemas.ts';
import { updateTransfer } from './transactions.transfers.ts';

/** What a correction is working on: the row as it is (locked), the body, the columns it changes. */
interface Correction {
  tx: Executor;
  userId: number;
  cur: TransactionRow;
  body: TransactionUpdateBody;
  patch: books.RowPatch;
  /** a refund (an expense with a negative amount) stays one */
  isRefund: boolean;
}

/** Corrects one of the owner's transactions; anyone else's is 40401. */
export async function updateTransaction(
  deps: TransactionDeps,
  userId: number,
  id: number,
  body: TransactionUpdateBody,
): Promise<TransactionView> {
  const patch: books.RowPatch = {};
  if (body.amount !== undefined) parseAmountIn(body.amount, ANY_CURRENCY, 'amount', { allowNegative: true });
  if (body.date !== undefined) patch.date = checkDate(body.date, 'date');
  if (body.note !== undefined) patch.note = cleanText(body.note, 'note', 0, 200);
  return deps.db.transaction(async (tx) => {
    // only the owner may change it; everyone else learns nothing (40401)
    const cur = await deps.repo.findOwn(tx, userId, id, true);
    if (!cur) throw Errors.notFound('transaction');
    if (cur.kind === 'transfer') {
      await updateTransfer(tx, userId, cur, body, deps.clock.now());
      return view(deps, tx, id);
    }
    const c: Correction = { tx, userId, cur, body, patch, isRefund: cur.kind === 'expense' && cur.amountMinor < 0 };
    checkRefundEdit(c);
    if (body.category_picked !== undefined) patch.categoryAuto = !body.category_picked;
    // a category changed by hand is the person's: it teaches the suggester
    else if (body.category_id !== undefined && body.category_id !== cur.categoryId) patch.categoryAuto = false;
    for (const f of ['to_account_id', 'to_amount', 'fee', 'fee_category_id'] as const) {
      if (body[f] !== undefined) throw Errors.field(f, 'is only for a transfer');
    }
    await categoryChange(c);
    // what was paid in another currency, when the body names it: the account's amount priced from it
    const original = originalOf(body, cur.originalCurrency);
    if (original !== undefined)
      Object.assign(patch, await repriceOriginal(tx, userId, cur, body, original, patch.date ?? cur.date));
    else await moneyChange(deps, c);
    const tagIds =
      body.tag_ids === undefined
        ? undefined
        : await requireTags(tx, userId, body.tag_ids, { max: MAX_TAGS_PER_TRANSACTION });
    const shares = await groupChange(c);
    await keepOriginal(tx, userId, cur, original, patch.currency ?? cur.currency, 'before');
    await books.write(tx, userId, {
      type: 'update',
      id,
      patch: Object.keys(patch).length || tagIds ? { ...patch, updatedAt: deps.clock.now() } : {},
      tagIds,
      shares: shares === undefined ? undefined : shares && { groupId: shares.groupId, ...shares.split },
    });
    await keepOriginal(tx, userId, cur, original, patch.currency ?? cur.currency, 'after');
    return view(deps, tx, id);
  });
}

/** A refund stays a refund, in its purchase's category, in one's own books. */
function checkRefundEdit({ cur, body, isRefund }: Correction): void {
  if (!isRefund) return;
  if (body.kind !== undefined && body.kind !== 'expense') throw Errors.field('kind', 'a refund stays a refund');
  if (cur.refundOf !== null && body.category_id !== undefined && body.category_id !== cur.categoryId) {
    throw Errors.field('category_id', "a refund stays in its purchase's category");
  }
  if (body.group_id !== undefined && body.group_id !== null)
    throw Errors.field('group_id', 'a refund is recorded in your own books');
}

/** Another kind or category: one of the owner's, of that kind. */
async function categoryChange({ tx, userId, cur, body, patch }: Correction): Promise<void> {
  if (body.kind === undefined && body.category_id === undefined) return;
  const kind = body.kind ?? cur.kind;
  const categoryId = body.category_id ?? cur.categoryId;
  if (!isCategoryKind(kind) || categoryId === null)
    throw Errors.field('kind', 'a transfer or an adjustment has no category to change');
  if (!isCategoryKind(cur.kind)) throw Errors.field('kind', 'an adjustment stays an adjustment');
  await requireCategory(tx, userId, categoryId, { kind });
  patch.kind = kind;
  patch.categoryId = categoryId;
}

/** The money: another account (rebooked in its currency), another amount or another rate. */
async function moneyChange(deps: TransactionDeps, c: Correction): Promise<void> {
  const { tx, userId, cur, body, patch, isRefund } = c;
  const moveAccount = body.account_id !== undefined && body.account_id !== cur.accountId;
  if (!moveAccount && body.amount === undefined && (body.rate === undefined || body.rate === null)) return;
  const account: AccountRef = moveAccount
    ? await requireOpenAccount(tx, userId, body.account_id!)
    : cur.accountId !== null
      ? { id: cur.accountId, currency: cur.currency, archived: false }
      : await defaultAccount(tx, userId);
  const currency = accountCurrency(account);
  if (account.currency !== cur.currency && body.amount === undefined) {
    throw Errors.field(
      'amount',
      `is required when the transaction moves to an account in another currency (${cur.currency} to ${account.currency})`,
    );
  }
  let amount =
    body.amount === undefined
      ? cur.amountMinor
      : parseAmountIn(body.amount, currency, 'amount', { allowNegative: cur.kind === 'adjustment' || isRefund });
  if (isRefund) {
    amount = -Math.abs(amount);
    if (cur.refundOf !== null) {
      const purchase = await deps.repo.findOwn(tx, userId, cur.refundOf, true);
      if (purchase)
        await checkRefundCap(deps, tx, userId, purchase, {
          minor: -amount,
          currency: account.currency,
          exceptId: cur.id,
        });
    }
  }
  const booking = await rebook(
    tx,
    userId,
    account,
    amount,
    patch.date ?? cur.date,
    { currency: cur.currency, rate: cur.rate },
    body.rate,
  );
  Object.assign(patch, { amountMinor: amount, ...booking });
}

/**
 * The group and its shares: moving into another group is a write into it; keeping the group it
 * already has is not, so a transaction of a dissolved group can still be corrected. Answers the
 * shares to store (null: none, undefined: unchanged).
 */
async function groupChange(
  c: Correction,
): Promise<{ groupId: number | null; split: ResolvedSplit } | null | undefined> {
  const { tx, userId, cur, body, patch } = c;
  if (body.group_id !== undefined) {
    if (body.group_id !== null && body.group_id !== cur.groupId) await requireWritableGroup(tx, body.group_id, userId);
    if (body.group_id !== null && cur.kind === 'adjustment')
      throw Errors.field('group_id', 'an adjustment cannot be in a group');
    patch.groupId = body.group_id;
  }
  const groupId = body.group_id !== undefined ? body.group_id : cur.groupId;
  if (groupId === null && body.paid_by !== undefined) throw Errors.field('paid_by', 'is only allowed with group_id');
  if (groupId === null && body.split !== undefined) throw Errors.field('split', 'is only allowed with group_id');
  if (groupId === null) {
    if (cur.groupId === null) return undefined;
    patch.paidBy = null;
    return null;
  }
  const amount = patch.amountMinor ?? cur.amountMinor;
  const moved = groupId !== cur.groupId;
  const touches =
    moved ||
    body.split !== undefined ||
    body.paid_by !== undefined ||
    amount !== cur.amountMinor ||
    (patch.kind !== undefined && patch.kind !== cur.kind);
  if (!touches) return undefined;
  // moving in was checked above; a record staying in its group may be corrected by its owner,
  // even in a group they left or one that was dissolved, and its shares follow
  const group = moved ? await requireGroupMember(tx, groupId, userId) : await groupById(tx, groupId);
  if (!group) throw Errors.notFound('transaction');
  const members = await splitsRepoMemberIds(tx, groupId);
  const currency = groupCurrency(group);
  // shares are kept in the group currency: the record must be booked in it
  if (cur.currency !== currency.code)
    throw Errors.field(
      moved ? 'group_id' : 'amount',
      `the record is in ${cur.currency}, the group keeps ${currency.code}`,
    );
  if (body.paid_by !== undefined) patch.paidBy = checkPayer(body.paid_by, members);
  else if (moved || cur.paidBy === null) patch.paidBy = userId;
  const stored = moved ? null : await splitsRepoSplitOf(tx, cur.id);
  return { groupId, split: sharesFor(group, amount, currency, members, { split: body.split, stored, isNew: moved }) };
}
