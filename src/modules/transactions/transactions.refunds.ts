import type { Executor } from '../../db/client.ts';
import { checkDate } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanOptionalText } from '../../lib/text.ts';
import * as books from '../books/index.ts';
import {
  accountCurrency,
  defaultAccount,
  parseAmountIn,
  requireCategory,
  requireOpenAccount,
  requireTags,
} from '../books/index.ts';
import { ANY_CURRENCY, MAX_TAGS_PER_TRANSACTION, type TransactionDeps } from './transactions.deps.ts';
import type { TransactionCreateBody } from './transactions.schemas.ts';

type Repo = Pick<TransactionDeps, 'repo'>;

/**
 * The purchase a refund reduces: one of the caller's expenses, locked, that is not a refund itself; 40001 otherwise.
 */
async function requirePurchase({ repo }: Repo, ex: Executor, userId: number, id: number) {
  const purchase = await repo.findOwn(ex, userId, id, true);
  if (!purchase || purchase.kind !== 'expense' || purchase.amountMinor <= 0)
    throw Errors.field('refund_of', 'must be one of your purchases (an expense)');
  return purchase;
}

/** The refunds of a purchase never add up to more than it (when they are in its currency): 42201 otherwise. */
export async function checkRefundCap(
  { repo }: Repo,
  ex: Executor,
  userId: number,
  purchase: { id: number; amountMinor: number; currency: string },
  refund: { minor: number; currency: string; exceptId?: number },
) {
  if (refund.currency !== purchase.currency) return;
  const already = await repo.refundedOf(ex, userId, purchase.id, purchase.currency, refund.exceptId);
  if (already + refund.minor > purchase.amountMinor) {
    throw Errors.rule('the refunds of a purchase cannot add up to more than the purchase');
  }
}

/**
 * A refund: an expense with a negative amount in the purchase's category (else the one given),
 * by default in the purchase's account, linked to the purchase when one is given. Refunds are
 * personal: a group record's refund would have to change its shares, which a refund does not.
 */
export async function createRefund(
  deps: Repo,
  ex: Executor,
  userId: number,
  body: TransactionCreateBody,
): Promise<number> {
  for (const f of ['to_account_id', 'to_amount', 'fee', 'fee_category_id', 'paid_by', 'split'] as const) {
    if (body[f] !== undefined) throw Errors.field(f, 'is not for a refund');
  }
  if (body.group_id !== undefined && body.group_id !== null)
    throw Errors.field('group_id', 'a refund is recorded in your own books');
  parseAmountIn(body.amount, ANY_CURRENCY);
  const date = checkDate(body.date, 'date');
  const note = cleanOptionalText(body.note, 'note', 200);
  const tagIds = await requireTags(ex, userId, [...new Set(body.tag_ids ?? [])], { max: MAX_TAGS_PER_TRANSACTION });
  const purchase = body.refund_of === undefined ? null : await requirePurchase(deps, ex, userId, body.refund_of);
  if (purchase?.groupId != null)
    throw Errors.field('refund_of', 'is a group record: a refund is recorded in your own books');
  if (purchase && body.category_id !== undefined && body.category_id !== purchase.categoryId) {
    throw Errors.field('category_id', "a refund stays in its purchase's category");
  }
  const categoryId = purchase?.categoryId ?? body.category_id;
  if (categoryId === undefined || categoryId === null)
    throw Errors.field('category_id', 'is required for a refund without a purchase');
  await requireCategory(ex, userId, categoryId, { kind: 'expense' });
  const accountId = body.account_id ?? purchase?.accountId ?? null;
  const account =
    accountId === null ? await defaultAccount(ex, userId) : await requireOpenAccount(ex, userId, accountId);
  const minor = parseAmountIn(body.amount, accountCurrency(account));
  if (purchase) await checkRefundCap(deps, ex, userId, purchase, { minor, currency: account.currency });
  return books.write(ex, userId, {
    type: 'booked',
    draft: {
      kind: 'expense',
      amount: { minor: -minor },
      account,
      categoryId,
      tagIds,
      note,
      date,
      rate: body.rate,
      refundOf: purchase?.id ?? null,
      categoryAuto: purchase === null && body.category_picked === false,
    },
  });
}
