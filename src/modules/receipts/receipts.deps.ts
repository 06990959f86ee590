import type { Db } from '../../db/client.ts';
import type { AttachmentService } from '../attachments/index.ts';
import type { CategoryService } from '../categories/index.ts';
import type { Recognizer } from './receipts.recognizer.ts';

/** What the receipt use cases are built from. */
export interface ReceiptDeps {
  db: Db;
  recognizer: Recognizer;
  categories: CategoryService;
  attachments: AttachmentService;
}

/** A score clamped to 0..1, three decimals. */
export const round = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 1000) / 1000;
