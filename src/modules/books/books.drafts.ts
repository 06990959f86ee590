import type { Executor } from '../../db/client.ts';
import type { TransactionKind } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import { defaultAccount, requireOpenAccount, type AccountRef } from './books.access.ts';
import { accountCurrency, bookIn, parseAmountIn } from './books.money.ts';
import { insertRow, replaceTags } from './books.writer.ts';

/**
 * A row as a feature describes it: the amount as the person gave it (a decimal read with the
 * account currency's own digits) or in minor units of the account's currency, and the account by
 * id (null: the default one). The writer resolves the account, reads the amount, converts it once
 * to the base currency (at `rate`, else the user's rate of the date) and writes the row with its
 * tags. References (category, tags, group) are checked by the caller, who knows their rules.
 */
export interface Draft {
  kind: TransactionKind;
  amount: { decimal: unknown; field?: string; allowNegative?: boolean } | { minor: number };
  /** an account id (null: the default account), or an account already resolved under a lock */
  account: number | null | AccountRef;
  categoryId: number | null;
  tagIds?: readonly number[];
  note: string;
  date: string;
  groupId?: number | null;
  paidBy?: number | null;
  recurringId?: number | null;
  /** a rate given by hand; else the user's rate of `date` */
  rate?: unknown;
  /** a refund: the purchase it reduces */
  refundOf?: number | null;
  /** the category is the suggester's guess, left as it was */
  categoryAuto?: boolean;
}

async function accountOf(ex: Executor, userId: number, account: Draft['account']): Promise<AccountRef> {
  if (account === null) return defaultAccount(ex, userId);
  if (typeof account === 'number') return requireOpenAccount(ex, userId, account);
  return account;
}

/** Writes one draft (inside the caller's transaction when it writes more than once); answers its id. */
export async function writeDraft(ex: Executor, userId: number, draft: Draft): Promise<number> {
  const account = await accountOf(ex, userId, draft.account);
  const currency = accountCurrency(account);
  const minor =
    'minor' in draft.amount
      ? draft.amount.minor
      : parseAmountIn(draft.amount.decimal, currency, draft.amount.field ?? 'amount', {
          allowNegative: draft.amount.allowNegative,
          allowZero: false,
        });
  if (!Number.isSafeInteger(minor))
    throw Errors.field('amount', `must be a whole number of ${currency.code} minor units`);
  const booking = await bookIn(ex, userId, account, minor, draft.date, draft.rate);
  const id = await insertRow(ex, userId, {
    kind: draft.kind,
    amount: minor,
    categoryId: draft.categoryId,
    note: draft.note,
    date: draft.date,
    groupId: draft.groupId ?? null,
    paidBy: draft.paidBy ?? null,
    recurringId: draft.recurringId ?? null,
    refundOf: draft.refundOf ?? null,
    categoryAuto: draft.categoryAuto ?? false,
    ...booking,
  });
  if (draft.tagIds?.length) await replaceTags(ex, id, draft.tagIds);
  return id;
}
