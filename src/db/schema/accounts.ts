import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ACCOUNT_TYPES } from '../../lib/domain.ts';
import { users } from './users.ts';

/** Where money is: cash, a card, an e-wallet balance… Amounts are integer minor units of `currency`. */
export const accounts = pgTable(
  'accounts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: ACCOUNT_TYPES }).notNull(),
    /** ISO 4217 code */
    currency: text('currency').notNull(),
    /** the balance on `opening_date`, before any transaction of the account, in minor units */
    openingBalance: bigint('opening_balance', { mode: 'number' }).notNull().default(0),
    openingDate: date('opening_date', { mode: 'string' }).notNull(),
    color: text('color').notNull().default('#9B9B9B'),
    icon: text('icon').notNull().default(''),
    note: text('note').notNull().default(''),
    archived: boolean('archived').notNull().default(false),
    /** the account a transaction goes to when none is named; exactly one per user */
    isDefault: boolean('is_default').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('accounts_user_sort_idx').on(t.userId, t.sort, t.id),
    uniqueIndex('accounts_user_default_uq')
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
);

/**
 * A user's exchange rates: on `date`, one unit of `currency` is worth `rate` units of the user's
 * base currency. `rate` is an exact decimal string; conversions never go through floating point.
 */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    rate: text('rate').notNull(),
    source: text('source', { enum: ['manual', 'fetched'] })
      .notNull()
      .default('manual'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency, t.date] })],
);
