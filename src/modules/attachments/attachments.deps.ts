import type { ReceiptsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { membershipOf } from '../books/index.ts';
import type { AttachmentMime } from './attachments.files.ts';
import * as repo from './attachments.repo.ts';
import type { FileStore } from './attachments.store.ts';

/** What the attachment use cases are built from; `sweeping` is the sweep under way, if any. */
export interface AttachmentDeps {
  db: Db;
  receipts: ReceiptsConfig;
  store: FileStore;
  sweeping: { current: Promise<void> | null };
}

export type Attachment = {
  id: number;
  transaction_id: number;
  name: string;
  mime: AttachmentMime;
  size: number;
  width: number | null;
  height: number | null;
  has_thumbnail: boolean;
  created_at: string;
};

export const toAttachment = (r: repo.AttachmentRow): Attachment => ({
  id: r.id,
  transaction_id: r.transactionId,
  name: r.name,
  mime: r.mime as AttachmentMime,
  size: r.size,
  width: r.width,
  height: r.height,
  has_thumbnail: r.thumbnail !== null,
  created_at: r.createdAt.toISOString(),
});

/** The transaction, when the person may see it: its owner, or a member of its group. */
export async function requireVisible({ db }: AttachmentDeps, userId: number, transactionId: number) {
  const t = await repo.transactionOwner(db, transactionId);
  if (t && (t.userId === userId || (t.groupId !== null && (await membershipOf(db, t.groupId, userId))))) return t;
  throw Errors.notFound('transaction');
}

/** An attachment of a transaction the person may see, else 40401. */
export async function requireAttachment(deps: AttachmentDeps, userId: number, id: number) {
  const row = await repo.byId(deps.db, id);
  if (!row) throw Errors.notFound('attachment');
  await requireVisible(deps, userId, row.transactionId).catch(() => {
    throw Errors.notFound('attachment');
  });
  return row;
}

/** Removes files that no row uses any more (after a delete, a transaction's removal, a failed write). */
export function sweep({ db, store, sweeping }: AttachmentDeps): Promise<void> {
  sweeping.current ??= (async () => {
    try {
      for (const sha of await repo.dropOrphans(db)) await store.remove(sha);
    } finally {
      sweeping.current = null;
    }
  })();
  return sweeping.current;
}
