import { isValidDate } from '../../lib/dates.ts';
import { currencyInfo, parseMinor, parseRate, rateText, type CurrencyInfo } from '../../lib/currency.ts';
import { isCategoryKind, type TransactionKind } from '../../lib/domain.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import { parseAmount } from '../../lib/money.ts';
import { FORMULA_START } from '../export/index.ts';
import type { Layout } from './bill.formats.ts';
import { csvRecords, decodeAll, decodeHead, textEncoding, type Encoding, type FileRecord } from './bill.read.ts';
import {
  IMPORT_MAX_ROWS,
  MAX_LISTED_ERRORS,
  tooManyRows as tooManyBillRows,
  type BillOutcome,
  type Detected,
  type ReadOptions,
  type SeedRow,
} from './import.rows.ts';

/*
 * Our own export (CSV or JSON), read one way wherever it arrives: POST /api/import reads the whole
 * file with readLedgerFile; the bill preview finds the same header among a file's first records
 * (CSV, XLSX) and hands the records under it to the same record builder and the same checks.
 * Every record is checked into a row ready to write, or an error naming all of its problems.
 */

export { IMPORT_MAX_ROWS };
const MAX_TAGS = 10;
const REQUIRED_COLUMNS = ['date', 'kind', 'amount', 'category'] as const;
const OPTIONAL_COLUMNS = [
  'note',
  'tags',
  'group_id',
  'created_at',
  'account',
  'currency',
  'to_account',
  'to_amount',
  'rate',
] as const;
/**
 * The columns a preview reads: a preview books each row in the account the person picks (and in its
 * currency), so the money columns are not read there; POST /api/import reads them all.
 */
const PREVIEW_COLUMNS = ['date', 'kind', 'amount', 'category', 'note', 'tags', 'group_id', 'created_at'] as const;
/** amounts without a `currency` cell are read with 2 decimals and fitted to their account's currency when written */
const HUNDREDTHS = { code: 'XXX', digits: 2, name: '' };
const DECIMAL = /^-?\d{1,15}(\.\d{1,3})?$/;
const EARLIEST_CREATED_AT = Date.UTC(1000, 0, 1);
// a later instant (9999-12-31T23:00-14:00 is in year 10000 UTC) has no 4-digit ISO form
const LATEST_CREATED_AT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A file row that passed validation. */
export interface ImportRow {
  /** 1 = the first data row */
  row: number;
  date: string;
  kind: TransactionKind;
  amountMinor: number;
  category: string;
  note: string;
  tags: string[];
  groupId: number | null;
  createdAt: string | null;
  // The money columns; each key is present only when the file gives a value for it, so that a
  // file written before accounts existed reads exactly as it always did.
  /** the account's name (none: the user's default account) */
  account?: string;
  /** ISO 4217 code of `amountMinor`; when given, `amountMinor` is in its minor units (else in hundredths) */
  currency?: string;
  /** transfer only: the receiving account's name */
  toAccount?: string;
  /** transfer only: what the receiving account gets, a decimal in its currency (read once that is known) */
  toAmount?: string;
  /** base-currency units per unit of `currency`, exact decimal */
  rate?: string;
}

export interface RowError {
  row: number;
  message: string;
}

export interface ParsedFile {
  source: 'csv' | 'json';
  records: Record<string, unknown>[];
}

/** Where the known columns stand in a header row, and how many cells the header has. */
export interface LedgerHeader {
  columns: (readonly [string, number])[];
  width: number;
  /** cells past the header count only when they hold something (a spreadsheet re-saving the file pads rows) */
  padded: boolean;
}

function tooManyRows(): AppError {
  return Errors.tooLarge(`too many rows: an import holds at most ${IMPORT_MAX_ROWS}`);
}

/** One data line as a record of the header's known columns; cells past the header mark it (`$extra`). */
export function ledgerRecord(cells: string[], header: LedgerHeader): Record<string, unknown> {
  const rec: Record<string, unknown> = {};
  for (const [name, i] of header.columns) rec[name] = cells[i] ?? '';
  const extra = cells.length > header.width && (!header.padded || cells.slice(header.width).some((c) => c !== ''));
  if (extra) rec.$extra = cells.length - header.width;
  return rec;
}

const blank = (cells: string[]) => cells.every((c) => c.trim() === '');

/**
 * The records under a header: rows of empty cells (spreadsheets leave them behind) are dropped,
 * more than IMPORT_MAX_ROWS refuse the file. Without a header (it was refused) the lines are only
 * counted: a file too long is refused as such first.
 */
async function ledgerRows(
  it: AsyncIterator<FileRecord>,
  header: LedgerHeader | null,
  tooMany: () => AppError,
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  let n = 0;
  for (;;) {
    const next = await it.next();
    if (next.done) break;
    const cells = next.value.cells;
    if (blank(cells)) continue;
    if (++n > IMPORT_MAX_ROWS) throw tooMany();
    if (header) records.push(ledgerRecord(cells, header));
  }
  return records;
}

/** The header row of a file sent to POST /api/import: every required column, no known column twice. */
function importHeader(cells: string[]): LedgerHeader | AppError {
  const header = cells.map((h) => h.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) {
    return Errors.field(
      'file',
      `needs a header row naming the columns ${REQUIRED_COLUMNS.join(', ')} (optional: ${OPTIONAL_COLUMNS.join(', ')}); missing: ${missing.join(', ')}`,
    );
  }
  const known = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS] as string[];
  for (const c of known)
    if (header.indexOf(c) !== header.lastIndexOf(c)) return Errors.field('file', `names the column ${c} twice`);
  return {
    columns: known.map((name) => [name, header.indexOf(name)] as const).filter(([, i]) => i >= 0),
    width: header.length,
    padded: false,
  };
}

/** A JSON export: one array of objects. */
function ledgerJson(buf: Uint8Array, encoding: Encoding): Record<string, unknown>[] {
  let data: unknown;
  try {
    data = JSON.parse(decodeAll(buf, encoding));
  } catch {
    throw Errors.field('file', 'is not valid JSON');
  }
  if (!Array.isArray(data)) throw Errors.field('file', 'must be a JSON array of transactions');
  if (data.length > IMPORT_MAX_ROWS) throw tooManyRows();
  return data as Record<string, unknown>[];
}

/** The first visible character of a text file (its first kilobytes are enough unless they are all blank). */
function firstVisible(buf: Uint8Array, encoding: Encoding): string | undefined {
  return (
    /\S/.exec(decodeHead(buf, encoding))?.[0] ??
    (buf.length > 4096 ? /\S/.exec(decodeAll(buf, encoding))?.[0] : undefined)
  );
}

/**
 * Our own export from its bytes, the reader of POST /api/import: UTF-8 (with or without BOM),
 * UTF-16 with a BOM, else GB18030; a JSON array or CSV with a header row, told apart by the first
 * visible character. A file that is neither: 40001 naming the problem; too many rows: 41301.
 */
export async function readLedgerFile(buf: Uint8Array, signal?: AbortSignal): Promise<ParsedFile> {
  const encoding = textEncoding(buf);
  const first = firstVisible(buf, encoding);
  if (first === undefined) throw Errors.field('file', 'is empty');
  if (first === '[' || first === '{') return { source: 'json', records: ledgerJson(buf, encoding) };
  const it = csvRecords(buf, encoding, { strict: true, signal });
  try {
    let head = await it.next();
    while (!head.done && blank(head.value.cells)) head = await it.next();
    const header = importHeader(head.done ? [] : head.value.cells);
    // the whole file is read before a bad header is named: a file too long or broken further down says so first
    const records = await ledgerRows(it, header instanceof AppError ? null : header, tooManyRows);
    if (header instanceof AppError) throw header;
    return { source: 'csv', records };
  } finally {
    await it.return(undefined);
  }
}

/** Undoes the export's formula neutralization: one leading apostrophe before (apostrophes and) = + - @ tab or CR. */
export function restoreFormula(text: string): string {
  return text[0] === "'" && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

const length = (s: string) => [...s].length;

/** Validates every record; each invalid row gets one message naming all of its problems. */
export function validateRecords(file: ParsedFile): { rows: ImportRow[]; errors: RowError[] } {
  const rows: ImportRow[] = [];
  const errors: RowError[] = [];
  const csv = file.source === 'csv';
  const text = (v: unknown) => (typeof v === 'string' ? (csv ? restoreFormula(v) : v).trim() : undefined);
  file.records.forEach((rec, i) => {
    const row = i + 1;
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) {
      errors.push({ row, message: 'must be an object' });
      return;
    }
    const checked = validateRecord(rec, row, { csv, text, problems: [] });
    if (Array.isArray(checked)) errors.push({ row, message: checked.join('; ') });
    else rows.push(checked);
  });
  return { rows, errors };
}

/** How one record's cells are read, and the problems found in it so far. */
interface RecordCheck {
  csv: boolean;
  /** a text cell trimmed (a CSV one with its formula neutralization undone); undefined when not text */
  text: (v: unknown) => string | undefined;
  problems: string[];
}

/** The money columns of a record; each present only when its cell holds something. */
type MoneyColumns = Pick<ImportRow, 'account' | 'toAccount' | 'toAmount' | 'rate'> & { currency?: CurrencyInfo };

/** One record read into a row, or the list of its problems, in the order of its columns. */
function validateRecord(rec: Record<string, unknown>, row: number, cx: RecordCheck): ImportRow | string[] {
  const { problems } = cx;
  if (rec.$extra) problems.push('has more cells than the header');
  const date = rec.date;
  // the database has no year 0
  if (typeof date !== 'string' || !isValidDate(date.trim()) || date.trim() < '0001-01-01')
    problems.push('date must be a valid date (YYYY-MM-DD)');
  const kind = typeof rec.kind === 'string' ? rec.kind.trim() : rec.kind;
  const categorized = kind === 'expense' || kind === 'income';
  if (!categorized && kind !== 'transfer' && kind !== 'adjustment')
    problems.push('kind must be expense, income, transfer or adjustment');
  const money = readMoneyColumns(rec, kind, cx);
  const amountMinor = readAmount(rec, kind, money.currency, problems);
  const category = readCategory(rec, kind, cx);
  const note = readNote(rec, cx);
  const tags = readTags(rec, cx);
  const groupId = readGroupId(rec, problems);
  const createdAt = readCreatedAt(rec, problems);
  // a database text value cannot hold U+0000
  if ([category, note, money.account, money.toAccount, ...tags].some((v) => v?.includes('\u0000')))
    problems.push('category, note, accounts and tags must not contain NUL characters');
  if ((kind === 'transfer' || kind === 'adjustment') && groupId !== null)
    problems.push('a transfer or an adjustment is not recorded in a group');
  if (problems.length) return problems;
  const out: ImportRow = {
    row,
    date: (date as string).trim(),
    kind: kind as TransactionKind,
    amountMinor,
    category: category ?? '',
    note,
    tags,
    groupId,
    createdAt,
  };
  if (money.account !== undefined) out.account = money.account;
  if (money.currency !== undefined) out.currency = money.currency.code;
  if (money.toAccount !== undefined) out.toAccount = money.toAccount;
  if (money.toAmount !== undefined) out.toAmount = money.toAmount;
  if (money.rate !== undefined) out.rate = money.rate;
  return out;
}

/** A money cell's text: an empty cell (or null in JSON) is the same as no column. */
function given(cx: RecordCheck, v: unknown): string | undefined {
  const t = cx.text(typeof v === 'number' ? String(v) : v);
  return t === undefined || t === '' ? undefined : t;
}

/** The account, currency, receiving account and amount, and rate; a transfer's accounts checked. */
function readMoneyColumns(rec: Record<string, unknown>, kind: unknown, cx: RecordCheck): MoneyColumns {
  const { problems } = cx;
  const account = given(cx, rec.account);
  if (account !== undefined && length(account) > 30) problems.push('account must be at most 30 characters');
  const currencyCode = given(cx, rec.currency)?.toUpperCase();
  const currency = currencyCode === undefined ? undefined : currencyInfo(currencyCode);
  if (currencyCode !== undefined && !currency)
    problems.push('currency must be an ISO 4217 code such as CNY, USD or JPY');
  const toAccount = given(cx, rec.to_account);
  if (toAccount !== undefined && length(toAccount) > 30) problems.push('to_account must be at most 30 characters');
  const toAmount = given(cx, rec.to_amount);
  if (toAmount !== undefined && (!DECIMAL.test(toAmount) || toAmount.startsWith('-') || /^[0.]+$/.test(toAmount)))
    problems.push('to_amount must be a positive decimal number');
  let rate: string | undefined;
  const rawRate = given(cx, rec.rate);
  if (rawRate !== undefined) {
    try {
      rate = rateText(parseRate(rawRate));
    } catch (err) {
      problems.push(err instanceof AppError ? `rate ${err.message.replace(/^rate /, '')}` : 'rate is invalid');
    }
  }
  if (kind === 'transfer') {
    if (toAccount === undefined) problems.push('a transfer needs to_account');
    else if (toAccount === (account ?? '')) problems.push('a transfer needs two different accounts');
  } else if (toAccount !== undefined || toAmount !== undefined)
    problems.push('only a transfer has to_account and to_amount');
  return { account, currency: currency ?? undefined, toAccount, toAmount, rate };
}

/** The amount in minor units: of its currency when the row names one, else hundredths. */
function readAmount(
  rec: Record<string, unknown>,
  kind: unknown,
  currency: CurrencyInfo | undefined,
  problems: string[],
): number {
  const amount = typeof rec.amount === 'string' ? rec.amount.trim() : rec.amount;
  try {
    if (currency === undefined && kind !== 'transfer' && kind !== 'adjustment') return parseAmount(amount);
    // an adjustment's sign is its direction; a negative expense or income of an export (with its
    // currency) is a refund booked against its purchase, and comes back as it left
    return parseMinor(amount, currency ?? HUNDREDTHS, 'amount', {
      allowNegative: kind === 'adjustment' || (currency !== undefined && (kind === 'expense' || kind === 'income')),
    });
  } catch (err) {
    problems.push(err instanceof AppError ? err.message.replace(/ \(XXX\)$| in XXX$/, '') : 'amount is invalid');
    return 0;
  }
}

/** An expense's or an income's category; a transfer or an adjustment has none. */
function readCategory(rec: Record<string, unknown>, kind: unknown, cx: RecordCheck): string | undefined {
  const moves = kind === 'transfer' || kind === 'adjustment';
  const category = moves ? given(cx, rec.category) : cx.text(rec.category);
  if (!moves && (category === undefined || length(category) < 1 || length(category) > 20))
    cx.problems.push('category must be 1 to 20 characters');
  if ((kind === 'transfer' || kind === 'adjustment') && category !== undefined)
    cx.problems.push('a transfer or an adjustment has no category');
  return category;
}

function readNote(rec: Record<string, unknown>, cx: RecordCheck): string {
  if (rec.note === undefined || rec.note === null) return '';
  const n = cx.text(rec.note);
  if (n === undefined) cx.problems.push('note must be text');
  else if (length(n) > 200) cx.problems.push('note must be at most 200 characters');
  else return n;
  return '';
}

/** Tag names joined by | (in JSON also an array), each once. */
function readTags(rec: Record<string, unknown>, cx: RecordCheck): string[] {
  const rawTags = rec.tags;
  if (rawTags === undefined || rawTags === null) return [];
  let parts: unknown[] | null = null;
  if (typeof rawTags === 'string') parts = (cx.csv ? restoreFormula(rawTags) : rawTags).split('|');
  else if (Array.isArray(rawTags)) parts = rawTags;
  if (!parts || parts.some((p) => typeof p !== 'string')) {
    cx.problems.push('tags must be names joined by | (or, in JSON, an array of names)');
    return [];
  }
  const tags = [...new Set((parts as string[]).map((p) => p.trim()).filter((p) => p !== ''))];
  if (tags.some((t) => length(t) > 20)) cx.problems.push('each tag must be 1 to 20 characters');
  if (tags.some((t) => t.includes('|'))) cx.problems.push('a tag name cannot contain "|"');
  if (tags.length > MAX_TAGS) cx.problems.push(`at most ${MAX_TAGS} tags`);
  return tags;
}

function readGroupId(rec: Record<string, unknown>, problems: string[]): number | null {
  const g = typeof rec.group_id === 'string' ? rec.group_id.trim() : rec.group_id;
  if (g === undefined || g === null || g === '') return null;
  const n = typeof g === 'number' ? g : typeof g === 'string' && /^\d{1,10}$/.test(g) ? Number(g) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 2147483647) {
    problems.push('group_id must be a positive integer');
    return null;
  }
  return n;
}

function readCreatedAt(rec: Record<string, unknown>, problems: string[]): string | null {
  const c = typeof rec.created_at === 'string' ? rec.created_at.trim() : rec.created_at;
  if (c === undefined || c === null || c === '') return null;
  const ms = typeof c === 'string' && ISO_TIMESTAMP.test(c) ? Date.parse(c) : NaN;
  if (Number.isNaN(ms) || ms < EARLIEST_CREATED_AT || ms > LATEST_CREATED_AT) {
    problems.push('created_at must be an ISO 8601 timestamp from the year 1000 to 9999 (UTC)');
    return null;
  }
  return new Date(ms).toISOString();
}

// ---- our own export in a bill preview ----

function ledgerSeed(r: ImportRow): SeedRow {
  // transfers and adjustments of our own export name accounts: Import & export (/api/import) keeps them
  const accountRow = !isCategoryKind(r.kind);
  return {
    row: r.row,
    date: r.date,
    kind: isCategoryKind(r.kind) ? r.kind : 'transfer',
    amountMinor: r.amountMinor,
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

async function emitLedger(
  records: Record<string, unknown>[],
  source: 'csv' | 'json',
  detected: Detected,
  opts: ReadOptions,
): Promise<BillOutcome> {
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

/** The header a bill preview found (ledgerLayout): the columns a preview reads, trailing cells tolerated. */
function previewHeader(layout: Layout): LedgerHeader {
  const columns = PREVIEW_COLUMNS.flatMap((k) => {
    const i = layout.columns.get(k);
    return i === undefined ? [] : [[k, i] as const];
  });
  return { columns, width: layout.header.length, padded: true };
}

/** The rows of our own CSV export under the header a preview found, as seed rows. */
export async function readLedgerRows(
  it: AsyncIterator<FileRecord>,
  layout: Layout,
  detected: Detected,
  opts: ReadOptions,
): Promise<BillOutcome> {
  return emitLedger(await ledgerRows(it, previewHeader(layout), tooManyBillRows), 'csv', detected, opts);
}

/** Our own JSON export in a preview, as seed rows. */
export async function readLedgerJson(buf: Uint8Array, encoding: Encoding, opts: ReadOptions): Promise<BillOutcome> {
  const records = ledgerJson(buf, encoding);
  const detected: Detected = {
    format: 'ledger',
    source: 'ledger',
    container: 'json',
    encoding,
    header: [],
    presetId: null,
  };
  opts.onDetected?.(detected);
  return emitLedger(records, 'json', detected, opts);
}
