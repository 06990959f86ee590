/**
 * The domain vocabulary, defined once: every schema, repository and service imports these
 * instead of spelling the unions again.
 */

/** What a category (and a budget, a suggestion) is about: money out or money in. */
export const CATEGORY_KINDS = ['expense', 'income'] as const;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];

/**
 * What a transaction records: an expense or an income (both with a category, both counted in
 * statistics and budgets), a transfer between two of the owner's accounts, or an adjustment that
 * corrects one account's balance to what the bank shows. Transfers and adjustments move balances
 * only: they are never income or expense.
 */
export const TRANSACTION_KINDS = ['expense', 'income', 'transfer', 'adjustment'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** What a recurring rule books: an expense, an income, or a transfer between two of the owner's accounts. */
export const RECURRING_KINDS = ['expense', 'income', 'transfer'] as const;
export type RecurringKind = (typeof RECURRING_KINDS)[number];

export const isCategoryKind = (kind: TransactionKind): kind is CategoryKind => kind === 'expense' || kind === 'income';

export const kindLabel = (kind: CategoryKind): string => (kind === 'expense' ? 'an expense' : 'an income');

/** What kind of money an account holds. */
export const ACCOUNT_TYPES = ['cash', 'debit_card', 'credit_card', 'e_wallet', 'investment', 'loan', 'other'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
