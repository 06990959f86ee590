import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Whether a person has been through the first-run setup (finished or skipped): without a row, a
 * person whose books are still empty is offered it.
 */
export const userSetups = pgTable('user_setups', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  outcome: text('outcome', { enum: ['finished', 'skipped'] }).notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});
