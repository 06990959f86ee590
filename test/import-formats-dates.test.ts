import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { transactions } from '../src/db/schema/index.ts';
import { build, type TestApp } from './helpers/index.ts';
import { decideBill } from './helpers/bill-decide.ts';
import { createAccount } from './helpers/factories/books.ts';
import { multipart } from './helpers/factories/files.ts';
import { createUser } from './helpers/factories/users.ts';
import { bookedOf } from './helpers/import-formats.ts';

/*
 * A QIF file whose every date reads both as month/day and as day/month asks which it is; the person
 * answers with date_order and the preview says which order it read. By hand from ambiguous.qif:
 * D03/04/2024 Market -19.90 (line 2) and D05/06/2024 Bus -5.00 (line 6): 24.90 spent, read day first
 * on 3 April and 5 June, month first on 4 March and 6 May. day-first.qif decides by itself (25/03).
 */

const file = (name: string) => readFileSync(new URL(`./fixtures/imports/${name}`, import.meta.url));
const upload = (name: string, body: Buffer) => multipart(body, { filename: name, type: 'application/octet-stream' });

/** The upload with a form field before its file part (the field the choice can come in). */
function withField(u: ReturnType<typeof multipart>, name: string, value: string) {
  const boundary = /boundary=(.+)$/.exec(u.headers['content-type'])![1]!;
  const part = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return { ...u, payload: Buffer.concat([Buffer.from(part), u.payload]) };
}

interface Preview {
  id: number;
  date_order: { order: string; chosen: boolean } | null;
  summary: { import: number };
}

describe('QIF date order', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  async function person() {
    const user = await createUser(t.db, { baseCurrency: 'CNY' });
    await createAccount(t.db, user.id, { name: 'Cash', currency: 'CNY' });
    return { user, as: t.as(user) };
  }
  const datesOf = async (userId: number) =>
    (await t.db.select({ date: transactions.date }).from(transactions).where(eq(transactions.userId, userId)))
      .map((r) => r.date)
      .sort();

  it('asks for the order, naming the lines whose dates read both ways', async () => {
    const { user, as } = await person();
    const res = await as.post('/api/import/bills', upload('ambiguous.qif', file('ambiguous.qif')));
    assert.equal(res.statusCode, 422, res.body);
    const e = res.json().errors[0];
    assert.equal(e.code, 'ambiguous_date_order');
    assert.deepEqual(e.params, { value: '03/04/2024', rows: '2, 6', count: '2', choices: 'mdy,dmy' });
    assert.equal((await bookedOf(t, user.id)).count, 0);
    const bad = await as.post('/api/import/bills?date_order=ymd', upload('ambiguous.qif', file('ambiguous.qif')));
    assert.equal(bad.statusCode, 400, bad.body);
  });

  for (const [order, dates] of [
    ['dmy', ['2024-04-03', '2024-06-05']],
    ['mdy', ['2024-03-04', '2024-05-06']],
  ] as const) {
    it(`reads it ${order} when told, books 24.90, and books nothing the second time`, async () => {
      const { user, as } = await person();
      const res = await as.post(
        `/api/import/bills?date_order=${order}`,
        upload('ambiguous.qif', file('ambiguous.qif')),
      );
      assert.equal(res.statusCode, 200, res.body);
      const p = res.json<Preview>();
      assert.deepEqual(p.date_order, { order, chosen: true });
      assert.equal(p.summary.import, 2);
      // the review reads the same answer page after page
      assert.deepEqual((await as.get(`/api/import/bills/${p.id}`)).json<Preview>().date_order, { order, chosen: true });
      await decideBill(as, p.id);
      assert.equal((await as.post(`/api/import/bills/${p.id}/commit`, {})).statusCode, 200);
      assert.deepEqual(await datesOf(user.id), [...dates]);
      const booked = await bookedOf(t, user.id);
      assert.deepEqual(booked.sums, { expense: 1990 + 500, income: 0, transfer: 0 });
      // the choice also comes as a field of the upload
      const body = withField(upload('ambiguous.qif', file('ambiguous.qif')), 'date_order', order);
      const again = (await as.post('/api/import/bills', body)).json<Preview>();
      assert.equal(again.summary.import, 0);
      assert.equal((await as.post(`/api/import/bills/${again.id}/commit`, {})).statusCode, 200);
      assert.deepEqual(await bookedOf(t, user.id), booked);
    });
  }

  it('decides by itself when a date can be read one way only', async () => {
    const user = await createUser(t.db, { baseCurrency: 'CNY' });
    await createAccount(t.db, user.id, { name: 'Bank', currency: 'CNY' });
    const p = (
      await t.as(user).post('/api/import/bills', upload('day-first.qif', file('day-first.qif')))
    ).json<Preview>();
    assert.deepEqual(p.date_order, { order: 'dmy', chosen: false });
  });
});
