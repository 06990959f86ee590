// The public face of the receipts module: reading receipts and payment screenshots into draft entries.
export { default as receiptsRoutes } from './receipts.routes.ts';
export { createReceiptService, type ReceiptService } from './receipts.service.ts';
export { createRecognizer, type Recognizer } from './receipts.recognizer.ts';
