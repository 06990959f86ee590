import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../../config.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import { checkSignal } from './import.signal.ts';

/*
 * An XLSX workbook read as a hostile file. The zip's central directory is checked before anything
 * is inflated (entry count, declared sizes, compression ratio); then only the parts a bill needs
 * (workbook, its relationships, styles, shared strings, the first worksheet) are inflated as
 * streams, counted byte by byte against the same limits (declared sizes are never trusted alone),
 * and read by a small XML tokenizer that refuses DTDs (no entity is ever expanded), bounds nesting
 * depth, tag length, cell length, shared strings, rows (empty ones included) and columns. Nothing
 * is written to disk, and the read stops when `signal` aborts (the client went away).
 */

/** A refusal of a file that is damaged or built to hurt (42203, no rows listed). */
export function hostileFile(message: string): AppError {
  return new AppError(422, 42203, `the file cannot be read: ${message}`, undefined, { errors: [] });
}

const MiB = 1024 * 1024;
/** below this uncompressed size a high ratio is harmless (tiny, repetitive XML parts) */
const RATIO_FLOOR = MiB;
/** the longest tag, comment or processing instruction the tokenizer keeps while waiting for its end */
const MAX_TOKEN = 256 * 1024;

export interface ZipIndex {
  zip: ZipFile;
  /** entries by lower-case name */
  entries: Map<string, Entry>;
  limits: UploadLimits;
  /** bytes inflated so far, all entries together */
  inflated: number;
}

function openBuffer(buf: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      buf,
      { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false },
      (err, zip) => (err ? reject(err) : resolve(zip)),
    );
  });
}

/**
 * Opens a zip and checks its central directory without inflating a byte: too many entries, a
 * compression ratio of a bomb, declared sizes over the limits, duplicate names, a damaged
 * directory. Refuses with 41301 (too large) or 42203 (damaged or hostile).
 */
export async function openZip(buf: Uint8Array, limits: UploadLimits = DEFAULT_UPLOAD_LIMITS): Promise<ZipIndex> {
  const data = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let zip: ZipFile;
  try {
    zip = await openBuffer(data);
  } catch (err) {
    throw hostileFile(`not a complete zip archive (${(err as Error).message})`);
  }
  if (zip.entryCount > limits.zipMaxEntries) {
    zip.close();
    throw hostileFile(`the archive holds ${zip.entryCount} entries, more than ${limits.zipMaxEntries}`);
  }
  const entries = new Map<string, Entry>();
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (e: Entry) => {
        const size = e.uncompressedSize;
        const packed = Math.max(e.compressedSize, 1);
        if (size > RATIO_FLOOR && size / packed > limits.zipMaxRatio) {
          reject(
            hostileFile(
              `the entry ${e.fileName} expands ${Math.round(size / packed)} times, more than ${limits.zipMaxRatio}`,
            ),
          );
          return;
        }
        if (size > limits.zipMaxEntryBytes) {
          reject(
            Errors.tooLarge(
              `the workbook entry ${e.fileName} is ${Math.ceil(size / MiB)} MiB uncompressed, more than ${limits.zipMaxEntryBytes / MiB} MiB`,
            ),
          );
          return;
        }
        total += size;
        if (total > limits.zipMaxBytes) {
          reject(Errors.tooLarge(`the workbook is more than ${limits.zipMaxBytes / MiB} MiB uncompressed`));
          return;
        }
        const key = e.fileName.replace(/\\/g, '/').replace(/^\//, '').toLowerCase();
        if (entries.has(key)) {
          reject(hostileFile(`the entry ${e.fileName} appears twice`));
          return;
        }
        entries.set(key, e);
        zip.readEntry();
      });
      zip.readEntry();
    });
  } catch (err) {
    zip.close();
    if (err instanceof AppError) throw err;
    throw hostileFile(`a damaged zip directory (${(err as Error).message})`);
  }
  if (total > RATIO_FLOOR && total / data.length > limits.zipMaxRatio) {
    zip.close();
    throw hostileFile(`the archive expands ${Math.round(total / data.length)} times, more than ${limits.zipMaxRatio}`);
  }
  return { zip, entries, limits, inflated: 0 };
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))));
}

/**
 * The text of one entry, decoded as UTF-8 chunk by chunk; bytes are counted against the entry's
 * limit and the archive's and the stream is destroyed the moment either passes, or when the signal
 * aborts. Returning early (the caller stops iterating) destroys the stream as well.
 */
export async function* entryText(ix: ZipIndex, name: string, signal?: AbortSignal): AsyncGenerator<string> {
  const entry = ix.entries.get(name.toLowerCase());
  if (!entry) return;
  let stream: Readable;
  try {
    stream = await openEntry(ix.zip, entry);
  } catch (err) {
    throw hostileFile(`the entry ${entry.fileName} cannot be opened (${(err as Error).message})`);
  }
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      checkSignal(signal);
      bytes += chunk.length;
      ix.inflated += chunk.length;
      if (bytes > ix.limits.zipMaxEntryBytes)
        throw Errors.tooLarge(
          `the workbook entry ${entry.fileName} inflates past ${ix.limits.zipMaxEntryBytes / MiB} MiB`,
        );
      if (ix.inflated > ix.limits.zipMaxBytes)
        throw Errors.tooLarge(`the workbook inflates past ${ix.limits.zipMaxBytes / MiB} MiB`);
      if (first) {
        first = false;
        if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff))
          throw hostileFile(`the entry ${entry.fileName} is not UTF-8`);
      }
      yield decoder.decode(chunk, { stream: true });
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw hostileFile(`the entry ${entry.fileName} is damaged (${(err as Error).message})`);
  } finally {
    stream.destroy();
  }
}

// ---- a bounded XML tokenizer ----

export interface XmlHandler {
  /** local name (without a namespace prefix) and the raw attribute text */
  open(name: string, attrs: string, selfClosing: boolean): void;
  close(name: string): void;
  /** text between tags, entities decoded; only while `wantText()` */
  text(text: string): void;
  wantText(): boolean;
}

const ENTITY = /&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (m, e: string) => {
    if (e[0] !== '#') return NAMED[e] ?? m;
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** An attribute's value from a tag's raw attribute text (by local name), entities decoded. */
export function attr(attrs: string, name: string): string | undefined {
  const re = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*("([^"]*)"|'([^']*)')`);
  const m = re.exec(attrs);
  if (!m) return undefined;
  return decodeEntities(m[2] ?? m[3] ?? '');
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

/** Feeds XML text in chunks to a handler; refuses DTDs, over-deep nesting and over-long tags. */
export class XmlTokenizer {
  private buf = '';
  private depth = 0;
  constructor(
    private readonly h: XmlHandler,
    private readonly maxDepth: number,
  ) {}

  // eslint-disable-next-line max-lines-per-function -- a streaming state machine over chunks, read best in one piece
  write(chunk: string): void {
    const buf = this.buf ? this.buf + chunk : chunk;
    const h = this.h;
    let pos = 0;
    const n = buf.length;
    while (pos < n) {
      const lt = buf.indexOf('<', pos);
      if (lt < 0) {
        if (h.wantText()) {
          // an entity cut by the chunk's end (`&am`) waits for the next chunk
          const amp = buf.lastIndexOf('&');
          const cut = amp >= pos && n - amp < 12 && buf.indexOf(';', amp) < 0 ? amp : n;
          if (cut > pos) h.text(decodeEntities(buf.slice(pos, cut)));
          pos = cut;
        } else pos = n;
        break;
      }
      if (lt > pos && h.wantText()) h.text(decodeEntities(buf.slice(pos, lt)));
      const c1 = buf.charCodeAt(lt + 1);
      if (Number.isNaN(c1)) {
        pos = lt;
        break;
      }
      if (c1 === 0x21 /* ! */) {
        if (n - lt < 9) {
          // too few characters yet to tell a comment or CDATA from a DTD
          pos = lt;
          break;
        }
        if (buf.startsWith('<!--', lt)) {
          const end = buf.indexOf('-->', lt + 4);
          if (end < 0) {
            pos = lt;
            break;
          }
          pos = end + 3;
          continue;
        }
        if (buf.startsWith('<![CDATA[', lt)) {
          const end = buf.indexOf(']]>', lt + 9);
          if (end < 0) {
            pos = lt;
            break;
          }
          if (h.wantText()) h.text(buf.slice(lt + 9, end));
          pos = end + 3;
          continue;
        }
        // <!DOCTYPE, <!ENTITY...: a document type could declare entities (XXE, billion laughs)
        throw hostileFile('an XML part declares a document type (DTD), which a workbook never needs');
      }
      if (c1 === 0x3f /* ? */) {
        const end = buf.indexOf('?>', lt + 2);
        if (end < 0) {
          pos = lt;
          break;
        }
        pos = end + 2;
        continue;
      }
      // a tag: its end is the first '>' outside quotes
      let i = lt + 1;
      let quote = 0;
      for (; i < n; i++) {
        const c = buf.charCodeAt(i);
        if (quote) {
          if (c === quote) quote = 0;
        } else if (c === 0x22 || c === 0x27) quote = c;
        else if (c === 0x3e) break;
      }
      if (i >= n) {
        pos = lt;
        break;
      }
      if (c1 === 0x2f /* / */) {
        const name = localName(buf.slice(lt + 2, i).trim());
        this.depth--;
        h.close(name);
      } else {
        const selfClosing = buf.charCodeAt(i - 1) === 0x2f;
        const inner = buf.slice(lt + 1, selfClosing ? i - 1 : i);
        const sp = inner.search(/[\s/]/);
        const qname = sp < 0 ? inner : inner.slice(0, sp);
        const name = localName(qname);
        const attrs = sp < 0 ? '' : inner.slice(sp);
        if (!selfClosing && ++this.depth > this.maxDepth)
          throw hostileFile(`XML nested deeper than ${this.maxDepth} levels`);
        h.open(name, attrs, selfClosing);
        if (selfClosing) h.close(name);
      }
      pos = i + 1;
    }
    this.buf = pos < n ? buf.slice(pos) : '';
    if (this.buf.length > MAX_TOKEN) throw hostileFile(`an XML tag or comment longer than ${MAX_TOKEN} characters`);
  }
}

/** Reads one entry through a handler; `stop()` returning true ends the read early. */
async function readXml(
  ix: ZipIndex,
  name: string,
  h: XmlHandler,
  signal: AbortSignal | undefined,
  stop: () => boolean = () => false,
): Promise<boolean> {
  if (!ix.entries.has(name.toLowerCase())) return false;
  const t = new XmlTokenizer(h, ix.limits.xmlMaxDepth);
  for await (const chunk of entryText(ix, name, signal)) {
    t.write(chunk);
    if (stop()) break;
  }
  return true;
}

// ---- the parts of a workbook ----

function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').filter(Boolean);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

interface Rel {
  type: string;
  target: string;
}

async function readRels(
  ix: ZipIndex,
  relsPath: string,
  baseDir: string,
  signal?: AbortSignal,
): Promise<Map<string, Rel>> {
  const rels = new Map<string, Rel>();
  await readXml(
    ix,
    relsPath,
    {
      open(name, attrs) {
        if (name !== 'Relationship') return;
        const id = attr(attrs, 'Id');
        const target = attr(attrs, 'Target');
        // an external link (another file, a web address) is never followed
        if (!id || !target || attr(attrs, 'TargetMode') === 'External') return;
        if (rels.size >= 10_000) throw hostileFile('too many relationships');
        rels.set(id, { type: attr(attrs, 'Type') ?? '', target: resolveTarget(baseDir, target) });
      },
      close() {},
      text() {},
      wantText: () => false,
    },
    signal,
  );
  return rels;
}

const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .split(';')[0]!;
  return /[ymdhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** Which cell styles (index in cellXfs) show a number as a date. */
async function readDateStyles(ix: ZipIndex, path: string | undefined, signal?: AbortSignal): Promise<boolean[]> {
  const custom = new Map<number, boolean>();
  const styles: boolean[] = [];
  if (!path) return styles;
  let inCellXfs = false;
  await readXml(
    ix,
    path,
    {
      open(name, attrs) {
        if (name === 'numFmt')
          custom.set(Number(attr(attrs, 'numFmtId')), isDateFormat(attr(attrs, 'formatCode') ?? ''));
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) {
          if (styles.length >= 100_000) throw hostileFile('too many cell styles');
          const id = Number(attr(attrs, 'numFmtId') ?? 0);
          styles.push(custom.get(id) ?? BUILTIN_DATE_FORMATS.has(id));
        }
      },
      close(name) {
        if (name === 'cellXfs') inCellXfs = false;
      },
      text() {},
      wantText: () => false,
    },
    signal,
  );
  return styles;
}

async function readSharedStrings(ix: ZipIndex, path: string | undefined, signal?: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  if (!path) return out;
  const { maxSharedStrings, maxSharedChars, maxCellChars } = ix.limits;
  let chars = 0;
  let inSi = false;
  let inT = false;
  let phonetic = 0;
  let cur = '';
  await readXml(
    ix,
    path,
    {
      open(name) {
        if (name === 'si') {
          inSi = true;
          cur = '';
        } else if (name === 't' && inSi && !phonetic) inT = true;
        else if (name === 'rPh') phonetic++;
      },
      close(name) {
        if (name === 't') inT = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'si') {
          inSi = false;
          if (out.length >= maxSharedStrings)
            throw Errors.tooLarge(`the workbook holds more than ${maxSharedStrings} shared strings`);
          out.push(cur);
          cur = '';
        }
      },
      text(t) {
        if (cur.length + t.length > maxCellChars)
          throw Errors.tooLarge(`a text in the workbook is longer than ${maxCellChars} characters`);
        chars += t.length;
        if (chars > maxSharedChars)
          throw Errors.tooLarge(`the workbook's shared strings hold more than ${maxSharedChars} characters`);
        cur += t;
      },
      wantText: () => inT,
    },
    signal,
  );
  return out;
}

function columnIndex(ref: string | undefined): number {
  if (!ref) return -1;
  let col = 0;
  let i = 0;
  for (; i < ref.length && i < 4; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) col = col * 26 + (c - 64);
    else if (c >= 97 && c <= 122) col = col * 26 + (c - 96);
    else break;
  }
  return col - 1;
}

/** A spreadsheet serial number as the text a bill shows: `YYYY-MM-DD`, with ` HH:MM:SS` when there is a time. */
export function serialDateText(serial: number, date1904: boolean): string {
  const ms = Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000);
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

export interface SheetRow {
  /** 1-based position among the sheet's non-empty rows */
  line: number;
  cells: string[];
}

/**
 * The rows of a workbook's first worksheet, as cell texts (a formula's cached result, never the
 * formula; dates as `YYYY-MM-DD HH:MM:SS`), empty rows left out but counted against the limit.
 */
export async function* xlsxRows(
  buf: Uint8Array,
  opts: { limits?: UploadLimits; signal?: AbortSignal } = {},
): AsyncGenerator<SheetRow> {
  const limits = opts.limits ?? DEFAULT_UPLOAD_LIMITS;
  const signal = opts.signal;
  checkSignal(signal);
  const ix = await openZip(buf, limits);
  try {
    const sheet = await firstSheet(ix, signal);
    // the first worksheet, streamed: rows are handed over as each chunk is read
    const reader = new SheetReader(sheet, limits);
    const t = new XmlTokenizer(reader, limits.xmlMaxDepth);
    for await (const chunk of entryText(ix, sheet.path, signal)) {
      t.write(chunk);
      checkSignal(signal);
      for (const r of reader.ready.splice(0)) yield r;
      if (reader.done) break;
    }
    for (const r of reader.ready) yield r;
  } finally {
    ix.zip.close();
  }
}

/** What reading the first worksheet needs: where it is, the date system, which styles are dates, the shared strings. */
interface Sheet {
  path: string;
  date1904: boolean;
  dateStyles: boolean[];
  shared: string[];
}

/** Finds the workbook, its first worksheet and the parts its cells refer to. */
async function firstSheet(ix: ZipIndex, signal: AbortSignal | undefined): Promise<Sheet> {
  const rootRels = await readRels(ix, '_rels/.rels', '', signal);
  const office = [...rootRels.values()].find((r) => r.type.endsWith('/officeDocument'));
  const workbookPath = office?.target ?? 'xl/workbook.xml';
  if (!ix.entries.has(workbookPath.toLowerCase())) throw hostileFile('not an XLSX workbook (no workbook part)');
  const baseDir = workbookPath.split('/').slice(0, -1).join('/');
  const relsPath = `${baseDir ? baseDir + '/' : ''}_rels/${workbookPath.split('/').pop()}.rels`;

  let firstSheetRel: string | undefined;
  let date1904 = false;
  await readXml(
    ix,
    workbookPath,
    {
      open(name, attrs) {
        if (name === 'sheet' && firstSheetRel === undefined) firstSheetRel = attr(attrs, 'id') ?? '';
        else if (name === 'workbookPr') date1904 = /^(1|true)$/i.test(attr(attrs, 'date1904') ?? '');
      },
      close() {},
      text() {},
      wantText: () => false,
    },
    signal,
  );
  const rels = await readRels(ix, relsPath, baseDir, signal);
  const sheetPath = firstSheetRel ? rels.get(firstSheetRel)?.target : undefined;
  if (!sheetPath || !ix.entries.has(sheetPath.toLowerCase()))
    throw hostileFile('the workbook has no readable first worksheet');
  const relOf = (suffix: string) =>
    [...rels.values()].find((r) => r.type.endsWith(suffix) && ix.entries.has(r.target.toLowerCase()))?.target;
  const dateStyles = await readDateStyles(ix, relOf('/styles'), signal);
  const shared = await readSharedStrings(ix, relOf('/sharedStrings'), signal);
  return { path: sheetPath, date1904, dateStyles, shared };
}

/** The worksheet's XML read into rows: `ready` holds the rows complete so far, `done` the end of the sheet's data. */
class SheetReader implements XmlHandler {
  readonly ready: SheetRow[] = [];
  done = false;
  private rows = 0;
  private line = 0;
  private cells: string[] = [];
  private inRow = false;
  private col = -1;
  private type = '';
  private style = 0;
  private value = '';
  private capture = false;
  private inInline = false;
  private phonetic = 0;

  constructor(
    private readonly sheet: Sheet,
    private readonly limits: Pick<UploadLimits, 'maxRows' | 'maxColumns' | 'maxCellChars'>,
  ) {}

  open(name: string, attrs: string): void {
    switch (name) {
      case 'row':
        if (++this.rows > this.limits.maxRows)
          throw Errors.tooLarge(`the worksheet has more than ${this.limits.maxRows} rows (empty rows count)`);
        this.inRow = true;
        this.cells = [];
        this.col = -1;
        break;
      case 'c': {
        if (!this.inRow) break;
        const at = columnIndex(attr(attrs, 'r'));
        this.col = at >= 0 ? at : this.col + 1;
        if (this.col >= this.limits.maxColumns)
          throw Errors.tooLarge(`the worksheet has more than ${this.limits.maxColumns} columns`);
        this.type = attr(attrs, 't') ?? 'n';
        this.style = Number(attr(attrs, 's') ?? 0);
        this.value = '';
        break;
      }
      case 'v':
        this.capture = this.inRow;
        break;
      case 'is':
        this.inInline = true;
        break;
      case 'rPh':
        this.phonetic++;
        break;
      case 't':
        if (this.inInline && !this.phonetic) this.capture = true;
        break;
    }
  }

  close(name: string): void {
    switch (name) {
      case 'v':
      case 't':
        this.capture = false;
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'rPh':
        this.phonetic--;
        break;
      case 'c': {
        if (!this.inRow || this.col < 0) break;
        while (this.cells.length < this.col) this.cells.push('');
        this.cells[this.col] = this.cellText();
        break;
      }
      case 'row':
        this.inRow = false;
        if (this.cells.some((c) => c.trim() !== '')) this.ready.push({ line: ++this.line, cells: this.cells });
        this.cells = [];
        break;
      case 'sheetData':
        this.done = true;
        break;
    }
  }

  text(t: string): void {
    if (this.value.length + t.length > this.limits.maxCellChars)
      throw Errors.tooLarge(`a cell of the worksheet is longer than ${this.limits.maxCellChars} characters`);
    this.value += t;
  }

  wantText(): boolean {
    return this.capture;
  }

  /** The text of the cell just closed, by its type: a shared string, text, a boolean, a date or a number. */
  private cellText(): string {
    const { type, value } = this;
    if (type === 's') return this.sheet.shared[Number(value)] ?? '';
    if (type === 'inlineStr' || type === 'str') return value;
    if (type === 'b') return value.trim() === '1' ? 'TRUE' : 'FALSE';
    if (type === 'e') return '';
    if (type === 'd') return value.length >= 19 ? `${value.slice(0, 10)} ${value.slice(11, 19)}` : value;
    if (value.trim() === '') return '';
    const num = Number(value);
    if (!Number.isFinite(num)) return '';
    return this.sheet.dateStyles[this.style] ? serialDateText(num, this.sheet.date1904) : String(num);
  }
}
