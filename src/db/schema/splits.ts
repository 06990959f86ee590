import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { groups } from './groups.ts';
import { transactions } from './books.ts';

/**
 * Who bears how much of a group record: one row per member sharing it, in the group's minor
 * units; the rows of a record sum exactly to its amount. `group_id` repeats the record's group so
 * that a group's balances are read from one index.
 */
export const transactionShares = pgTable(
  'transaction_shares',
  {
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    amountMinor: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** the split as entered: mode and the member's value (weight, percent or exact amount) */
    mode: text('mode', { enum: ['equal', 'shares', 'exact', 'percent'] }).notNull(),
    value: text('value'),
  },
  (t) => [
    primaryKey({ columns: [t.transactionId, t.userId] }),
    index('transaction_shares_user_idx').on(t.userId, t.transactionId),
    index('transaction_shares_group_idx').on(t.groupId, t.userId, t.amountMinor),
  ],
);

/** A payment between two members that moves their balances; never income or expense. */
export const settlements = pgTable(
  'settlements',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    fromUserId: integer('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toUserId: integer('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountMinor: bigint('amount_cents', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    date: date('date', { mode: 'string' }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('settlements_group_idx').on(t.groupId, t.createdAt),
    index('settlements_from_idx').on(t.fromUserId),
    index('settlements_to_idx').on(t.toUserId),
    check('settlements_amount_positive', sql`${t.amountMinor} > 0`),
    check('settlements_two_people', sql`${t.fromUserId} <> ${t.toUserId}`),
  ],
);
