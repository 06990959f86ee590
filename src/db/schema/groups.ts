import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const groups = pgTable(
  'groups',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    inviteCode: text('invite_code').notNull(),
    dissolvedAt: timestamp('dissolved_at', { withTimezone: true }),
    /** ISO 4217 code the group's balances are kept in */
    currency: text('currency').notNull().default('CNY'),
    /** expenses of at least this many minor units notify the members sharing them; null: none do */
    notifyThreshold: bigint('notify_threshold', { mode: 'number' }),
    /**
     * records without an explicit split are shared equally among the members (who owes whom);
     * off: shared books, no debts
     */
    splitCosts: boolean('split_costs').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('groups_invite_code_uq').on(t.inviteCode), index('groups_owner_idx').on(t.ownerId)],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'member'] })
      .notNull()
      .default('member'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // the primary key is what makes concurrent joins of one user yield one membership
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);
