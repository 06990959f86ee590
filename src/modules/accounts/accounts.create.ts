// Opening an account: its fields checked, written under the owner's lock within the per-user limit.
import { isUniqueViolation } from '../../db/errors.ts';
import { requireCurrency } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanOptionalText, cleanText } from '../../lib/text.ts';
import { baseCurrencyOf, parseAmountIn } from '../books/index.ts';
import { checkDate, duplicateDefault, today, viewOf, type AccountDeps } from './accounts.deps.ts';
import { MAX_ACCOUNTS_PER_USER, type AccountCreateBody, type AccountView } from './accounts.schemas.ts';

/** Opens an account (the new default when the body says so); 42201 past the per-user limit. */
export async function createAccount(deps: AccountDeps, userId: number, body: AccountCreateBody): Promise<AccountView> {
  const { db, repo } = deps;
  const name = cleanText(body.name, 'name', 1, 30);
  const note = cleanOptionalText(body.note, 'note', 200);
  const icon = body.icon === undefined ? '' : cleanText(body.icon, 'icon', 0, 50);
  const base = await baseCurrencyOf(db, userId);
  const currency = body.currency === undefined ? base : requireCurrency(body.currency);
  const openingBalance =
    body.opening_balance === undefined
      ? 0
      : parseAmountIn(body.opening_balance, currency, 'opening_balance', { allowNegative: true, allowZero: true });
  const openingDate =
    body.opening_date === undefined ? await today(deps, userId) : checkDate(body.opening_date, 'opening_date');
  const id = await db
    .transaction(async (tx) => {
      await repo.lockOwner(tx, userId);
      if ((await repo.countAccounts(tx, userId)) >= MAX_ACCOUNTS_PER_USER)
        throw Errors.rule(`at most ${MAX_ACCOUNTS_PER_USER} accounts per user`);
      if (body.is_default) await repo.clearDefault(tx, userId);
      const row = await repo.insertAccount(tx, {
        userId,
        name,
        type: body.type,
        currency: currency.code,
        openingBalance,
        openingDate,
        color: (body.color ?? '#9B9B9B').toUpperCase(),
        icon,
        note,
        isDefault: body.is_default === true,
        sort: await repo.nextSort(tx, userId),
      });
      return row.id;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw duplicateDefault();
      throw err;
    });
  return viewOf(deps, userId, id);
}
