import { Errors } from '../../lib/errors.ts';
import { inspectPdf, sha256, sniff } from '../attachments/index.ts';
import type { OcrLine } from './ocr.engine.ts';
import type { ReceiptDeps } from './receipts.deps.ts';
import { round } from './receipts.deps.ts';
import { draftOf } from './receipts.draft.ts';
import { clean, readLayout, type TextLine } from './receipts.layouts.ts';
import * as repo from './receipts.repo.ts';
import type { Recognition } from './receipts.schemas.ts';

/** A text layer shorter than this is a scan with a stray word: the PDF is read as a picture would be. */
const MIN_PDF_TEXT = 12;

/** The lines of a file: a PDF's text layer when it has one, else what the OCR reads in the image. */
async function linesOf({ recognizer }: ReceiptDeps, bytes: Buffer): Promise<OcrLine[]> {
  const kind = await sniff(bytes);
  if (kind === 'image/heic')
    throw Errors.unsupportedMedia('HEIC images cannot be read on this server: send a JPEG, PNG or WebP');
  if (kind === 'application/pdf') {
    const { text } = await inspectPdf(bytes, true);
    const rows = text.split(/\r?\n/).map(clean).filter(Boolean);
    if (rows.join('').length < MIN_PDF_TEXT)
      throw Errors.rule('this PDF has no text to read (a scan): send a photo or screenshot of it instead');
    // a text layer has no pixels: each line gets a box of its own on a notional page
    return rows.map((t, i) => ({
      text: t,
      confidence: 1,
      box: { x: 0, y: i * 24, width: t.length * 12, height: 20 },
    }));
  }
  if (bytes.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06])))
    throw Errors.unsupportedMedia('the image also holds a zip archive: send the image alone');
  return recognizer.readImage(bytes);
}

/** A receipt or payment screenshot read into a draft entry, its lines, and whether it is already in the books. */
export async function recognizeReceipt(deps: ReceiptDeps, userId: number, bytes: Buffer): Promise<Recognition> {
  const { db, recognizer, attachments } = deps;
  if (!recognizer.enabled) throw Errors.featureOff('receipt recognition is off on this server');
  const lines = await linesOf(deps, bytes);
  const read = readLayout(lines as TextLine[]);
  const draft = await draftOf(deps, userId, read);
  const sameFile = await attachments.recordedUpload(userId, sha256(bytes));
  const byOrder = sameFile ? null : draft.order_id ? await repo.bookedOrder(db, userId, draft.order_id) : null;
  return {
    draft,
    lines: lines.map((l) => ({
      text: l.text,
      confidence: round(l.confidence),
      box: {
        x: Math.round(l.box.x),
        y: Math.round(l.box.y),
        width: Math.round(l.box.width),
        height: Math.round(l.box.height),
      },
    })),
    already_recorded: sameFile
      ? { transaction_id: sameFile, by: 'same_file' }
      : byOrder
        ? { transaction_id: byOrder, by: 'order_id' }
        : null,
  };
}
