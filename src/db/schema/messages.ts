import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { groups } from './groups.ts';

export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    scope: text('scope', { enum: ['system', 'group', 'personal'] }).notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /**
     * A notification the service writes (feedback reply, settlement, shared expense, budget,
     * backup) names its message (`feedback.replied`) and the message's values, so that each client
     * renders it in its reader's language; null for notices people write (announcements).
     */
    key: text('key'),
    params: jsonb('params').$type<Record<string, string | number | boolean | null>>(),
    linkUrl: text('link_url'),
    imageUrl: text('image_url'),
    pinned: boolean('pinned').notNull().default(false),
    strong: boolean('strong').notNull().default(false),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    expireAt: timestamp('expire_at', { withTimezone: true }),
    groupId: integer('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    /** the addressee of a personal notification */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_scope_idx').on(t.scope, t.createdAt),
    index('notifications_group_idx')
      .on(t.groupId)
      .where(sql`${t.groupId} is not null`),
    index('notifications_user_idx')
      .on(t.userId)
      .where(sql`${t.userId} is not null`),
  ],
);

export const notificationReads = pgTable(
  'notification_reads',
  {
    notificationId: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.notificationId] })],
);

export const feedback = pgTable(
  'feedback',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    contact: text('contact'),
    status: text('status', { enum: ['pending', 'replied', 'closed'] })
      .notNull()
      .default('pending'),
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    repliedBy: integer('replied_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('feedback_user_idx').on(t.userId, t.createdAt), index('feedback_status_idx').on(t.status, t.createdAt)],
);
