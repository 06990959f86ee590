import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { Upload } from '../http.ts';

/** A multipart/form-data body with one file part (field `file`, name `import.csv`, type text/csv unless told). */
export function multipart(
  content: Buffer | string,
  opts: { field?: string; filename?: string; type?: string } = {},
): Upload {
  const boundary = `----ledger${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${opts.filename ?? 'import.csv'}"\r\n` +
    `Content-Type: ${opts.type ?? 'text/csv'}\r\n\r\n`;
  const payload = Buffer.concat([
    Buffer.from(head),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { multipart: true, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Parses an exported CSV body (BOM included) into its header and rows. */
export function readCsv(body: string | Buffer): { header: string[]; rows: string[][] } {
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
  assert.ok(text.startsWith('\ufeff'), 'CSV starts with a UTF-8 BOM');
  const [header, ...rows] = parse(text.slice(1)) as string[][];
  return { header: header!, rows };
}
