import type { Executor } from '../../db/client.ts';
import { currencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import * as books from '../books/index.ts';
import {
  accountCurrency,
  defaultAccount,
  parseAmountIn,
  priceOriginal,
  requireCategory,
  requireOpenAccount,
  requireTags,
  type Original,
} from '../books/index.ts';

/*
 * Entries paid in another currency than their account's: "dinner 45 EUR" on a pound card keeps
 * 45 EUR beside the pounds the card was charged. The first contract's bodies never name an
 * original, and take none of these paths.
 */

export interface OriginalFields {
  amount?: unknown;
  original_amount?: unknown;
  original_currency?: string | null;
}

/**
 * What a body says of the original: undefined when it names none, null when it clears it, else
 * the original in minor units of its currency. `known`: the row's original currency, for a
 * correction that sends the amount alone.
 */
export function originalOf(body: OriginalFields, known: string | null = null): Original | null | undefined {
  const { original_amount: amount, original_currency: code } = body;
  if (amount === undefined && code === undefined) return undefined;
  if (amount === null && code !== undefined && code !== null)
    throw Errors.field('original_amount', 'is required with original_currency');
  if (amount === null || (amount === undefined && code === null)) return null;
  if (amount === undefined) throw Errors.field('original_amount', 'is required with original_currency');
  const currencyCode = code ?? known;
  if (!currencyCode) throw Errors.field('original_currency', 'is required with original_amount');
  const currency = currencyInfo(currencyCode);
  if (!currency) throw Errors.field('original_currency', 'must be a currency one can keep books in');
  return { minor: parseAmountIn(amount, currency, 'original_amount'), currency };
}

/** A new expense or income of one's own with its original: checked, priced and written; answers its id. */
export async function createWithOriginal(
  ex: Executor,
  userId: number,
  d: {
    kind: 'expense' | 'income';
    original: Original;
    amount: unknown;
    rate: unknown;
    accountId: number | null;
    categoryId: number;
    tagIds: number[];
    note: string;
    date: string;
    groupId: number | null;
    categoryAuto: boolean;
  },
): Promise<number> {
  if (d.groupId !== null) throw Errors.field('original_amount', 'is for an entry of your own, not a group record');
  if (d.rate !== undefined)
    throw Errors.field('rate', 'is not taken with original_amount: give the amount the account was charged instead');
  await requireCategory(ex, userId, d.categoryId, { kind: d.kind });
  await requireTags(ex, userId, d.tagIds);
  const account =
    d.accountId === null ? await defaultAccount(ex, userId) : await requireOpenAccount(ex, userId, d.accountId);
  const charged = d.amount === undefined ? undefined : parseAmountIn(d.amount, accountCurrency(account));
  return books.write(ex, userId, {
    type: 'foreign',
    draft: {
      kind: d.kind,
      account,
      original: d.original,
      chargedMinor: charged,
      categoryId: d.categoryId,
      tagIds: d.tagIds,
      note: d.note,
      date: d.date,
      categoryAuto: d.categoryAuto,
    },
  });
}

/** The stored row as a correction of its original needs it. */
export interface OriginalRow {
  id: number;
  kind: string;
  amountMinor: number;
  accountId: number | null;
  currency: string;
  groupId: number | null;
  date: string;
  originalAmountMinor: number | null;
  originalCurrency: string | null;
}

/**
 * A correction that names the original (`original` not undefined): the account's amount priced
 * anew from it (or the amount sent, the bank's figure), in the account sent or the row's. Answers
 * the money patch, written by the caller with the rest of the correction, then the original kept.
 */
export async function repriceOriginal(
  tx: Executor,
  userId: number,
  cur: OriginalRow,
  body: OriginalFields & { account_id?: number; rate?: unknown },
  original: Original | null,
  date: string,
): Promise<{ accountId: number; amountMinor: number; currency: string; baseAmount: number; rate: string | null }> {
  if (cur.kind !== 'expense' && cur.kind !== 'income')
    throw Errors.field('original_amount', 'is for an expense or an income');
  if (cur.amountMinor < 0) throw Errors.field('original_amount', 'is not for a refund');
  if (cur.groupId !== null) throw Errors.field('original_amount', 'is for an entry of your own, not a group record');
  if (body.rate !== undefined && body.rate !== null)
    throw Errors.field('rate', 'is not taken with original_amount: give the amount the account was charged instead');
  const account =
    body.account_id !== undefined
      ? await requireOpenAccount(tx, userId, body.account_id)
      : cur.accountId !== null
        ? await requireOpenAccount(tx, userId, cur.accountId)
        : await defaultAccount(tx, userId);
  const charged = body.amount === undefined ? undefined : parseAmountIn(body.amount, accountCurrency(account));
  // cleared: the account keeps what it was charged (or the amount sent)
  const paid = original ?? {
    minor: charged ?? cur.amountMinor,
    currency: accountCurrency(account),
  };
  const priced = await priceOriginal(tx, userId, account, paid, date, original ? charged : undefined);
  return { ...priced, accountId: account.id };
}

/**
 * Keeps the original of a corrected row: the one sent, or none once the row is in that very
 * currency. A row never holds an original in its own currency, so `stage` 'before' the row's
 * update clears what must go, and 'after' it sets what was sent.
 */
export async function keepOriginal(
  tx: Executor,
  userId: number,
  cur: OriginalRow,
  original: Original | null | undefined,
  currencyNow: string,
  stage: 'before' | 'after',
): Promise<void> {
  const kept =
    original === undefined
      ? cur.originalCurrency !== null && cur.originalCurrency !== currencyNow
        ? 'unchanged'
        : null
      : original && original.currency.code !== currencyNow
        ? { minor: original.minor, currency: original.currency.code }
        : null;
  if (kept === 'unchanged') return;
  if (stage === 'before') {
    if (cur.originalCurrency !== null) await books.write(tx, userId, { type: 'original', id: cur.id, original: null });
  } else if (kept) await books.write(tx, userId, { type: 'original', id: cur.id, original: kept });
}
