import type { UseCaseArgs } from '../service.ts';
import type { ReceiptDeps } from './receipts.deps.ts';
import { recognizeReceipt } from './receipts.recognize.ts';

export { methodKey } from './receipts.draft.ts';

export type ReceiptService = ReturnType<typeof createReceiptService>;

/**
 * Receipts, one named use case each: reading a receipt or payment screenshot into a draft entry
 * (receipts.recognize.ts, the draft's account and category in receipts.draft.ts).
 */
export function createReceiptService(deps: ReceiptDeps) {
  return {
    enabled: () => deps.recognizer.enabled,
    recognize: (...a: UseCaseArgs<typeof recognizeReceipt>) => recognizeReceipt(deps, ...a),
  };
}
