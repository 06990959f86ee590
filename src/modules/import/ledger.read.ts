import { parse as parseCsv, CsvError } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { isValidDate } from '../../lib/dates.ts';
import { currencyInfo, parseMinor, parseRate, rateText } from '../../lib/currency.ts';
import type { TransactionKind } from '../../lib/domain.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import { parseAmount } from '../../lib/money.ts';
import { FORMULA_START } from '../export/index.ts';

/*
 * Reading an import file, without a database: the bytes decoded to text, the text parsed as CSV
 * or JSON into records, and every record checked into a row ready to write (or an error naming
 * all of its problems).
 */

export const IMPORT_MAX_ROWS = 100_000;
const MAX_TAGS = 10;
const REQUIRED_COLUMNS = ['date', 'kind', 'amount', 'category'] as const;
const OPTIONAL_COLUMNS = ['note', 'tags', 'group_id', 'created_at', 'account', 'currency', 'to_account', 'to_amount', 'rate'] as const;
/** amounts without a `currency` cell are read with 2 decimals and fitted to their account's currency when written */
const CENTS = { code: 'XXX', digits: 2, name: '' };
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
  cents: number;
  category: string;
  note: string;
  tags: string[];
  groupId: number | null;
  createdAt: string | null;
  // The money columns; each key is present only when the file gives a value for it, so that a
  // file written before accounts existed reads exactly as it always did.
  /** the account's name (none: the user's default account) */
  account?: string;
  /** ISO 4217 code of `cents`; when given, `cents` is in its minor units (else in hundredths) */
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

/**
 * The file's text: UTF-8 (with or without BOM; UTF-16 with a BOM) when the bytes decode as such,
 * else GB18030, the superset of GBK that Excel writes on Chinese systems.
 */
export function decodeText(buf: Uint8Array): string {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return new TextDecoder('utf-8').decode(buf);
  if (buf[0] === 0xff && buf[1] === 0xfe) return iconv.decode(Buffer.from(buf.subarray(2)), 'utf-16le');
  if (buf[0] === 0xfe && buf[1] === 0xff) return iconv.decode(Buffer.from(buf.subarray(2)), 'utf-16be');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return iconv.decode(Buffer.from(buf), 'gb18030');
  }
}

export interface ParsedFile {
  source: 'csv' | 'json';
  records: Record<string, unknown>[];
}

function tooManyRows(): AppError {
  return Errors.tooLarge(`too many rows: an import holds at most ${IMPORT_MAX_ROWS}`);
}

/** CSV (header row required) or a JSON array, told apart by the first visible character. */
export function parseFile(text: string): ParsedFile {
  const body = text.replace(/^\ufeff/, '');
  const first = /\S/.exec(body)?.[0];
  if (first === undefined) throw Errors.field('file', 'is empty');
  if (first === '[' || first === '{') return { source: 'json', records: parseJson(body) };
  return { source: 'csv', records: parseCsvRecords(body) };
}

function parseJson(text: string): Record<string, unknown>[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw Errors.field('file', 'is not valid JSON');
  }
  if (!Array.isArray(data)) throw Errors.field('file', 'must be a JSON array of transactions');
  if (data.length > IMPORT_MAX_ROWS) throw tooManyRows();
  return data as Record<string, unknown>[];
}

function parseCsvRecords(text: string): Record<string, unknown>[] {
  let lines: string[][];
  let kept = 0;
  try {
    lines = parseCsv(text, {
      relax_column_count: true,
      skip_empty_lines: true,
      // rows of empty cells (spreadsheets leave them behind) are dropped; the count stops at the limit
      on_record: (cells: string[]) => {
        if (cells.every((c) => c.trim() === '')) return null;
        if (++kept > IMPORT_MAX_ROWS + 1) throw tooManyRows();
        return cells;
      },
    }) as string[][];
  } catch (err) {
    if (err instanceof CsvError) throw Errors.field('file', `is not valid CSV: ${err.message}`);
    throw err;
  }
  const header = (lines[0] ?? []).map((h) => h.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) {
    throw Errors.field('file', `needs a header row naming the columns ${REQUIRED_COLUMNS.join(', ')} (optional: ${OPTIONAL_COLUMNS.join(', ')}); missing: ${missing.join(', ')}`);
  }
  const known = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS] as string[];
  for (const c of known) if (header.indexOf(c) !== header.lastIndexOf(c)) throw Errors.field('file', `names the column ${c} twice`);
  const columns = known.map((name) => [name, header.indexOf(name)] as const).filter(([, i]) => i >= 0);
  return lines.slice(1).map((cells) => {
    const rec: Record<string, unknown> = {};
    for (const [name, i] of columns) rec[name] = cells[i] ?? '';
    if (cells.length > header.length) rec.$extra = cells.length - header.length;
    return rec;
  });
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
    const problems: string[] = [];
    if (rec.$extra) problems.push('has more cells than the header');

    const date = rec.date;
    // the database has no year 0
    if (typeof date !== 'string' || !isValidDate(date.trim()) || date.trim() < '0001-01-01') problems.push('date must be a valid date (YYYY-MM-DD)');

    const kind = typeof rec.kind === 'string' ? rec.kind.trim() : rec.kind;
    const categorized = kind === 'expense' || kind === 'income';
    if (!categorized && kind !== 'transfer' && kind !== 'adjustment') problems.push('kind must be expense, income, transfer or adjustment');

    // the money columns: an empty cell (or null in JSON) is the same as no column
    const given = (v: unknown): string | undefined => {
      const t = text(typeof v === 'number' ? String(v) : v);
      return t === undefined || t === '' ? undefined : t;
    };
    const account = given(rec.account);
    if (account !== undefined && length(account) > 30) problems.push('account must be at most 30 characters');
    const currencyCode = given(rec.currency)?.toUpperCase();
    const currency = currencyCode === undefined ? undefined : currencyInfo(currencyCode);
    if (currencyCode !== undefined && !currency) problems.push('currency must be an ISO 4217 code such as CNY, USD or JPY');
    const toAccount = given(rec.to_account);
    if (toAccount !== undefined && length(toAccount) > 30) problems.push('to_account must be at most 30 characters');
    const toAmount = given(rec.to_amount);
    if (toAmount !== undefined && (!DECIMAL.test(toAmount) || toAmount.startsWith('-') || /^[0.]+$/.test(toAmount))) problems.push('to_amount must be a positive decimal number');
    let rate: string | undefined;
    const rawRate = given(rec.rate);
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
    } else if (toAccount !== undefined || toAmount !== undefined) problems.push('only a transfer has to_account and to_amount');

    let cents = 0;
    const amount = typeof rec.amount === 'string' ? rec.amount.trim() : rec.amount;
    try {
      if (currency === undefined && kind !== 'transfer' && kind !== 'adjustment') cents = parseAmount(amount);
      // an adjustment's sign is its direction; a negative expense or income of an export (with its
      // currency) is a refund booked against its purchase, and comes back as it left
      else cents = parseMinor(amount, currency ?? CENTS, 'amount', { allowNegative: kind === 'adjustment' || (currency !== undefined && (kind === 'expense' || kind === 'income')) });
    } catch (err) {
      problems.push(err instanceof AppError ? err.message.replace(/ \(XXX\)$| in XXX$/, '') : 'amount is invalid');
    }

    const moves = kind === 'transfer' || kind === 'adjustment';
    const category = moves ? given(rec.category) : text(rec.category);
    if (!moves && (category === undefined || length(category) < 1 || length(category) > 20)) problems.push('category must be 1 to 20 characters');
    if ((kind === 'transfer' || kind === 'adjustment') && category !== undefined) problems.push('a transfer or an adjustment has no category');

    let note = '';
    if (rec.note !== undefined && rec.note !== null) {
      const n = text(rec.note);
      if (n === undefined) problems.push('note must be text');
      else if (length(n) > 200) problems.push('note must be at most 200 characters');
      else note = n;
    }

    let tags: string[] = [];
    const rawTags = rec.tags;
    if (rawTags !== undefined && rawTags !== null) {
      let parts: unknown[] | null = null;
      if (typeof rawTags === 'string') parts = (csv ? restoreFormula(rawTags) : rawTags).split('|');
      else if (Array.isArray(rawTags)) parts = rawTags;
      if (!parts || parts.some((p) => typeof p !== 'string')) problems.push('tags must be names joined by | (or, in JSON, an array of names)');
      else {
        tags = [...new Set((parts as string[]).map((p) => p.trim()).filter((p) => p !== ''))];
        if (tags.some((t) => length(t) > 20)) problems.push('each tag must be 1 to 20 characters');
        if (tags.some((t) => t.includes('|'))) problems.push('a tag name cannot contain "|"');
        if (tags.length > MAX_TAGS) problems.push(`at most ${MAX_TAGS} tags`);
      }
    }

    let groupId: number | null = null;
    const g = typeof rec.group_id === 'string' ? rec.group_id.trim() : rec.group_id;
    if (g !== undefined && g !== null && g !== '') {
      const n = typeof g === 'number' ? g : typeof g === 'string' && /^\d{1,10}$/.test(g) ? Number(g) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > 2147483647) problems.push('group_id must be a positive integer');
      else groupId = n;
    }

    let createdAt: string | null = null;
    const c = typeof rec.created_at === 'string' ? rec.created_at.trim() : rec.created_at;
    if (c !== undefined && c !== null && c !== '') {
      const ms = typeof c === 'string' && ISO_TIMESTAMP.test(c) ? Date.parse(c) : NaN;
      if (Number.isNaN(ms) || ms < EARLIEST_CREATED_AT || ms > LATEST_CREATED_AT) problems.push('created_at must be an ISO 8601 timestamp from the year 1000 to 9999 (UTC)');
      else createdAt = new Date(ms).toISOString();
    }

    // a database text value cannot hold U+0000
    if ([category, note, account, toAccount, ...tags].some((v) => v?.includes('\u0000'))) problems.push('category, note, accounts and tags must not contain NUL characters');
    if ((kind === 'transfer' || kind === 'adjustment') && groupId !== null) problems.push('a transfer or an adjustment is not recorded in a group');

    if (problems.length) errors.push({ row, message: problems.join('; ') });
    else {
      const out: ImportRow = { row, date: (date as string).trim(), kind: kind as TransactionKind, cents, category: category ?? '', note, tags, groupId, createdAt };
      if (account !== undefined) out.account = account;
      if (currency !== undefined) out.currency = currency.code;
      if (toAccount !== undefined) out.toAccount = toAccount;
      if (toAmount !== undefined) out.toAmount = toAmount;
      if (rate !== undefined) out.rate = rate;
      rows.push(out);
    }
  });
  return { rows, errors };
}
