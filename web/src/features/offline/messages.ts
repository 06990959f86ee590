// Names shared by the pages and the service worker.
export const OUTBOX_SYNC_TAG = 'ledger-outbox';
export const SW_SEND_OUTBOX = 'ledger:send-outbox';
export const SW_SKIP_WAITING = 'SKIP_WAITING';
