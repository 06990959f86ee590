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
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { categories } from './books.ts';
import { accounts } from './accounts.ts';

/** Per-user category rules for imported bills: ordered by position, the first that matches wins. */
export const importRules = pgTable(
  'import_rules',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    field: text('field', { enum: ['counterparty', 'note', 'method', 'any'] }).notNull(),
    match: text('match', { enum: ['contains', 'equals', 'starts_with'] }).notNull(),
    value: text('value').notNull(),
    /** only rows of this kind (null: both) */
    kind: text('kind', { enum: ['expense', 'income'] }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('import_rules_user_position_idx').on(t.userId, t.position)],
);

/** A saved column mapping for another bank's bill, offered again for a file with the same header. */
export const importPresets = pgTable(
  'import_presets',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    header: jsonb('header').$type<string[]>().notNull(),
    mapping: jsonb('mapping').$type<Record<string, unknown>>().notNull(),
    /** the account the bill belongs to (null: the default account) */
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('import_presets_user_name_uq').on(t.userId, t.name)],
);

/** Which of the user's accounts a payment method of a bill ("招商银行储蓄卡(1234)", "花呗") is, remembered. */
export const importAccountMaps = pgTable(
  'import_account_maps',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.method] })],
);

/** A bill read and waiting for the person to check it: kept a day, then purged. */
export const importSessions = pgTable(
  'import_sessions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    format: text('format', {
      enum: [
        'wechat',
        'alipay',
        'ledger',
        'mapped',
        'ofx',
        'qif',
        'camt',
        'mt940',
        'ezbookkeeping',
        'firefly',
        'actual',
        'ynab',
        'qianji',
        'sui_app',
        'sui_cloud',
        'sui_web',
      ],
    }).notNull(),
    source: text('source').notNull(),
    container: text('container').notNull(),
    encoding: text('encoding'),
    presetId: integer('preset_id').references(() => importPresets.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull().default(''),
    rowCount: integer('row_count').notNull().default(0),
    status: text('status', { enum: ['reading', 'ready', 'committed'] })
      .notNull()
      .default('reading'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('import_sessions_user_idx').on(t.userId), index('import_sessions_expires_idx').on(t.expiresAt)],
);

/**
 * The proposed rows of a session. Accounts and categories are checked against the owner at commit
 * (they may have been deleted in between), so they carry no foreign key here.
 */
export const importSessionRows = pgTable(
  'import_session_rows',
  {
    sessionId: integer('session_id')
      .notNull()
      .references(() => importSessions.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ['expense', 'income', 'transfer'] }).notNull(),
    amountMinor: bigint('amount_cents', { mode: 'number' }).notNull(),
    counterparty: text('counterparty').notNull().default(''),
    note: text('note').notNull().default(''),
    externalId: text('external_id'),
    method: text('method').notNull().default(''),
    toMethod: text('to_method'),
    accountId: integer('account_id'),
    toAccountId: integer('to_account_id'),
    categoryId: integer('category_id'),
    categoryName: text('category_name'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    groupId: integer('group_id'),
    originalCreatedAt: timestamp('original_created_at', { withTimezone: true }),
    decision: text('decision', { enum: ['import', 'duplicate', 'skip', 'transfer'] }).notNull(),
    reason: text('reason'),
    refund: boolean('refund').notNull().default(false),
    /** a refund's purchase: a row of the same file, or a transaction already in the books */
    refundOfRow: integer('refund_of_row'),
    refundOfId: integer('refund_of_id'),
    /** the transaction a duplicate row already is */
    existingId: integer('existing_id'),
    type: text('type').notNull().default(''),
    /** the person changed the row */
    edited: boolean('edited').notNull().default(false),
    /** the id reserved for its transaction at commit */
    transactionId: integer('transaction_id'),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.row] })],
);
