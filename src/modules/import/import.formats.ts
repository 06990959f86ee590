import { createHash } from 'node:crypto';
import {
  alipayLayout,
  headerCandidate,
  headerlessLayout,
  ledgerLayout,
  mappedLayout,
  wechatLayout,
  type BillFormat,
  type HeaderCandidate,
  type Layout,
  type PresetRef,
} from './bill.formats.ts';
import { readLines } from './bill.lines.ts';
import type { Encoding, FileRecord } from './bill.read.ts';
import { headerKey, type Period } from './bill.text.ts';
import type { BillOutcome, Detected, ReadOptions } from './import.rows.ts';
import { readLedgerJson, readLedgerRows } from './ledger.read.ts';
import { appLayout, readAppRows } from './formats/apps.ts';

/*
 * The formats an import reads, behind one interface and chosen from one table: each says whether
 * a record is its table header and reads the records under it into seed rows. The file's
 * container (CSV, XLSX, XLS, JSON) and encoding are found before (bill.read.ts); the format is
 * found from the content, never from the file's name.
 */

/** Where the rows of a file start: the records still to read, and what was learnt above them. */
export interface RowsStart {
  records: AsyncGenerator<FileRecord>;
  layout: Layout;
  detected: Detected;
  opts: ReadOptions;
  /** the statement period named above the table (a card statement's dates without a year) */
  period: Period | null;
  /** a header-less file: its first record, already read, is its first row */
  firstRow: FileRecord | null;
}

export interface ImportFormat {
  id: BillFormat;
  /** the layout when the record is this format's table header, else null */
  header(candidate: HeaderCandidate, presets: PresetRef[]): Layout | null;
  /** the layout when the record is the first row of a file of this format that has no header row */
  firstRow?(cells: string[], presets: PresetRef[], period: Period | null): Layout | null;
  /** the `source` recorded on the rows it imports (duplicates are found within one source) */
  source(layout: Layout): string;
  /** reads the rows under the header, handing them to `opts.onRows` in batches */
  readRows(start: RowsStart): Promise<BillOutcome>;
  /** reads a JSON file of this format */
  readJson?(buf: Uint8Array, encoding: Encoding, opts: ReadOptions): Promise<BillOutcome>;
}

/** The source of a mapped bank file: its header, so that each bank's rows are told apart. */
export function sourceOfHeader(header: string[]): string {
  return `bank:${createHash('sha256').update(header.map(headerKey).join('\u0001')).digest('hex').slice(0, 12)}`;
}

const billLines = ({ records, layout, detected, opts, period, firstRow }: RowsStart) =>
  readLines(records, layout, detected, opts, period, firstRow);

const wechat: ImportFormat = { id: 'wechat', header: wechatLayout, source: () => 'wechat', readRows: billLines };

const alipay: ImportFormat = { id: 'alipay', header: alipayLayout, source: () => 'alipay', readRows: billLines };

/** Our own export: the same reader as POST /api/import (ledger.read.ts). */
const ledger: ImportFormat = {
  id: 'ledger',
  header: ledgerLayout,
  source: () => 'ledger',
  readRows: ({ records, layout, detected, opts }) => readLedgerRows(records, layout, detected, opts),
  readJson: readLedgerJson,
};

/** The exports of other bookkeeping apps (formats/apps.ts), each source its app. */
const apps: ImportFormat = {
  id: 'ezbookkeeping',
  header: appLayout,
  source: (layout) => layout.format,
  readRows: ({ records, layout, detected, opts }) => readAppRows(records, layout, detected, opts),
};

/** Any other bank's CSV or XLSX, read through one of the person's column mappings. */
const mapped: ImportFormat = {
  id: 'mapped',
  header: mappedLayout,
  firstRow: headerlessLayout,
  source: (layout) => sourceOfHeader(layout.header),
  readRows: billLines,
};

/**
 * Every format, in the order a header is tried: the payment apps, our own export, other apps, then the person's
 * mappings.
 */
export const IMPORT_FORMATS: readonly ImportFormat[] = [wechat, alipay, ledger, apps, mapped];

/** The layout a record announces: as a table header, else as the first row of a header-less file. */
export function detectLayout(
  cells: string[],
  presets: PresetRef[],
  period: Period | null,
): { format: ImportFormat; layout: Layout; headerless: boolean } | null {
  const candidate = headerCandidate(cells);
  for (const format of IMPORT_FORMATS) {
    const layout = format.header(candidate, presets);
    if (layout) return { format, layout, headerless: false };
  }
  for (const format of IMPORT_FORMATS) {
    const layout = format.firstRow?.(cells, presets, period);
    if (layout) return { format, layout, headerless: true };
  }
  return null;
}

/** Reads a JSON file with the format that reads JSON (our own export). */
export function readJsonFile(buf: Uint8Array, encoding: Encoding, opts: ReadOptions): Promise<BillOutcome> {
  for (const f of IMPORT_FORMATS) if (f.readJson) return f.readJson(buf, encoding, opts);
  throw new Error('no import format reads JSON');
}
