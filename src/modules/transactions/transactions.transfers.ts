import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { transactions } from '../../db/schema/index.ts';
import { type CurrencyInfo } from '../../lib/currency.ts';
import { isValidDate } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanOptionalText, cleanText } from '../../lib/text.ts';
import * as books from '../books/index.ts';
import {
  accountCurrency,
  bookIn,
  defaultAccount,
  feeBase,
  parseAmountIn,
  rebook,
  requireCategory,
  requireOpenAccount,
  requireTags,
  type AccountRef,
  type Booking,
} from '../books/index.ts';
import type { TransactionRow } from './transactions.repo.ts';
import type { TransactionCreateBody, TransactionUpdateBody } from './transactions.schemas.ts';

/**
 * Transfers: money moving between two of the owner's accounts. The row is booked in the sending
 * account (`account_id`, `amount` in its currency, converted to the base currency like any row) and
 * names the receiving one (`to_account_id`, `to_amount` in its currency: equal to `amount` between
 * accounts of one currency, required between two currencies). An optional fee is an expense row of
 * the sending account pointing to its transfer (`parent_id`): it follows the transfer's date and
 * account and goes when the transfer is deleted. Transfers never count as income or expense.
 */

export const MAX_TAGS = 10;

function checkDate(value: string, field: string): string {
  if (!isValidDate(value)) throw Errors.field(field, 'must be a valid calendar date (YYYY-MM-DD)');
  return value;
}

function toAmountOf(
  body: { to_amount?: unknown },
  amount: number,
  from: AccountRef,
  to: AccountRef,
  toCur: CurrencyInfo,
  previous: { toAmount: number; toCurrency: string; currency: string } | null,
): number {
  if (from.currency === to.currency) {
    if (body.to_amount !== undefined && parseAmountIn(body.to_amount, toCur, 'to_amount') !== amount) {
      throw Errors.field('to_amount', 'must equal amount between two accounts of the same currency');
    }
    return amount;
  }
  if (body.to_amount !== undefined) return parseAmountIn(body.to_amount, toCur, 'to_amount');
  if (previous && previous.toCurrency === to.currency && previous.currency === from.currency) return previous.toAmount;
  throw Errors.field(
    'to_amount',
    `is required between accounts of different currencies (${from.currency} to ${to.currency})`,
  );
}

/** Records a transfer (and its fee) in the caller's transaction `tx`; answers the transfer's id. */
export async function createTransfer(tx: Executor, userId: number, body: TransactionCreateBody): Promise<number> {
  if (body.category_id !== undefined)
    throw Errors.field('category_id', 'is not for a transfer (a fee takes fee_category_id)');
  if (body.group_id !== undefined && body.group_id !== null)
    throw Errors.field('group_id', 'a transfer moves your own money and cannot be in a group');
  if (body.to_account_id === undefined) throw Errors.field('to_account_id', 'is required for a transfer');
  if (body.fee === undefined && body.fee_category_id !== undefined)
    throw Errors.field('fee_category_id', 'is only for a transfer with a fee');
  const date = checkDate(body.date, 'date');
  const note = cleanOptionalText(body.note, 'note', 200);
  const from =
    body.account_id === undefined
      ? await defaultAccount(tx, userId)
      : await requireOpenAccount(tx, userId, body.account_id);
  const to = await requireOpenAccount(tx, userId, body.to_account_id, 'to_account_id');
  if (to.id === from.id) throw Errors.field('to_account_id', 'must be another account than account_id');
  const fromCur = accountCurrency(from);
  const toCur = accountCurrency(to, 'to_account_id');
  const amount = parseAmountIn(body.amount, fromCur);
  const toAmount = toAmountOf(body, amount, from, to, toCur, null);
  const fee = body.fee === undefined ? null : parseAmountIn(body.fee, fromCur, 'fee');
  if (fee !== null) {
    if (body.fee_category_id === undefined) throw Errors.field('fee_category_id', 'is required with a fee');
    await requireCategory(tx, userId, body.fee_category_id, { field: 'fee_category_id', kind: 'expense' });
  }
  const tagIds = await requireTags(tx, userId, body.tag_ids ?? [], { max: MAX_TAGS });
  const booking = await bookIn(tx, userId, from, amount, date, body.rate);
  const feeRow: books.BookedRow | null =
    fee === null
      ? null
      : {
          kind: 'expense',
          amount: fee,
          categoryId: body.fee_category_id!,
          note,
          date,
          groupId: null,
          accountId: from.id,
          currency: from.currency,
          baseAmount: await feeBase(tx, userId, fee, fromCur, booking),
          rate: booking.rate,
        };
  return books.write(tx, userId, {
    type: 'transfer',
    row: {
      kind: 'transfer',
      amount,
      categoryId: null,
      note,
      date,
      groupId: null,
      ...booking,
      toAccountId: to.id,
      toAmount,
      toCurrency: to.currency,
    },
    tagIds,
    fee: feeRow,
  });
}

/** Changes a transfer (`cur`, locked by the caller's transaction); its fee follows. */
export async function updateTransfer(
  tx: Executor,
  userId: number,
  cur: TransactionRow,
  body: TransactionUpdateBody,
  now: Date,
): Promise<void> {
  if (body.kind !== undefined)
    throw Errors.field('kind', 'a transfer stays a transfer: delete it and record an expense or an income instead');
  if (body.category_id !== undefined)
    throw Errors.field('category_id', 'is not for a transfer (a fee takes fee_category_id)');
  if (body.group_id !== undefined && body.group_id !== null)
    throw Errors.field('group_id', 'a transfer moves your own money and cannot be in a group');
  const date = body.date === undefined ? cur.date : checkDate(body.date, 'date');
  const note = body.note === undefined ? cur.note : cleanText(body.note, 'note', 0, 200);
  const from: AccountRef =
    body.account_id !== undefined && body.account_id !== cur.accountId
      ? await requireOpenAccount(tx, userId, body.account_id)
      : { id: cur.accountId!, currency: cur.currency, archived: false };
  const to: AccountRef =
    body.to_account_id !== undefined && body.to_account_id !== cur.toAccountId
      ? await requireOpenAccount(tx, userId, body.to_account_id, 'to_account_id')
      : { id: cur.toAccountId!, currency: cur.toCurrency!, archived: false };
  if (to.id === from.id) throw Errors.field('to_account_id', 'must be another account than account_id');
  const fromCur = accountCurrency(from);
  const toCur = accountCurrency(to, 'to_account_id');
  const fromChanged = from.currency !== cur.currency;
  if (fromChanged && body.amount === undefined)
    throw Errors.field('amount', "is required when the sending account's currency changes");
  const amount = body.amount === undefined ? cur.amountMinor : parseAmountIn(body.amount, fromCur);
  const toAmount = toAmountOf(body, amount, from, to, toCur, {
    toAmount: cur.toAmount!,
    toCurrency: cur.toCurrency!,
    currency: cur.currency,
  });
  const tagIds =
    body.tag_ids === undefined ? undefined : await requireTags(tx, userId, body.tag_ids, { max: MAX_TAGS });
  const booking = await rebook(tx, userId, from, amount, date, { currency: cur.currency, rate: cur.rate }, body.rate);
  await books.write(tx, userId, {
    type: 'update',
    id: cur.id,
    patch: {
      amountMinor: amount,
      date,
      note,
      ...booking,
      toAccountId: to.id,
      toAmount,
      toCurrency: to.currency,
      groupId: null,
      updatedAt: now,
    },
    tagIds,
  });

  await updateFee(tx, userId, cur, body, { from, fromCur, fromChanged, date, note, booking, now });
}

/** The fee follows its transfer's correction: removed, changed, or added. */
async function updateFee(
  tx: Executor,
  userId: number,
  cur: TransactionRow,
  body: TransactionUpdateBody,
  t: {
    from: AccountRef;
    fromCur: CurrencyInfo;
    fromChanged: boolean;
    date: string;
    note: string;
    booking: Booking;
    now: Date;
  },
): Promise<void> {
  const { from, fromCur, fromChanged, date, note, booking, now } = t;
  const [fee] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.parentId, cur.id), eq(transactions.userId, userId)))
    .limit(1);
  if (body.fee === null) {
    if (fee) await books.write(tx, userId, { type: 'delete', id: fee.id });
    return;
  }
  if (body.fee === undefined && !fee) {
    if (body.fee_category_id !== undefined) throw Errors.field('fee_category_id', 'is only for a transfer with a fee');
    return;
  }
  if (body.fee === undefined && fromChanged)
    throw Errors.field('fee', "is required when the sending account's currency changes");
  const feeMinor = body.fee === undefined ? fee!.amountMinor : parseAmountIn(body.fee, fromCur, 'fee');
  const categoryId = body.fee_category_id ?? fee?.categoryId;
  if (categoryId === undefined || categoryId === null) throw Errors.field('fee_category_id', 'is required with a fee');
  if (body.fee_category_id !== undefined)
    await requireCategory(tx, userId, body.fee_category_id, { field: 'fee_category_id', kind: 'expense' });
  const values = {
    amountMinor: feeMinor,
    categoryId,
    note,
    date,
    accountId: from.id,
    currency: from.currency,
    baseAmount: await feeBase(tx, userId, feeMinor, fromCur, booking),
    rate: booking.rate,
    updatedAt: now,
  };
  if (fee) await books.write(tx, userId, { type: 'update', id: fee.id, patch: values });
  else {
    const { amountMinor, updatedAt: _updated, ...rest } = values;
    await books.write(tx, userId, {
      type: 'transferFee',
      transferId: cur.id,
      fee: { ...rest, amount: amountMinor, kind: 'expense', groupId: null },
    });
  }
}
