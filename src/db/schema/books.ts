// Amounts are integers in the minor units of their currency (0 to 3 decimals: yen whole, dinar in
// thousandths). The columns keep their first name, `amount_cents`, so that no migration renames them;
// in TypeScript they are `amountMinor`.
import { sql } from 'drizzle-orm';
import { CATEGORY_KINDS, RECURRING_KINDS, TRANSACTION_KINDS } from '../../lib/domain.ts';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { groups } from './groups.ts';
import { accounts } from './accounts.ts';

export const kindEnum = TRANSACTION_KINDS;
export const categoryKindEnum = CATEGORY_KINDS;
export const recurringKindEnum = RECURRING_KINDS;

export const categories = pgTable(
  'categories',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    kind: text('kind', { enum: categoryKindEnum }).notNull(),
    icon: text('icon').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('categories_user_kind_name_uq').on(t.userId, t.kind, t.name),
    index('categories_user_sort_idx').on(t.userId, t.kind, t.sort),
  ],
);

export const recurringRules = pgTable(
  'recurring_rules',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** expense, income, or a transfer between two of the owner's accounts (a monthly savings move) */
    kind: text('kind', { enum: recurringKindEnum }).notNull(),
    amountMinor: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** expense and income only; null for a transfer */
    categoryId: integer('category_id').references(() => categories.id),
    note: text('note').notNull().default(''),
    tagIds: jsonb('tag_ids').$type<number[]>().notNull().default([]),
    groupId: integer('group_id').references(() => groups.id),
    /** the account the occurrences are booked in (a transfer's sending account) */
    accountId: integer('account_id').references(() => accounts.id),
    /** transfer only: the receiving account */
    toAccountId: integer('to_account_id').references(() => accounts.id),
    frequency: text('frequency', { enum: ['daily', 'weekly', 'monthly', 'yearly'] }).notNull(),
    interval: integer('interval').notNull().default(1),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }),
    /** the next occurrence not yet generated; null once the rule has ended */
    nextDate: date('next_date', { mode: 'string' }),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('recurring_rules_user_idx').on(t.userId),
    index('recurring_rules_due_idx')
      .on(t.nextDate)
      .where(sql`${t.active}`),
    check('recurring_rules_category_ck', sql`${t.kind} = 'transfer' or ${t.categoryId} is not null`),
    check(
      'recurring_rules_transfer_ck',
      sql`${t.kind} <> 'transfer' or (${t.categoryId} is null and ${t.groupId} is null and ${t.accountId} is not null and ${t.toAccountId} is not null and ${t.toAccountId} <> ${t.accountId})`,
    ),
  ],
);

export const transactions = pgTable(
  'transactions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: kindEnum }).notNull(),
    /** minor units of `currency`; positive, except an adjustment's, whose sign is its direction */
    amountMinor: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** expense and income only */
    categoryId: integer('category_id').references(() => categories.id),
    note: text('note').notNull().default(''),
    date: date('date', { mode: 'string' }).notNull(),
    groupId: integer('group_id').references(() => groups.id),
    /** a group row's payer (income: who received it); null outside groups */
    paidBy: integer('paid_by').references(() => users.id, { onDelete: 'set null' }),
    recurringId: integer('recurring_id').references(() => recurringRules.id, { onDelete: 'set null' }),
    /** where the money left or arrived; null only for a group row recorded for another payer */
    accountId: integer('account_id').references(() => accounts.id),
    /** ISO 4217 code of `amount_cents`: the account's currency when the row was booked */
    currency: text('currency').notNull(),
    /** the amount in the owner's base currency, converted once at booking time (statistics and budgets sum this) */
    baseAmount: bigint('base_amount', { mode: 'number' }).notNull(),
    /** exact decimal: base units per unit of `currency` used for `base_amount`; null when they are the same currency */
    rate: text('rate'),
    /** transfer only: the receiving account and what it receives, in its own currency */
    toAccountId: integer('to_account_id').references(() => accounts.id),
    toAmount: bigint('to_amount', { mode: 'number' }),
    toCurrency: text('to_currency'),
    /** a transfer's fee (an expense row) points to its transfer and goes with it */
    parentId: integer('parent_id').references((): AnyPgColumn => transactions.id, { onDelete: 'cascade' }),
    /** an imported row's origin ("wechat", "alipay", a preset…) and its id there */
    source: text('source'),
    externalId: text('external_id'),
    /** a refund points to the purchase it reduces */
    refundOf: integer('refund_of').references((): AnyPgColumn => transactions.id, { onDelete: 'set null' }),
    /** the category is the suggester's guess the person left as it was: such rows do not teach the suggester */
    categoryAuto: boolean('category_auto').notNull().default(false),
    /**
     * paid in another currency than the account's (45 EUR on a pound card): what was paid, in minor units of
     * `original_currency`; null otherwise
     */
    originalAmountMinor: bigint('original_amount_cents', { mode: 'number' }),
    originalCurrency: text('original_currency'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // kind and the base amount trail the keys so that list totals and period sums are index-only scans
    index('transactions_user_date_idx').on(t.userId, t.date.desc(), t.id.desc(), t.kind, t.baseAmount),
    index('transactions_user_kind_date_idx').on(t.userId, t.kind, t.date, t.baseAmount),
    index('transactions_group_date_idx')
      .on(t.groupId, t.date.desc(), t.id.desc())
      .where(sql`${t.groupId} is not null`),
    index('transactions_category_idx').on(t.categoryId),
    // a group's balances: what each payer paid, read from the index alone
    index('transactions_group_payer_idx')
      .on(t.groupId, t.paidBy, t.kind, t.amountMinor)
      .where(sql`${t.groupId} is not null`),
    // balances and ledgers: what left or entered each account, in date order
    index('transactions_account_date_idx')
      .on(t.accountId, t.date, t.id, t.kind, t.amountMinor)
      .where(sql`${t.accountId} is not null`),
    index('transactions_to_account_date_idx')
      .on(t.toAccountId, t.date, t.id, t.toAmount)
      .where(sql`${t.toAccountId} is not null`),
    index('transactions_parent_idx')
      .on(t.parentId)
      .where(sql`${t.parentId} is not null`),
    index('transactions_refund_of_idx')
      .on(t.refundOf)
      .where(sql`${t.refundOf} is not null`),
    // a recurring rule yields at most one transaction per date, whichever process generates it
    uniqueIndex('transactions_recurring_date_uq')
      .on(t.recurringId, t.date)
      .where(sql`${t.recurringId} is not null`),
    // an imported payment is in a user's books once, whatever file it came from
    uniqueIndex('transactions_user_source_external_uq')
      .on(t.userId, t.source, t.externalId)
      .where(sql`${t.externalId} is not null`),
    check('transactions_category_ck', sql`${t.kind} not in ('expense', 'income') or ${t.categoryId} is not null`),
    check('transactions_account_ck', sql`${t.accountId} is not null or ${t.groupId} is not null`),
    check(
      'transactions_original_ck',
      sql`(${t.originalAmountMinor} is null) = (${t.originalCurrency} is null) and (${t.originalCurrency} is null or ${t.originalCurrency} <> ${t.currency})`,
    ),
    check(
      'transactions_transfer_ck',
      sql`${t.kind} <> 'transfer' or (${t.accountId} is not null and ${t.toAccountId} is not null and ${t.toAmount} is not null and ${t.toCurrency} is not null and ${t.toAccountId} <> ${t.accountId})`,
    ),
  ],
);

export const tags = pgTable(
  'tags',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_user_name_uq').on(t.userId, t.name)],
);

export const transactionTags = pgTable(
  'transaction_tags',
  {
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.transactionId, t.tagId] }),
    index('transaction_tags_tag_idx').on(t.tagId, t.transactionId),
  ],
);

export const savedFilters = pgTable(
  'saved_filters',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    criteria: jsonb('criteria').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('saved_filters_user_idx').on(t.userId)],
);

/**
 * Three kinds of rows share this table: a personal budget (user, no group), a group's budget
 * (group, no user) and a member's own budget inside a group (both).
 */
export const budgets = pgTable(
  'budgets',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    /** null: no budget from this month (a repeating budget stopped, or one month left without one) */
    amountMinor: bigint('amount_cents', { mode: 'number' }),
    /** personal budgets only: what remains at the month's end is added to the next month's budget */
    carryOver: boolean('carry_over').notNull().default(false),
    /** holds for every later month until a later repeating row (or that month's own row) says otherwise */
    repeat: boolean('repeat').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('budgets_owner_month_uq').on(t.userId, t.groupId, t.month).nullsNotDistinct()],
);

/**
 * A personal budget of one expense category for one month, beside (and independent of) the month
 * total. Minor units of the owner's base currency. With `carry_over`, what remains of it at the
 * month's end is added to the same category's budget of the next month.
 */
export const categoryBudgets = pgTable(
  'category_budgets',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    /** null and `repeat` as in budgets */
    amountMinor: bigint('amount_cents', { mode: 'number' }),
    carryOver: boolean('carry_over').notNull().default(false),
    repeat: boolean('repeat').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.month, t.categoryId] }),
    index('category_budgets_category_idx').on(t.categoryId),
  ],
);
