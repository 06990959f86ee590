// The public face of the attachments module: files on transactions, and the checks of an uploaded image or PDF.
export { default as attachmentsRoutes, sweepAfterRemovals } from './attachments.routes.ts';
export { createAttachmentService, type AttachmentService } from './attachments.service.ts';
export { ATTACHMENT_MAX_BYTES, ATTACHMENT_MAX_PIXELS, inspectPdf, sha256, sniff } from './attachments.files.ts';
export { fileStore, type FileStore } from './attachments.store.ts';
