// Reconciling an account with the bank: the difference to the computed balance is booked as an adjustment.
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';
import { accountCurrency, parseAmountIn, write } from '../books/index.ts';
import { loadTransactionViews, type TransactionView } from '../transactions/index.ts';
import { checkDate, today, viewOf, type AccountDeps } from './accounts.deps.ts';
import type { AccountView, ReconcileBody } from './accounts.schemas.ts';

/**
 * Records the balance the bank shows on `date` (today by default): the difference to the
 * computed balance of that day is booked as an `adjustment` row of the account (none when they
 * agree), converted to the base currency like any row.
 */
export async function reconcileAccount(
  deps: AccountDeps,
  userId: number,
  id: number,
  body: ReconcileBody,
): Promise<{ account: AccountView; adjustment: TransactionView | null }> {
  const { db, repo } = deps;
  const date = body.date === undefined ? await today(deps, userId) : checkDate(body.date, 'date');
  const noteIn = body.note === undefined ? undefined : cleanText(body.note, 'note', 0, 200);
  const adjustmentId = await db.transaction(async (tx) => {
    await repo.lockOwner(tx, userId);
    const account = await repo.lockAccount(tx, userId, id);
    if (!account) throw Errors.notFound('account');
    const currency = accountCurrency(account);
    const bank = parseAmountIn(body.balance, currency, 'balance', { allowNegative: true, allowZero: true });
    const [row] = (await repo.listWithBalances(tx, userId, date)).filter((r) => r.id === id);
    const diff = bank - (row?.balance ?? 0);
    if (diff === 0) return null;
    return write(tx, userId, {
      type: 'booked',
      draft: { kind: 'adjustment', amount: { minor: diff }, account, categoryId: null, note: noteIn ?? '', date },
    });
  });
  const [adjustment] = adjustmentId === null ? [null] : await loadTransactionViews(db, [adjustmentId]);
  return { account: await viewOf(deps, userId, id), adjustment: adjustment ?? null };
}
