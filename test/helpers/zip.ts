import { crc32, constants, createDeflateRaw, deflateRawSync } from 'node:zlib';

/*
 * A tiny zip writer for tests: entries in the order given (so a worksheet can come before its
 * shared strings, as openpyxl and pandas write them), stored or deflated, with sizes that may be
 * declared falsely. Large repetitive contents are deflated from a generator, never held whole.
 */

export interface ZipPart {
  name: string;
  /** the content, or (for large ones) pieces of it produced on demand */
  data: string | Buffer | (() => Iterable<string | Buffer>);
  store?: boolean;
  /** declare this uncompressed size instead of the real one */
  declaredSize?: number;
}

interface Packed {
  name: Buffer;
  body: Buffer;
  crc: number;
  size: number;
  method: number;
}

async function pack(p: ZipPart): Promise<Packed> {
  const name = Buffer.from(p.name, 'utf8');
  if (typeof p.data === 'function') {
    const z = createDeflateRaw({ level: 9, memLevel: 9 });
    const out: Buffer[] = [];
    z.on('data', (c: Buffer) => out.push(c));
    const done = new Promise((r) => z.on('end', r));
    let crc = 0;
    let size = 0;
    for (const piece of p.data()) {
      const b = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
      crc = crc32(b, crc);
      size += b.length;
      if (!z.write(b)) await new Promise((r) => z.once('drain', r));
    }
    z.end();
    await done;
    return { name, body: Buffer.concat(out), crc, size: p.declaredSize ?? size, method: 8 };
  }
  const raw = typeof p.data === 'string' ? Buffer.from(p.data, 'utf8') : p.data;
  const body = p.store ? raw : deflateRawSync(raw, { level: constants.Z_BEST_COMPRESSION });
  return { name, body, crc: crc32(raw), size: p.declaredSize ?? raw.length, method: p.store ? 0 : 8 };
}

/** Writes a zip of these parts, in this order. */
export async function zip(parts: ZipPart[]): Promise<Buffer> {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const p = await pack(part);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0800, 6); // UTF-8 names
    h.writeUInt16LE(p.method, 8);
    h.writeUInt32LE(0x21, 10); // 1980-01-01
    h.writeUInt32LE(p.crc >>> 0, 14);
    h.writeUInt32LE(p.body.length, 18);
    h.writeUInt32LE(p.size, 22);
    h.writeUInt16LE(p.name.length, 26);
    h.writeUInt16LE(0, 28);
    local.push(h, p.name, p.body);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x0800, 8);
    c.writeUInt16LE(p.method, 10);
    c.writeUInt32LE(0x21, 12);
    c.writeUInt32LE(p.crc >>> 0, 16);
    c.writeUInt32LE(p.body.length, 20);
    c.writeUInt32LE(p.size, 24);
    c.writeUInt16LE(p.name.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, p.name);
    offset += 30 + p.name.length + p.body.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, cd, end]);
}

/** `count` copies of `unit` in pieces of about 1 MiB, for contents of hundreds of megabytes. */
export function repeated(unit: string, count: number): () => Iterable<string> {
  return function* () {
    const per = Math.max(1, Math.floor((1 << 20) / unit.length));
    const piece = unit.repeat(per);
    let left = count;
    while (left > 0) {
      const n = Math.min(per, left);
      yield n === per ? piece : unit.repeat(n);
      left -= n;
    }
  };
}

// ---- workbooks ----

const CT = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WB_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;

export const SHEET_OPEN = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
export const SHEET_CLOSE = `</sheetData></worksheet>`;
export const SST_OPEN = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The sheet XML of these rows, every cell a shared string (index into `strings`, which it fills). */
export function sheetOf(rows: string[][], strings: string[]): string {
  const body = rows
    .map(
      (r, i) =>
        `<row r="${i + 1}">${r
          .map((c, j) => {
            let k = strings.indexOf(c);
            if (k < 0) k = strings.push(c) - 1;
            return `<c r="${String.fromCharCode(65 + j)}${i + 1}" t="s"><v>${k}</v></c>`;
          })
          .join('')}</row>`,
    )
    .join('');
  return SHEET_OPEN + body + SHEET_CLOSE;
}

export function sstOf(strings: string[]): string {
  return `${SST_OPEN}${strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`;
}

/**
 * A workbook as openpyxl and pandas write it: the worksheet BEFORE the shared strings and the
 * workbook's relationships in the zip (exceljs's streaming reader spools such a sheet to a
 * temporary file). `sheet` and `sst` replace the parts (strings or generators of pieces).
 */
export async function workbook(
  opts: {
    rows?: string[][];
    sheet?: ZipPart['data'];
    sst?: ZipPart['data'];
    extra?: ZipPart[];
    sheetSize?: number;
    sstSize?: number;
  } = {},
): Promise<Buffer> {
  const strings: string[] = [];
  const sheet = opts.sheet ?? sheetOf(opts.rows ?? [], strings);
  const sst = opts.sst ?? sstOf(strings);
  return zip([
    { name: '[Content_Types].xml', data: CT },
    { name: '_rels/.rels', data: ROOT_RELS },
    { name: 'xl/workbook.xml', data: WORKBOOK },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize: opts.sheetSize },
    { name: 'xl/sharedStrings.xml', data: sst, declaredSize: opts.sstSize },
    { name: 'xl/_rels/workbook.xml.rels', data: WB_RELS },
    ...(opts.extra ?? []),
  ]);
}
