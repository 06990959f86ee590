import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse as csvParser, CsvError } from 'csv-parse';
import iconv from 'iconv-lite';
import type { UploadLimits } from '../../config.ts';
import { Errors } from '../../lib/errors.ts';
import { isCompoundFile, xlsRows } from './bill.xls.ts';
import { checkSignal } from './import.signal.ts';
import { xlsxRows } from './bill.xlsx.ts';

/*
 * The first layer of a bill: its container (CSV text or an XLSX workbook) and, for text, its
 * encoding, both told from the bytes; then its records, one array of cell texts per line, read
 * as a stream so that a large file is never held as records all at once.
 */

export type Container = 'csv' | 'xlsx' | 'xls' | 'json' | 'text' | 'xml';
export type Encoding = 'utf-8' | 'gb18030' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface Sniffed {
  container: Container;
  encoding: Encoding | null;
}

const CHUNK = 64 * 1024;
/** lines a bill may have besides its rows (account block, summary, notes) */
const HEAD_LINES = 1000;

/** The container and encoding of a file, from its first bytes (and, for text, whether it is valid UTF-8). */
export function sniff(buf: Uint8Array): Sniffed {
  // an XLSX workbook is a ZIP archive
  if (buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04)
    return { container: 'xlsx', encoding: null };
  // old binary Excel (.xls); tab-separated text saved under an .xls name is read as text
  if (isCompoundFile(buf)) return { container: 'xls', encoding: null };
  const encoding = textEncoding(buf);
  const first = /\S/.exec(decodeHead(buf, encoding))?.[0];
  return { container: first === '[' || first === '{' ? 'json' : 'csv', encoding };
}

/**
 * The encoding of a text file: UTF-8 (with or without BOM) or UTF-16 with a BOM when the bytes say
 * so, else GB18030, the superset of GBK that Excel writes on Chinese systems.
 */
export function textEncoding(buf: Uint8Array): Encoding {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf-8';
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  return isUtf8(buf) ? 'utf-8' : 'gb18030';
}

/** The first few kilobytes as text (for sniffing and messages). */
export function decodeHead(buf: Uint8Array, encoding: Encoding, bytes = 4096): string {
  return iconv.decode(Buffer.from(buf.subarray(0, bytes)), encoding).replace(/^\ufeff/, '');
}

/** A text file decoded whole, in the encoding its bytes tell (the BOM is not part of the text). */
export function decodeText(buf: Uint8Array, encoding: Encoding = textEncoding(buf)): string {
  return iconv.decode(Buffer.from(buf), encoding);
}

/** The whole file as text (small formats only: our own JSON export). */
export function decodeAll(buf: Uint8Array, encoding: Encoding): string {
  return decodeText(buf, encoding).replace(/^\ufeff/, '');
}

function chunks(buf: Uint8Array): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < buf.length; i += CHUNK)
        yield Buffer.from(buf.buffer, buf.byteOffset + i, Math.min(CHUNK, buf.length - i));
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
export async function* csvRecords(
  buf: Uint8Array,
  encoding: Encoding,
  opts: ReadLimits = {},
): AsyncGenerator<FileRecord> {
  const maxCell = opts.limits?.maxCellChars;
  const maxLines = opts.limits ? opts.limits.maxRows + HEAD_LINES : undefined;
  const delimiter = opts.delimiter ?? ',';
  const source: Readable =
    encoding === 'utf-8' ? chunks(buf) : (chunks(buf).pipe(iconv.decodeStream(encoding)) as unknown as Readable);
  const parser: Readable = source.pipe(
    csvParser({
      bom: true,
      delimiter,
      relax_column_count: true,
      // our own export is written by a CSV writer: a stray quote there is a broken file, not a bank's habit
      relax_quotes: !opts.strict,
      skip_empty_lines: true,
      // one physical line of a bill is one record; a quoted field may still span lines
      max_record_size: opts.strict ? undefined : 1024 * 1024,
    }),
  );
  sameLengthAsItself(parser);
  let line = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      line++;
      if (line % 256 === 0) checkSignal(opts.signal);
      // lines of empty cells count too: a file of commas must not keep a core busy
      if (maxLines !== undefined && line > maxLines) throw Errors.tooLarge(`the file has more than ${maxLines} lines`);
      if (maxCell !== undefined && cells.some((c) => c.length > maxCell))
        throw Errors.tooLarge(`a cell of the file is longer than ${maxCell} characters`);
      yield { line, cells };
    }
  } catch (err) {
    if (err instanceof CsvError)
      throw Errors.field(
        'file',
        opts.strict ? `is not valid CSV: ${err.message}` : `is not valid CSV after line ${line}: ${err.message}`,
      );
    throw err;
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/** csv-parse's record step, as its parser object holds it. */
interface CsvParseApi {
  state: { record: unknown[]; expectedRecordLength?: number };
  __onRecord: (push: unknown) => unknown;
}

/**
 * A bill's lines differ in length (account block, header, rows): each record is compared with its
 * own length, so that none raises csv-parse's length error (built with its context, then ignored
 * under relax_column_count). Set in the parser's record step, where an `on_record` callback would
 * have csv-parse build an information object for every record of the file.
 */
function sameLengthAsItself(parser: Readable): void {
  const api = (parser as unknown as { api?: CsvParseApi }).api;
  if (!api || typeof api.__onRecord !== 'function') return;
  const onRecord = api.__onRecord;
  api.__onRecord = function (push) {
    api.state.expectedRecordLength = api.state.record.length;
    return onRecord.call(api, push);
  };
}

/** The records of an XLSX workbook's first worksheet, read under the upload limits without temporary files. */
export async function* xlsxRecords(buf: Uint8Array, opts: ReadLimits = {}): AsyncGenerator<FileRecord> {
  yield* xlsxRows(buf, opts);
}

export interface ReadLimits {
  limits?: UploadLimits;
  /** aborts when the client goes away: the read stops */
  signal?: AbortSignal;
  /** the field separator of a CSV file (detected or set in its mapping); default a comma */
  delimiter?: string;
  /** quotes as a CSV writer puts them (our own export): a stray one refuses the file */
  strict?: boolean;
}

export function fileRecords(buf: Uint8Array, s: Sniffed, opts: ReadLimits = {}): AsyncGenerator<FileRecord> {
  if (s.container === 'xlsx') return xlsxRecords(buf, opts);
  if (s.container === 'xls') return xlsRecords(buf, opts);
  return csvRecords(buf, s.encoding ?? 'utf-8', opts);
}

async function* xlsRecords(buf: Uint8Array, opts: ReadLimits): AsyncGenerator<FileRecord> {
  yield* xlsRows(buf, opts);
}
