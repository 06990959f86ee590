import { and, asc, between, eq, inArray, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { attachmentFiles, attachments, transactions } from '../../db/schema/index.ts';

export type AttachmentRow = {
  id: number;
  transactionId: number;
  userId: number;
  sha256: string;
  name: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  thumbnail: string | null;
  createdAt: Date;
};

const columns = {
  id: attachments.id,
  transactionId: attachments.transactionId,
  userId: attachments.userId,
  sha256: attachments.sha256,
  name: attachments.name,
  mime: attachmentFiles.mime,
  size: attachmentFiles.size,
  width: attachmentFiles.width,
  height: attachmentFiles.height,
  thumbnail: attachmentFiles.thumbnail,
  createdAt: attachments.createdAt,
};

/** The transaction's owner and group: who may see its files. */
export async function transactionOwner(db: Executor, id: number) {
  const [row] = await db
    .select({ userId: transactions.userId, groupId: transactions.groupId })
    .from(transactions)
    .where(eq(transactions.id, id));
  return row ?? null;
}

export async function listFor(db: Executor, transactionIds: readonly number[]): Promise<AttachmentRow[]> {
  if (!transactionIds.length) return [];
  return db
    .select(columns)
    .from(attachments)
    .innerJoin(attachmentFiles, eq(attachmentFiles.sha256, attachments.sha256))
    .where(inArray(attachments.transactionId, [...transactionIds]))
    .orderBy(attachments.transactionId, attachments.id);
}

export async function byId(db: Executor, id: number): Promise<AttachmentRow | null> {
  const [row] = await db
    .select(columns)
    .from(attachments)
    .innerJoin(attachmentFiles, eq(attachmentFiles.sha256, attachments.sha256))
    .where(eq(attachments.id, id));
  return row ?? null;
}

export async function countFor(db: Executor, transactionId: number): Promise<number> {
  const [row] = await query<{ n: number }>(
    db,
    sql`select count(*)::int as n from attachments where transaction_id = ${transactionId}`,
  );
  return row?.n ?? 0;
}

/** Bytes a person's attachments take (a file attached twice counts twice: simple and never under). */
export async function usedBytes(db: Executor, userId: number): Promise<number> {
  const [row] = await query<{ n: string | number | null }>(
    db,
    sql`select coalesce(sum(f.size), 0)::bigint as n from attachments a join attachment_files f on f.sha256 = a.sha256
        where a.user_id = ${userId}`,
  );
  return Number(row?.n ?? 0);
}

export async function insert(
  tx: Executor,
  file: {
    sha256: string;
    mime: string;
    size: number;
    width: number | null;
    height: number | null;
    thumbnail: string | null;
  },
  link: { transactionId: number; userId: number; uploadSha256: string; name: string },
): Promise<number | null> {
  await tx.insert(attachmentFiles).values(file).onConflictDoNothing();
  const [row] = await tx
    .insert(attachments)
    .values({ ...link, sha256: file.sha256 })
    .onConflictDoNothing()
    .returning({ id: attachments.id });
  return row?.id ?? null;
}

export async function findLink(db: Executor, transactionId: number, sha: string): Promise<number | null> {
  const [row] = await db
    .select({ id: attachments.id })
    .from(attachments)
    .where(and(eq(attachments.transactionId, transactionId), eq(attachments.sha256, sha)));
  return row?.id ?? null;
}

export async function remove(db: Executor, id: number): Promise<void> {
  await db.delete(attachments).where(eq(attachments.id, id));
}

/** Files no attachment uses any more: their rows go, and their names come back to be removed from disk. */
export async function dropOrphans(db: Executor): Promise<string[]> {
  const rows = await query<{ sha256: string }>(
    db,
    sql`delete from attachment_files f where not exists (select 1 from attachments a where a.sha256 = f.sha256)
        returning f.sha256`,
  );
  return rows.map((r) => r.sha256);
}

/** The transaction of the person's that already carries these uploaded bytes, if one does. */
export async function recordedUpload(db: Executor, userId: number, uploadSha256: string): Promise<number | null> {
  const [row] = await db
    .select({ transactionId: attachments.transactionId })
    .from(attachments)
    .where(and(eq(attachments.userId, userId), eq(attachments.uploadSha256, uploadSha256)))
    .limit(1);
  return row?.transactionId ?? null;
}

/** Every stored file, for the backup. */
export async function allFiles(db: Executor): Promise<string[]> {
  const rows = await db.select({ sha256: attachmentFiles.sha256 }).from(attachmentFiles);
  return rows.map((r) => r.sha256);
}

/** The person's own transactions' attachments booked between two dates, for the export. */
export async function exportRows(db: Executor, userId: number, start: string, end: string) {
  return db
    .select({
      id: attachments.id,
      sha256: attachments.sha256,
      name: attachments.name,
      mime: attachmentFiles.mime,
      transactionId: transactions.id,
      date: transactions.date,
      kind: transactions.kind,
      amountMinor: transactions.amountMinor,
      currency: transactions.currency,
      note: transactions.note,
    })
    .from(attachments)
    .innerJoin(attachmentFiles, eq(attachmentFiles.sha256, attachments.sha256))
    .innerJoin(transactions, eq(transactions.id, attachments.transactionId))
    .where(and(eq(transactions.userId, userId), between(transactions.date, start, end)))
    .orderBy(asc(transactions.date), asc(attachments.id));
}
