import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { checkDate } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import * as books from '../books/index.ts';
import type { UseCaseArgs } from '../service.ts';
import { createTransaction } from './transactions.create.ts';
import type { TransactionDeps } from './transactions.deps.ts';
import { getTransaction, listTransactions } from './transactions.query.ts';
import * as transactionsRepo from './transactions.repo.ts';
import { updateTransaction } from './transactions.update.ts';

export { checkDate };

export interface TransactionServiceDeps {
  db: Db;
  clock: Clock;
  repo?: typeof transactionsRepo;
}

/** Deletes one of the owner's transactions (its fee, tags and shares go with it); anyone else's is 40401. */
export async function removeTransaction({ db }: TransactionDeps, userId: number, id: number): Promise<void> {
  if (!(await books.write(db, userId, { type: 'delete', id }))) throw Errors.notFound('transaction');
}

/**
 * The transactions, one named use case each: recording (transactions.create.ts: manual entries,
 * group records, refunds and transfers), correcting (transactions.update.ts), deleting, and
 * reading one or a page (transactions.query.ts).
 */
export function createTransactionService({ db, clock, repo = transactionsRepo }: TransactionServiceDeps) {
  const deps: TransactionDeps = { db, clock, repo };
  return {
    create: (...a: UseCaseArgs<typeof createTransaction>) => createTransaction(deps, ...a),
    get: (...a: UseCaseArgs<typeof getTransaction>) => getTransaction(deps, ...a),
    update: (...a: UseCaseArgs<typeof updateTransaction>) => updateTransaction(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removeTransaction>) => removeTransaction(deps, ...a),
    list: (...a: UseCaseArgs<typeof listTransactions>) => listTransactions(deps, ...a),
  };
}
