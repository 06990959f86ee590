/**
 * The domain vocabulary, defined once: every schema, repository and service imports these
 * instead of spelling the unions again.
 */
export const TRANSACTION_KINDS = ['expense', 'income'] as const;
/** what a transaction (and its category) records: money out or money in */
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export const kindLabel = (kind: TransactionKind): string => (kind === 'expense' ? 'an expense' : 'an income');
