import { sql } from 'drizzle-orm';
import { TRANSACTION_KINDS } from '../../lib/domain.ts';
import {
  bigint,
  boolean,
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
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { groups } from './groups.ts';

export const kindEnum = TRANSACTION_KINDS;

export const categories = pgTable(
  'categories',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    kind: text('kind', { enum: kindEnum }).notNull(),
    icon: text('icon').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('categories_user_kind_name_uq').on(t.userId, t.kind, t.name), index('categories_user_sort_idx').on(t.userId, t.kind, t.sort)],
);

export const recurringRules = pgTable(
  'recurring_rules',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: kindEnum }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    categoryId: integer('category_id').notNull().references(() => categories.id),
    note: text('note').notNull().default(''),
    tagIds: jsonb('tag_ids').$type<number[]>().notNull().default([]),
    groupId: integer('group_id').references(() => groups.id),
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
  (t) => [index('recurring_rules_user_idx').on(t.userId), index('recurring_rules_due_idx').on(t.nextDate).where(sql`${t.active}`)],
);

export const transactions = pgTable(
  'transactions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: kindEnum }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    categoryId: integer('category_id').notNull().references(() => categories.id),
    note: text('note').notNull().default(''),
    date: date('date', { mode: 'string' }).notNull(),
    groupId: integer('group_id').references(() => groups.id),
    /** a group row's payer (income: who received it); null outside groups */
    paidBy: integer('paid_by').references(() => users.id, { onDelete: 'set null' }),
    recurringId: integer('recurring_id').references(() => recurringRules.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // kind and amount_cents trail the keys so that list totals and period sums are index-only scans
    index('transactions_user_date_idx').on(t.userId, t.date.desc(), t.id.desc(), t.kind, t.amountCents),
    index('transactions_user_kind_date_idx').on(t.userId, t.kind, t.date, t.amountCents),
    index('transactions_group_date_idx').on(t.groupId, t.date.desc(), t.id.desc()).where(sql`${t.groupId} is not null`),
    index('transactions_category_idx').on(t.categoryId),
    // a group's balances: what each payer paid, read from the index alone
    index('transactions_group_payer_idx').on(t.groupId, t.paidBy, t.kind, t.amountCents).where(sql`${t.groupId} is not null`),
    // a recurring rule yields at most one transaction per date, whichever process generates it
    uniqueIndex('transactions_recurring_date_uq').on(t.recurringId, t.date).where(sql`${t.recurringId} is not null`),
  ],
);

export const tags = pgTable(
  'tags',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_user_name_uq').on(t.userId, t.name)],
);

export const transactionTags = pgTable(
  'transaction_tags',
  {
    transactionId: integer('transaction_id').notNull().references(() => transactions.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id').notNull().references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.transactionId, t.tagId] }), index('transaction_tags_tag_idx').on(t.tagId, t.transactionId)],
);

export const savedFilters = pgTable(
  'saved_filters',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
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
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('budgets_owner_month_uq').on(t.userId, t.groupId, t.month).nullsNotDistinct()],
);
