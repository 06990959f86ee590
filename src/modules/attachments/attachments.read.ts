// A transaction's attachments: listed, opened, removed; the storage a person uses, and uploads already recorded.
import {
  requireAttachment,
  requireVisible,
  sweep,
  toAttachment,
  type Attachment,
  type AttachmentDeps,
} from './attachments.deps.ts';
import { Errors } from '../../lib/errors.ts';
import * as repo from './attachments.repo.ts';

export async function listAttachments(
  deps: AttachmentDeps,
  userId: number,
  transactionId: number,
): Promise<Attachment[]> {
  await requireVisible(deps, userId, transactionId);
  return (await repo.listFor(deps.db, [transactionId])).map(toAttachment);
}

/** The file (or its thumbnail) to send: where it is on disk and how to name it. */
export async function openAttachment(deps: AttachmentDeps, userId: number, id: number, thumbnail: boolean) {
  const row = await requireAttachment(deps, userId, id);
  if (thumbnail && !row.thumbnail) throw Errors.notFound('thumbnail');
  return {
    path: deps.store.pathOf(row.sha256, thumbnail),
    mime: thumbnail ? 'image/webp' : row.mime,
    name: thumbnail ? `${row.name}.thumb.webp` : row.name,
    sha256: row.sha256,
  };
}

/** Removes an attachment; its file goes with the last row that uses it. */
export async function removeAttachment(deps: AttachmentDeps, userId: number, id: number): Promise<void> {
  await requireAttachment(deps, userId, id);
  await repo.remove(deps.db, id);
  await sweep(deps);
}

export async function attachmentUsage({ db, receipts }: AttachmentDeps, userId: number) {
  return { used_bytes: await repo.usedBytes(db, userId), quota_bytes: receipts.quotaBytes };
}

/** The person's transaction that already carries these exact uploaded bytes, if any. */
export function recordedUpload({ db }: AttachmentDeps, userId: number, uploadSha256: string) {
  return repo.recordedUpload(db, userId, uploadSha256);
}
