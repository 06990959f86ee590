import assert from 'node:assert/strict';
import { eq, sql } from 'drizzle-orm';
import { transactions } from '../../src/db/schema/index.ts';
import type { TestApp } from './app.ts';
import { decideBill } from './bill-decide.ts';
import { createAccount } from './factories/books.ts';
import { multipart } from './factories/files.ts';
import { createUser } from './factories/users.ts';

/*
 * One file of a bank or an app through the whole import, for the format tests: previewed with the
 * person's accounts named as the file names them, committed, and uploaded again; the figures
 * expected are the test's own, added up by hand from the file.
 */

export interface FormatCase {
  name: string;
  /** the file's name and bytes */
  file: string;
  body: Buffer;
  format: string;
  /** accounts of the person, named so that the file's accounts find them (same name, or same last four digits) */
  accounts: { name: string; currency: string }[];
  /** rows proposed: to import, transfers, skipped */
  rows: { import: number; transfer: number; skip: number };
  /** booked, in minor units: the sum of each kind */
  booked: { expense: number; income: number; transfer: number };
}

interface Preview {
  id: number;
  format: string;
  summary: { total: number; import: number; duplicate: number; skip: number; transfer: number };
  rows: { row: number; decision: string; reason: string | null; account_id: number | null }[];
}

const upload = (name: string, body: Buffer) => multipart(body, { filename: name, type: 'application/octet-stream' });

/** The sums of a person's books by kind, and how many transactions they hold. */
export async function bookedOf(t: TestApp, userId: number) {
  const sums = await t.db
    .select({ kind: transactions.kind, total: sql<string>`sum(${transactions.amountMinor})`, n: sql<string>`count(*)` })
    .from(transactions)
    .where(eq(transactions.userId, userId))
    .groupBy(transactions.kind);
  const of = (k: string) => Number(sums.find((s) => s.kind === k)?.total ?? 0);
  return {
    sums: { expense: of('expense'), income: of('income'), transfer: of('transfer') },
    count: sums.reduce((a, s) => a + Number(s.n), 0),
  };
}

/**
 * Previews, commits and uploads again one file; checks the rows, the sums, and that the second upload books nothing.
 */
export async function importTwice(t: TestApp, c: FormatCase): Promise<void> {
  // the file's currency is the person's own: no exchange rate needed to book it
  const user = await createUser(t.db, { baseCurrency: c.accounts[0]!.currency });
  for (const a of c.accounts) await createAccount(t.db, user.id, a);
  const as = t.as(user);
  const res = await as.post('/api/import/bills', upload(c.file, c.body));
  assert.equal(res.statusCode, 200, res.body);
  const p = res.json<Preview>();
  assert.equal(p.format, c.format);
  assert.deepEqual(
    { import: p.summary.import, transfer: p.summary.transfer, skip: p.summary.skip },
    c.rows,
    JSON.stringify(p.rows),
  );
  assert.ok(
    p.rows.every((r) => r.decision === 'skip' || r.account_id !== null),
    'every row found its account',
  );
  // the rows no rule or merchant places are given a category, as the person would
  await decideBill(as, p.id);
  const done = await as.post(`/api/import/bills/${p.id}/commit`, {});
  assert.equal(done.statusCode, 200, done.body);
  const first = await bookedOf(t, user.id);
  assert.deepEqual(first.sums, c.booked);
  assert.equal(first.count, c.rows.import + c.rows.transfer);

  const again = (await as.post('/api/import/bills', upload(c.file, c.body))).json<Preview>();
  assert.equal(again.summary.import + again.summary.transfer, 0, JSON.stringify(again.rows));
  assert.equal((await as.post(`/api/import/bills/${again.id}/commit`, {})).statusCode, 200);
  assert.deepEqual(await bookedOf(t, user.id), first, 'the second upload booked nothing');
}

/** Sends a file that must be refused: 42203 naming the row and a reason's code, nothing booked. */
export async function refused(t: TestApp, name: string, body: Buffer, row: number, code: string): Promise<void> {
  const user = await createUser(t.db);
  const res = await t.as(user).post('/api/import/bills', upload(name, body));
  assert.equal(res.statusCode, 422, res.body);
  const answer = res.json<{ code: number; errors: { row: number; code?: string; message: string }[] }>();
  assert.equal(answer.code, 42203);
  assert.equal(answer.errors[0]!.code, code, res.body);
  assert.equal(answer.errors[0]!.row, row, res.body);
  assert.equal((await bookedOf(t, user.id)).count, 0);
}
