import assert from 'node:assert/strict';
export { assertError } from './assert.ts';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { query, type Executor } from '../../src/db/client.ts';


/** A multipart/form-data body with one file part (field `file` unless told). */
export function multipart(content: Buffer | string, opts: { field?: string; filename?: string; type?: string } = {}) {
  const boundary = `----ledger${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${opts.filename ?? 'import.csv'}"\r\n` +
    `Content-Type: ${opts.type ?? 'text/csv'}\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Parses an exported CSV body (BOM included) into its header and rows. */
export function readCsv(body: string | Buffer): { header: string[]; rows: string[][] } {
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
  assert.ok(text.startsWith('\ufeff'), 'CSV starts with a UTF-8 BOM');
  const [header, ...rows] = parse(text.slice(1)) as string[][];
  return { header: header!, rows };
}

/** `n` transactions for a user in one statement: dates cycle over `days` days from `from`, amounts 1.00, 2.00, ... */
export async function bulkTransactions(db: Executor, userId: number, categoryId: number, n: number, from = '2026-01-01', days = 3): Promise<void> {
  await query(
    db,
    sql`insert into transactions (user_id, kind, amount_cents, category_id, note, date)
        select ${userId}::int, 'expense', g * 100, ${categoryId}::int, 'bulk ' || g, ${from}::date + (g % ${days}::int)
        from generate_series(1, ${n}::int) g`,
  );
}

export async function countTransactions(db: Executor, userId: number): Promise<number> {
  const [row] = await query<{ n: number }>(db, sql`select count(*)::int as n from transactions where user_id = ${userId}`);
  return Number(row!.n);
}
