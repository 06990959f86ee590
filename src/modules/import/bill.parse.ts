import { createHash } from 'node:crypto';
import { AppError, Errors } from '../../lib/errors.ts';
import { IMPORT_MAX_ROWS, parseFile, validateRecords, type ImportRow } from './ledger.read.ts';
import { headerCells, headerlessLayout, isTableEnd, layoutOf, readLine, type BillFormat, type BillLine, type Layout, type PresetRef } from './bill.formats.ts';
import { headerKey, periodOf, unwrapCell, type Period } from './bill.text.ts';
import { mappedMeaning, meaningOf, noteOf, pairRefunds, type Decision, type PurchaseRef, type Reason, type RefundRef, type RowKind } from './bill.meaning.ts';
import { decodeAll, decodeHead, fileRecords, sniff, type Container, type Encoding, type FileRecord } from './bill.read.ts';
import { isCategoryKind } from '../../lib/domain.ts';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../../config.ts';
import { checkSignal } from './import.signal.ts';

/*
 * A bill from bytes to proposed rows: the format found from the content, every data line read
 * and given its meaning, refunds paired with their purchases. Rows are handed over in batches as
 * the file streams past, so that the caller can store them without holding them all.
 */

export const BILL_MAX_ROWS = IMPORT_MAX_ROWS;
/** how many records may come before the table header (WeChat and Alipay put 16 to 25) */
const HEADER_SEARCH = 60;
/** bad rows listed in a refusal; the count says how many there were */
const MAX_LISTED_ERRORS = 1000;

/** A proposed row, before the database has had its say (accounts, categories, duplicates). */
export interface SeedRow {
  row: number;
  date: string;
  kind: RowKind;
  cents: number;
  counterparty: string;
  note: string;
  externalId: string | null;
  /** account key the money leaves (expense, transfer) or enters (income) */
  method: string;
  toMethod: string | null;
  decision: Decision;
  reason: Reason | null;
  refund: boolean;
  /** the file row of the purchase a refund reduces, once paired */
  refundOfRow: number | null;
  /** the category named by the file (our own export), created on commit when missing */
  categoryName: string | null;
  tags: string[];
  groupId: number | null;
  createdAt: string | null;
  /** 交易类型 / 交易分类: what the rules may match besides counterparty and note */
  type: string;
  /** HH:MM:SS when the bill gives a time, else empty */
  time: string;
  /** the row's own currency (a mapped currency column), else null */
  currency: string | null;
}

/** A line that cannot be read: the row, a code with its parameters (worded by the client), and the same in English. */
export interface RowError {
  row: number;
  message: string;
  code?: string;
  params?: Record<string, string>;
}

/** A line under the header that is no payment (a total, a note, a disclaimer): left out, with what it said. */
export interface IgnoredLine {
  row: number;
  reason: 'not_transaction';
  text: string;
}

export interface Detected {
  format: BillFormat;
  /** the `source` of imported rows: wechat, alipay, ledger or bank:<hash of the header> */
  source: string;
  container: Container;
  encoding: Encoding | null;
  header: string[];
  presetId: number | null;
}

export interface BillOutcome {
  detected: Detected;
  rows: number;
  errors: RowError[];
  errorCount: number;
  /** refund row -> purchase row, within the file */
  refundLinks: Map<number, number>;
  /** refund rows whose purchase is itself skipped as closed: nothing moved */
  refundsOfSkipped: number[];
  /** refunds without their purchase in the file: the caller looks in the books */
  unpairedRefunds: RefundRef[];
  /** lines under the header that are no payments */
  ignored: IgnoredLine[];
}

/** What a file that is none of the formats looked like, for the 42203 answer. */
export interface Recognised {
  container: Container;
  encoding: Encoding | null;
  /** the line that looks most like a table header */
  header: string[];
  header_line: number | null;
  lines_read: number;
  /** what the person can do: map_columns, or save_as_xlsx for a legacy binary workbook (.xls) */
  suggestion?: 'map_columns' | 'save_as_xlsx';
}

export function unrecognised(r: Recognised): AppError {
  if (r.suggestion === 'save_as_xlsx') {
    return new AppError(422, 42203, 'the file is a legacy Excel workbook (.xls): open it and save it as .xlsx (or CSV), then send it again', undefined, {
      errors: [{ row: 0, message: 'legacy .xls workbook', code: 'save_as_xlsx', params: {} }],
      recognised: r,
    });
  }
  return new AppError(
    422,
    42203,
    'the file is not a WeChat Pay, Alipay or own-export bill and matches no saved column mapping: map its columns (header below) and send it again with preset_id',
    undefined,
    { errors: [], recognised: { ...r, suggestion: r.suggestion ?? 'map_columns' } },
  );
}

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

export function sourceOfHeader(header: string[]): string {
  return `bank:${createHash('sha256').update(header.map(headerKey).join('\u0001')).digest('hex').slice(0, 12)}`;
}

function tooManyRows(): AppError {
  return Errors.tooLarge(`too many rows: a bill holds at most ${BILL_MAX_ROWS}`);
}

export interface ReadOptions {
  presets: PresetRef[];
  /** only this preset is tried for a mapped file (the caller chose it) */
  presetId?: number | null;
  batchSize?: number;
  /** called once the format is known, before the first rows */
  onDetected?: (detected: Detected) => void;
  onRows: (rows: SeedRow[]) => Promise<void>;
  /** limits of the file's container (zip, sheet, cells); unset: the defaults */
  limits?: UploadLimits;
  /** aborted when the client goes away: reading stops */
  signal?: AbortSignal;
}

/** Reads a whole bill, handing its rows to `onRows` in batches; refuses unknown layouts (42203) and too many rows (41301). */
export async function readBill(buf: Uint8Array, opts: ReadOptions): Promise<BillOutcome> {
  if (buf.length === 0) throw Errors.field('file', 'is empty');
  const sniffed = sniff(buf);
  if (sniffed.container === 'json') return readLedgerJson(buf, sniffed, opts);

  const presets = opts.presetId ? opts.presets.filter((p) => p.id === opts.presetId) : opts.presets;
  const chosen = opts.presetId ? presets[0] : undefined;
  const delimiter = sniffed.container === 'csv' ? (chosen?.mapping.delimiter ?? detectDelimiter(decodeHead(buf, sniffed.encoding ?? 'utf-8'))) : ',';
  const it = cleanRecords(fileRecords(buf, sniffed, { limits: opts.limits ?? DEFAULT_UPLOAD_LIMITS, signal: opts.signal, delimiter }));
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
      layout = layoutOf(rec.cells, presets);
      if (layout) break;
      layout = headerlessLayout(rec.cells, presets, period);
      if (layout) {
        firstData = rec;
        break;
      }
      period = periodOf(rec.cells.join(' ')) ?? period;
      const filled = rec.cells.filter((c) => c.trim() !== '').length;
      if (filled >= 2 && (!best || filled > best.cells.filter((c) => c.trim() !== '').length)) best = rec;
      if (read >= HEADER_SEARCH) break;
    }
    if (!layout) {
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
      source: layout.format === 'mapped' ? sourceOfHeader(layout.header) : layout.format,
      container: sniffed.container,
      encoding: sniffed.encoding,
      header: layout.header,
      presetId: layout.preset?.id ?? null,
    };
    opts.onDetected?.(detected);
    if (layout.format === 'ledger') return await readLedgerCsv(it, layout, detected, opts);
    return await readLines(it, layout, detected, opts, period, firstData);
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
      yield { line: next.value.line, cells: next.value.cells.map(unwrapCell) };
    }
  } finally {
    await it.return(undefined);
  }
}

async function readLines(
  it: AsyncGenerator<FileRecord>,
  layout: Layout,
  detected: Detected,
  opts: ReadOptions,
  period: Period | null,
  firstData: FileRecord | null,
): Promise<BillOutcome> {
  const batchSize = opts.batchSize ?? 2000;
  const errors: RowError[] = [];
  const ignored: IgnoredLine[] = [];
  let errorCount = 0;
  let batch: SeedRow[] = [];
  const purchases: PurchaseRef[] = [];
  const refunds: RefundRef[] = [];
  const fees: SeedRow[] = [];
  let row = 0;
  let pending = firstData;
  for (;;) {
    let cells: string[];
    if (pending) {
      cells = pending.cells;
      pending = null;
    } else {
      const next = await it.next();
      if (next.done) break;
      cells = next.value.cells;
    }
    if (isTableEnd(cells)) break;
    if (cells.every((c) => c.trim() === '')) continue;
    if (++row > BILL_MAX_ROWS) throw tooManyRows();
    if (row % 256 === 0) checkSignal(opts.signal);
    const res = readLine(layout, cells, row, period);
    if (!res.ok) {
      if (res.notTransaction) {
        if (ignored.length < MAX_LISTED_ERRORS) ignored.push({ row, reason: 'not_transaction', text: cells.map((c) => c.trim()).filter((c) => c !== '').join(' ').slice(0, 100) });
        continue;
      }
      if (++errorCount <= MAX_LISTED_ERRORS) errors.push({ row: res.row, message: res.message, code: res.problems[0]!.code, params: res.problems[0]!.params });
      continue;
    }
    const line = res.line;
    const meaning = layout.format === 'mapped' ? mappedMeaning(line) : meaningOf(line, layout.variant);
    const seed: SeedRow = {
      row,
      date: line.date,
      kind: meaning.kind,
      cents: meaning.cents,
      counterparty: line.counterparty,
      note: noteOf(line),
      externalId: line.externalId,
      method: meaning.method,
      toMethod: meaning.toMethod,
      decision: meaning.decision,
      reason: meaning.reason,
      refund: meaning.refund,
      refundOfRow: null,
      categoryName: null,
      tags: [],
      groupId: null,
      createdAt: null,
      type: line.type,
      time: line.time,
      currency: line.currency,
    };
    if (meaning.feeCents) {
      fees.push({
        ...seed,
        row: 0,
        kind: 'expense',
        cents: meaning.feeCents,
        method: meaning.method,
        toMethod: null,
        decision: 'import',
        reason: null,
        externalId: line.externalId ? `${line.externalId}:fee` : null,
        note: `${noteOf(line) || line.type} 服务费`.trim(),
        type: '服务费',
      });
    }
    if (meaning.refund) refunds.push(refundRef(line, meaning.cents));
    else if (meaning.kind === 'expense') purchases.push(purchaseRef(line, meaning.decision === 'skip'));
    batch.push(seed);
    if (batch.length >= batchSize) {
      await opts.onRows(batch);
      batch = [];
    }
  }
  // a withdrawal's fee: a row of its own after the bill's rows
  for (const fee of fees) {
    if (++row > BILL_MAX_ROWS) throw tooManyRows();
    batch.push({ ...fee, row });
  }
  if (batch.length) await opts.onRows(batch);

  const pairs = pairRefunds(purchases, refunds);
  const refundLinks = new Map<number, number>();
  const refundsOfSkipped: number[] = [];
  for (const [refundRow, p] of pairs) {
    if (p.skipped) refundsOfSkipped.push(refundRow);
    else refundLinks.set(refundRow, p.row);
  }
  return { detected, rows: row, errors, errorCount, refundLinks, refundsOfSkipped, unpairedRefunds: refunds.filter((r) => !pairs.has(r.row)), ignored };
}

function purchaseRef(line: BillLine, skipped: boolean): PurchaseRef {
  return {
    row: line.row,
    date: line.date,
    time: line.time,
    cents: line.cents,
    counterparty: line.counterparty,
    externalId: line.externalId,
    merchantId: line.merchantId,
    skipped,
    refundMarked: line.status.includes('退款'),
  };
}

function refundRef(line: BillLine, cents: number): RefundRef {
  return { row: line.row, date: line.date, time: line.time, cents, counterparty: line.counterparty, externalId: line.externalId, merchantId: line.merchantId };
}

// ---- our own export ----

function ledgerSeed(r: ImportRow): SeedRow {
  // transfers and adjustments of our own export name accounts: Import & export (/api/import) keeps them
  const accountRow = !isCategoryKind(r.kind);
  return {
    row: r.row,
    date: r.date,
    kind: isCategoryKind(r.kind) ? r.kind : 'transfer',
    cents: r.cents,
    counterparty: '',
    note: r.note,
    externalId: null,
    method: '',
    toMethod: null,
    decision: accountRow ? 'skip' : 'import',
    reason: accountRow ? 'ledger_transfer' : null,
    refund: false,
    refundOfRow: null,
    categoryName: r.category,
    tags: r.tags,
    groupId: r.groupId,
    createdAt: r.createdAt,
    type: '',
    time: '',
    currency: null,
  };
}

async function emitLedger(records: Record<string, unknown>[], source: 'csv' | 'json', detected: Detected, opts: ReadOptions): Promise<BillOutcome> {
  const { rows, errors } = validateRecords({ source, records });
  const batchSize = opts.batchSize ?? 2000;
  for (let i = 0; i < rows.length; i += batchSize) await opts.onRows(rows.slice(i, i + batchSize).map(ledgerSeed));
  return {
    detected,
    rows: records.length,
    errors: errors.slice(0, MAX_LISTED_ERRORS),
    errorCount: errors.length,
    refundLinks: new Map(),
    refundsOfSkipped: [],
    unpairedRefunds: [],
    ignored: [],
  };
}

async function readLedgerCsv(it: AsyncGenerator<FileRecord>, layout: Layout, detected: Detected, opts: ReadOptions): Promise<BillOutcome> {
  const known = ['date', 'kind', 'amount', 'category', 'note', 'tags', 'group_id', 'created_at'];
  const columns = known.map((k) => [k, layout.columns.get(k)] as const).filter(([, i]) => i !== undefined) as [string, number][];
  const records: Record<string, unknown>[] = [];
  for (;;) {
    const next = await it.next();
    if (next.done) break;
    const cells = next.value.cells;
    if (cells.every((c) => c.trim() === '')) continue;
    if (records.length >= BILL_MAX_ROWS) throw tooManyRows();
    const rec: Record<string, unknown> = {};
    for (const [name, i] of columns) rec[name] = cells[i] ?? '';
    if (cells.length > layout.header.length && cells.slice(layout.header.length).some((c) => c !== '')) rec.$extra = 1;
    records.push(rec);
  }
  return emitLedger(records, 'csv', detected, opts);
}

async function readLedgerJson(buf: Uint8Array, sniffed: ReturnType<typeof sniff>, opts: ReadOptions): Promise<BillOutcome> {
  const parsed = parseFile(decodeAll(buf, sniffed.encoding ?? 'utf-8'));
  const detected: Detected = { format: 'ledger', source: 'ledger', container: 'json', encoding: sniffed.encoding, header: [], presetId: null };
  opts.onDetected?.(detected);
  return emitLedger(parsed.records, 'json', detected, opts);
}
