// The public face of the transactions module: what other modules, plugins and the composition root may use.
export { loadTransactionViews } from './transactions.repo.ts';
export { default as transactionsRoutes } from './transactions.routes.ts';
export { SortValue, TransactionSchema } from './transactions.schemas.ts';
export type { TransactionView } from './transactions.schemas.ts';
export { checkDate, createTransactionService } from './transactions.service.ts';
