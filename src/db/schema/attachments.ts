import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { transactions } from './books.ts';
import { users } from './users.ts';

/**
 * A stored file, named by the SHA-256 of its bytes as stored (after location data was removed):
 * the file lives at <data folder>/attachments/<first two hex digits>/<sha256>, its thumbnail beside
 * it. One file, however many rows carry it; it goes with the last attachment that uses it.
 */
export const attachmentFiles = pgTable('attachment_files', {
  sha256: text('sha256').primaryKey(),
  /** image/jpeg, image/png, image/webp or application/pdf */
  mime: text('mime').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  width: integer('width'),
  height: integer('height'),
  /** a WebP thumbnail sits beside the file (images only) */
  thumbnail: text('thumbnail'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A file attached to a transaction: a side table of its own (the books' writer keeps the
 * transactions; deleting one removes its attachments by the foreign key).
 */
export const attachments = pgTable(
  'attachments',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    /** who attached it: their quota counts it */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sha256: text('sha256')
      .notNull()
      .references(() => attachmentFiles.sha256),
    /** the SHA-256 of the bytes as uploaded: the same screenshot sent again is known by it */
    uploadSha256: text('upload_sha256').notNull(),
    /** the name the file had on the device, for Content-Disposition */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('attachments_transaction_file_uq').on(t.transactionId, t.sha256),
    index('attachments_user_upload_idx').on(t.userId, t.uploadSha256),
    index('attachments_sha_idx').on(t.sha256),
  ],
);
