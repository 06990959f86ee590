import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CurrencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import type * as transactionsRepo from './transactions.repo.ts';
import type { TransactionView } from './transactions.schemas.ts';

/** What the transaction use cases are built from. */
export interface TransactionDeps {
  db: Db;
  clock: Clock;
  repo: typeof transactionsRepo;
}

export const MAX_TAGS_PER_TRANSACTION = 10;

/** the widest amount any bookable currency takes (3 decimals): a shape check before the account is known */
export const ANY_CURRENCY: CurrencyInfo = { code: 'any currency', digits: 3, name: 'any currency' };

/** A transaction as the API shows it, or 40401. */
export async function view(
  { repo }: Pick<TransactionDeps, 'repo'>,
  ex: Executor,
  id: number,
): Promise<TransactionView> {
  const [v] = await repo.loadTransactionViews(ex, [id]);
  if (!v) throw Errors.notFound('transaction');
  return v;
}

/** A payer named in a body must be a current member of the group: 40001 otherwise. */
export function checkPayer(paidBy: number, members: readonly number[]): number {
  if (!members.includes(paidBy)) throw Errors.field('paid_by', 'must be a member of the group');
  return paidBy;
}
