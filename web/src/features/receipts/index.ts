// The receipts feature's face: the queue of images the add form reads into drafts (kept in the
// browser until saved, read when the network is there), and an entry's attachments as thumbnails
// (in its edit form, and on its row of the books).
// Other features import this file only.
export { default as AttachmentStrip } from './components/AttachmentStrip.vue';
export { default as RowAttachments } from './components/RowAttachments.vue';
export { readable, readWhenOnline, useReceiptQueue, type ReceiptItem } from './store';
export type { Recognition, ReceiptDraft } from './api';
