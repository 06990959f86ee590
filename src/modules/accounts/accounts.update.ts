// Changing an account: its fields, its currency while it has no rows, archiving and the default.
import type { Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { requireCurrency, type CurrencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';
import { accountCurrency, parseAmountIn } from '../books/index.ts';
import { checkDate, duplicateDefault, viewOf, type AccountDeps } from './accounts.deps.ts';
import type { AccountRow } from './accounts.repo.ts';
import type { AccountUpdateBody, AccountView } from './accounts.schemas.ts';

/** Applies the fields the body gives to one of the owner's accounts, in one transaction. */
export async function updateAccount(
  deps: AccountDeps,
  userId: number,
  id: number,
  body: AccountUpdateBody,
): Promise<AccountView> {
  const patch: Partial<AccountRow> = {};
  if (body.name !== undefined) patch.name = cleanText(body.name, 'name', 1, 30);
  if (body.type !== undefined) patch.type = body.type;
  if (body.color !== undefined) patch.color = body.color.toUpperCase();
  if (body.icon !== undefined) patch.icon = cleanText(body.icon, 'icon', 0, 50);
  if (body.note !== undefined) patch.note = cleanText(body.note, 'note', 0, 200);
  if (body.opening_date !== undefined) patch.openingDate = checkDate(body.opening_date, 'opening_date');
  const newCurrency = body.currency === undefined ? undefined : requireCurrency(body.currency);
  await deps.db
    .transaction((tx) => patchLocked(deps, tx, userId, id, body, patch, newCurrency))
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw duplicateDefault();
      throw err;
    });
  return viewOf(deps, userId, id);
}

/**
 * The rest of the patch, checked against the account as it is under the owner's lock: the currency,
 * the opening balance in it, archiving and becoming the default; then written.
 */
async function patchLocked(
  { repo, clock }: AccountDeps,
  tx: Executor,
  userId: number,
  id: number,
  body: AccountUpdateBody,
  patch: Partial<AccountRow>,
  newCurrency: CurrencyInfo | undefined,
): Promise<void> {
  await repo.lockOwner(tx, userId);
  const cur = await repo.lockAccount(tx, userId, id);
  if (!cur) throw Errors.notFound('account');
  if (newCurrency && newCurrency.code !== cur.currency) {
    if ((await repo.countRows(tx, id)) > 0)
      throw Errors.rule(
        'the currency of an account with transactions cannot change: open a new account and transfer to it',
      );
    patch.currency = newCurrency.code;
  }
  const currency = newCurrency ?? accountCurrency(cur, 'currency');
  if (body.opening_balance !== undefined) {
    patch.openingBalance = parseAmountIn(body.opening_balance, currency, 'opening_balance', {
      allowNegative: true,
      allowZero: true,
    });
  } else if (patch.currency !== undefined && cur.openingBalance !== 0) {
    throw Errors.field('opening_balance', 'is required when the currency changes');
  }
  if (body.archived !== undefined) {
    if (body.archived && (cur.isDefault || body.is_default))
      throw Errors.rule('the default account cannot be archived: make another account the default first');
    patch.archived = body.archived;
  }
  if (body.is_default && !cur.isDefault) {
    if (cur.archived && body.archived !== false)
      throw Errors.rule('an archived account cannot be the default: unarchive it first');
    await repo.clearDefault(tx, userId);
    patch.isDefault = true;
  }
  if (Object.keys(patch).length) await repo.updateAccount(tx, userId, id, { ...patch, updatedAt: clock.now() });
}
