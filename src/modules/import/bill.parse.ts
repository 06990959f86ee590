import { Errors } from '../../lib/errors.ts';
import { headerCells } from './bill.formats.ts';
import { periodOf, unwrapCell, type Period } from './bill.text.ts';
import { decodeHead, fileRecords, sniff, type FileRecord } from './bill.read.ts';
import { DEFAULT_UPLOAD_LIMITS } from '../../config.ts';
import { detectLayout, readJsonFile, type ImportFormat } from './import.formats.ts';
import { statementFormat } from './formats/index.ts';
import { unrecognised, type BillOutcome, type Detected, type ReadOptions } from './import.rows.ts';
import type { Layout } from './bill.formats.ts';

/*
 * A file from bytes to proposed rows: its container and encoding found from the bytes, its format
 * chosen from the one table of formats (import.formats.ts) by the header among its first records,
 * and its rows read by that format. Rows are handed over in batches as the file streams past, so
 * that the caller can store them without holding them all.
 */

/** how many records may come before the table header (WeChat and Alipay put 16 to 25) */
const HEADER_SEARCH = 60;

/**
 * The delimiter of a CSV text: on each of its first lines the most frequent of `,` `;` and tab
 * (ties to the comma), and the one most lines agree on. A European bank's `;` file with decimal
 * commas, a tab-separated export and the usual comma file each come out right.
 */
export function detectDelimiter(head: string): ',' | ';' | '\t' {
  const votes = { ',': 0, ';': 0, '\t': 0 };
  for (const line of head.split(/\r?\n/).slice(0, 40)) {
    const count = (c: string) => line.split(c).length - 1;
    const comma = count(',');
    const semi = count(';');
    const tab = count('\t');
    if (comma + semi + tab === 0) continue;
    if (semi > comma && semi >= tab) votes[';']++;
    // exports pad comma-separated cells with tabs: a tab file has far more tabs than commas
    else if (tab > comma * 2 && tab > semi) votes['\t']++;
    else votes[',']++;
  }
  if (votes[';'] > votes[','] && votes[';'] >= votes['\t']) return ';';
  if (votes['\t'] > votes[','] && votes['\t'] > votes[';']) return '\t';
  return ',';
}

/**
 * Reads a whole bill, handing its rows to `onRows` in batches; refuses unknown layouts (42203) and too many rows
 * (41301).
 */
export async function readBill(buf: Uint8Array, opts: ReadOptions): Promise<BillOutcome> {
  if (buf.length === 0) throw Errors.field('file', 'is empty');
  const sniffed = sniff(buf);
  if (sniffed.container === 'csv' || sniffed.container === 'json') {
    // the bank standards announce themselves in their first characters, not by a table header
    const encoding = sniffed.encoding ?? 'utf-8';
    const bank = statementFormat(decodeHead(buf, encoding, 8192), encoding);
    if (bank) return bank.format.read(buf, bank.encoding, opts);
  }
  if (sniffed.container === 'json') return readJsonFile(buf, sniffed.encoding ?? 'utf-8', opts);

  const presets = opts.presetId ? opts.presets.filter((p) => p.id === opts.presetId) : opts.presets;
  const chosen = opts.presetId ? presets[0] : undefined;
  const delimiter =
    sniffed.container === 'csv'
      ? (chosen?.mapping.delimiter ?? detectDelimiter(decodeHead(buf, sniffed.encoding ?? 'utf-8')))
      : ',';
  const it = cleanRecords(
    fileRecords(buf, sniffed, { limits: opts.limits ?? DEFAULT_UPLOAD_LIMITS, signal: opts.signal, delimiter }),
  );
  let format: ImportFormat | null = null;
  let layout: Layout | null = null;
  let best: FileRecord | null = null;
  let firstData: FileRecord | null = null;
  let period: Period | null = null;
  let read = 0;
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) break;
      read++;
      const rec = next.value;
      const found = detectLayout(rec.cells, presets, period);
      if (found) {
        ({ format, layout } = found);
        if (found.headerless) firstData = rec;
        break;
      }
      period = periodOf(rec.cells.join(' ')) ?? period;
      const filled = rec.cells.filter((c) => c.trim() !== '').length;
      if (filled >= 2 && (!best || filled > best.cells.filter((c) => c.trim() !== '').length)) best = rec;
      if (read >= HEADER_SEARCH) break;
    }
    if (!format || !layout) {
      throw unrecognised({
        container: sniffed.container,
        encoding: sniffed.encoding,
        header: best ? headerCells(best.cells) : [],
        header_line: best?.line ?? null,
        lines_read: read,
      });
    }
    const detected: Detected = {
      format: layout.format,
      source: format.source(layout),
      container: sniffed.container,
      encoding: sniffed.encoding,
      header: layout.header,
      presetId: layout.preset?.id ?? null,
    };
    opts.onDetected?.(detected);
    return await format.readRows({ records: it, layout, detected, opts, period, firstRow: firstData });
  } finally {
    await it.return(undefined);
  }
}

/** Records with the quote-tab cells (`"x"<tab>`) of WeChat and HSBC exports unwrapped. */
async function* cleanRecords(it: AsyncGenerator<FileRecord>): AsyncGenerator<FileRecord> {
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      // in place: the record is the reader's own, and a bill has a hundred thousand of them
      const cells = next.value.cells;
      for (let i = 0; i < cells.length; i++) cells[i] = unwrapCell(cells[i]!);
      yield next.value;
    }
  } finally {
    await it.return(undefined);
  }
}
