import type { ReceiptsConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { UseCaseArgs } from '../service.ts';
import { attachFile } from './attachments.attach.ts';
import { sweep, type AttachmentDeps } from './attachments.deps.ts';
import { exportZip } from './attachments.export.ts';
import {
  attachmentUsage,
  listAttachments,
  openAttachment,
  recordedUpload,
  removeAttachment,
} from './attachments.read.ts';
import { fileStore } from './attachments.store.ts';

export { ATTACHMENTS_PER_TRANSACTION } from './attachments.attach.ts';
export type { Attachment } from './attachments.deps.ts';

export type AttachmentService = ReturnType<typeof createAttachmentService>;

/**
 * Files on transactions, one named use case each: attaching one (attachments.attach.ts), listing,
 * opening and removing them, the storage used (attachments.read.ts), and a zip of a period's files
 * (attachments.export.ts). `store` and `sweep` are the files on disk and their clean-up.
 */
export function createAttachmentService({
  db,
  dataDir,
  receipts,
}: {
  db: Db;
  dataDir: string;
  receipts: ReceiptsConfig;
}) {
  const deps: AttachmentDeps = { db, receipts, store: fileStore(dataDir), sweeping: { current: null } };
  return {
    store: deps.store,
    sweep: (...a: UseCaseArgs<typeof sweep>) => sweep(deps, ...a),
    attach: (...a: UseCaseArgs<typeof attachFile>) => attachFile(deps, ...a),
    list: (...a: UseCaseArgs<typeof listAttachments>) => listAttachments(deps, ...a),
    open: (...a: UseCaseArgs<typeof openAttachment>) => openAttachment(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removeAttachment>) => removeAttachment(deps, ...a),
    exportZip: (...a: UseCaseArgs<typeof exportZip>) => exportZip(deps, ...a),
    usage: (...a: UseCaseArgs<typeof attachmentUsage>) => attachmentUsage(deps, ...a),
    recordedUpload: (...a: UseCaseArgs<typeof recordedUpload>) => recordedUpload(deps, ...a),
  };
}
