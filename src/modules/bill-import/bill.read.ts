import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse as csvParser, CsvError } from 'csv-parse';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { Errors } from '../../lib/errors.ts';

/*
 * The first layer of a bill: its container (CSV text or an XLSX workbook) and, for text, its
 * encoding, both told from the bytes; then its records, one array of cell texts per line, read
 * as a stream so that a large file is never held as records all at once.
 */

export type Container = 'csv' | 'xlsx' | 'json';
export type Encoding = 'utf-8' | 'gb18030' | 'utf-16le' | 'utf-16be';

export interface Sniffed {
  container: Container;
  encoding: Encoding | null;
}

const CHUNK = 64 * 1024;

/** The container and encoding of a file, from its first bytes (and, for text, whether it is valid UTF-8). */
export function sniff(buf: Uint8Array): Sniffed {
  // an XLSX workbook is a ZIP archive
  if (buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04) return { container: 'xlsx', encoding: null };
  let encoding: Encoding;
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) encoding = 'utf-8';
  else if (buf[0] === 0xff && buf[1] === 0xfe) encoding = 'utf-16le';
  else if (buf[0] === 0xfe && buf[1] === 0xff) encoding = 'utf-16be';
  else encoding = isUtf8(buf) ? 'utf-8' : 'gb18030';
  const head = decodeHead(buf, encoding);
  const first = /\S/.exec(head)?.[0];
  return { container: first === '[' || first === '{' ? 'json' : 'csv', encoding };
}

/** The first few kilobytes as text (for sniffing and messages). */
export function decodeHead(buf: Uint8Array, encoding: Encoding, bytes = 4096): string {
  return iconv.decode(Buffer.from(buf.subarray(0, bytes)), encoding).replace(/^\ufeff/, '');
}

/** The whole file as text (small formats only: our own JSON export). */
export function decodeAll(buf: Uint8Array, encoding: Encoding): string {
  return iconv.decode(Buffer.from(buf), encoding).replace(/^\ufeff/, '');
}

function chunks(buf: Uint8Array): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < buf.length; i += CHUNK) yield Buffer.from(buf.buffer, buf.byteOffset + i, Math.min(CHUNK, buf.length - i));
    })(),
    { objectMode: false },
  );
}

/** A record: its 1-based position among the file's non-empty lines, and its cells. */
export interface FileRecord {
  line: number;
  cells: string[];
}

/**
 * The records of a CSV file, streamed: decoded on the fly (iconv-lite), parsed by csv-parse with
 * the lenient options that bill exports need (ragged rows, stray quotes inside fields).
 */
export async function* csvRecords(buf: Uint8Array, encoding: Encoding, delimiter = ','): AsyncGenerator<FileRecord> {
  const source: Readable = encoding === 'utf-8' ? chunks(buf) : (chunks(buf).pipe(iconv.decodeStream(encoding)) as unknown as Readable);
  const parser = source.pipe(
    csvParser({
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      // one physical line of a bill is one record; a quoted field may still span lines
      max_record_size: 1024 * 1024,
    }),
  );
  let line = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      line++;
      yield { line, cells };
    }
  } catch (err) {
    if (err instanceof CsvError) throw Errors.field('file', `is not valid CSV after line ${line}: ${err.message}`);
    throw err;
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/** The text a spreadsheet shows for a cell value: numbers as written, dates as `YYYY-MM-DD HH:MM:SS`, a formula's result (never the formula). */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return '';
    // exceljs gives a workbook's wall-clock time as that instant in UTC
    const iso = v.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return (o.richText as { text?: unknown }[]).map((r) => (typeof r.text === 'string' ? r.text : '')).join('');
    if ('result' in o) return cellText(o.result);
    if ('formula' in o || 'sharedFormula' in o) return '';
    if (typeof o.text === 'string') return o.text;
    if ('error' in o) return '';
  }
  return '';
}

/** The records of an XLSX workbook's first worksheet, streamed with exceljs. */
export async function* xlsxRecords(buf: Uint8Array): AsyncGenerator<FileRecord> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(chunks(buf), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'emit',
  });
  let line = 0;
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = (row.values ?? []) as unknown[];
        const cells: string[] = [];
        for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
        if (cells.every((c) => c.trim() === '')) continue;
        line++;
        yield { line, cells };
      }
      // the first worksheet is the bill
      break;
    }
  } catch (err) {
    if (err instanceof Error && err.name === 'AppError') throw err;
    throw Errors.field('file', 'is not a readable XLSX workbook');
  }
}

export function fileRecords(buf: Uint8Array, s: Sniffed, delimiter = ','): AsyncGenerator<FileRecord> {
  return s.container === 'xlsx' ? xlsxRecords(buf) : csvRecords(buf, s.encoding ?? 'utf-8', delimiter);
}
