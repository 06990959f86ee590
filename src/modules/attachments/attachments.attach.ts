// Attaching a file to a transaction: checked, kept once by its content, within the person's quota.
import { Errors } from '../../lib/errors.ts';
import { requireVisible, toAttachment, type Attachment, type AttachmentDeps } from './attachments.deps.ts';
import { acceptFile } from './attachments.files.ts';
import * as repo from './attachments.repo.ts';

/** A transaction carries at most this many files. */
export const ATTACHMENTS_PER_TRANSACTION = 10;

/** A name fit for a header: no path, no control characters, at most 120 characters. */
function cleanName(name: string, mime: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    .replace(/[\p{Cc}\p{Cf}"]/gu, '')
    .trim()
    .slice(0, 120);
  if (base) return base;
  return `attachment.${mime === 'application/pdf' ? 'pdf' : mime.split('/')[1]}`;
}

/**
 * Attaches the file to a transaction the person may see; the same file twice on one transaction is
 * one attachment. Past the count per transaction or the person's quota: 42201.
 */
export async function attachFile(
  deps: AttachmentDeps,
  userId: number,
  transactionId: number,
  file: { bytes: Buffer; name: string },
): Promise<Attachment> {
  const { db, receipts, store } = deps;
  await requireVisible(deps, userId, transactionId);
  if ((await repo.countFor(db, transactionId)) >= ATTACHMENTS_PER_TRANSACTION)
    throw Errors.rule(`a transaction carries at most ${ATTACHMENTS_PER_TRANSACTION} files`);
  const accepted = await acceptFile(file.bytes);
  const existing = await repo.findLink(db, transactionId, accepted.sha256);
  if (existing) return toAttachment((await repo.byId(db, existing))!);
  const used = await repo.usedBytes(db, userId);
  if (used + accepted.bytes.length > receipts.quotaBytes)
    throw Errors.rule(
      `your attachments would take more than your ${Math.floor(receipts.quotaBytes / 1048576)} MiB of storage: remove some first`,
    );
  await store.write(accepted.sha256, accepted.bytes, accepted.thumbnail);
  const id = await db.transaction((tx) =>
    repo.insert(
      tx,
      {
        sha256: accepted.sha256,
        mime: accepted.mime,
        size: accepted.bytes.length,
        width: accepted.width,
        height: accepted.height,
        thumbnail: accepted.thumbnail ? 'webp' : null,
      },
      { transactionId, userId, uploadSha256: accepted.uploadSha256, name: cleanName(file.name, accepted.mime) },
    ),
  );
  // a sweep between the write and the insert may have taken the file of a row it no longer saw
  if (!(await store.exists(accepted.sha256))) await store.write(accepted.sha256, accepted.bytes, accepted.thumbnail);
  const linked = id ?? (await repo.findLink(db, transactionId, accepted.sha256));
  return toAttachment((await repo.byId(db, linked!))!);
}
