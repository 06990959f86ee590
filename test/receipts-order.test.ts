import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { transactions } from '../src/db/schema/index.ts';
import { createCategory } from './helpers/factories/books.ts';
import { decideBill } from './helpers/bill-decide.ts';
import {
  assertError,
  build,
  createUser,
  expectOk,
  multipart,
  type Client,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';
import type { Truth } from './fixtures/receipts/generate.ts';

/*
 * One fact, one row: a payment screenshot confirmed as an entry keeps its order id, so that the
 * WeChat Pay bill that later brings the same 交易单号 books nothing twice and only adds what the
 * screenshot lacked (the time, the counterparty); the same screenshot sent again is known.
 */
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'receipts');
const truths = JSON.parse(readFileSync(path.join(dir, 'truths.json'), 'utf8')) as Truth[];
const image = (file: string) =>
  multipart(readFileSync(path.join(dir, file)), { filename: file, type: 'application/octet-stream' });

/** A WeChat Pay bill as the app exports it (the fixture's header), with these rows. */
function wechatBill(rows: string[]) {
  const head = readFileSync(new URL('./fixtures/bills/wechat.csv', import.meta.url), 'utf8')
    .split('\n')
    .slice(0, 17)
    .join('\n');
  return multipart(Buffer.from(`${head}\n${rows.join('\n')}\n`), { filename: 'wechat.csv', type: 'text/csv' });
}

interface Preview {
  id: number;
  rows: { row: number; decision: string; reason: string | null; existing_id: number | null }[];
}

describe('a confirmed screenshot and the bill that brings its order id', () => {
  let t: TestApp;
  let user: UserRow;
  let as: Client;
  let food: number;
  let salary: number;

  before(async () => {
    t = await build({ receipts: { ocr: true, queue: 8, quotaBytes: 50 * 1024 * 1024 } });
    user = await createUser(t.db);
    as = t.as(user);
    food = (await createCategory(t.db, user.id, { name: '餐饮', kind: 'expense' })).id;
    salary = (await createCategory(t.db, user.id, { name: '工资', kind: 'income' })).id;
  });
  after(async () => t.close());

  const row = (id: number) => t.db.select().from(transactions).where(eq(transactions.id, id));

  it('keeps the order id, knows the screenshot again, and the bill completes the entry without booking it twice', async () => {
    const truth = truths.find((x) => x.file.startsWith('wechat_success-zh-light'))!;
    const { draft, already_recorded: first } = expectOk(await as.post('/api/receipts/recognize', image(truth.file)));
    assert.equal(first, null);
    assert.equal(draft.order_id, truth.order_id);
    assert.equal(draft.source, 'wechat');

    // confirmed without the counterparty (as if the screenshot had not shown it)
    const entry = expectOk(
      await as.post('/api/transactions', {
        kind: draft.kind,
        amount: draft.amount,
        date: draft.date,
        category_id: food,
        account_id: draft.account_id,
        source: draft.source,
        external_id: draft.order_id,
      }),
      201,
    );
    assert.equal(entry.amount, Number(truth.amount));
    expectOk(await as.post(`/api/transactions/${entry.id}/attachments`, image(truth.file)), 201);

    const again = expectOk(await as.post('/api/receipts/recognize', image(truth.file)));
    assert.deepEqual(again.already_recorded, { transaction_id: entry.id, by: 'same_file' });
    // a second screenshot of the same payment: known by its order id
    assertError(
      await as.post('/api/transactions', {
        kind: 'expense',
        amount: truth.amount,
        date: truth.date,
        category_id: food,
        source: 'wechat',
        external_id: truth.order_id,
      }),
      409,
      40901,
    );

    const [before] = await row(entry.id);
    const count = await t.db.$count(transactions);
    // the bill: the same payment under its 交易单号, and another one a day earlier at the same time of day
    const hms = truth.time;
    const earlier = new Date(Date.parse(`${truth.date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const bill = wechatBill([
      `${truth.date} ${hms},商户消费,${truth.counterparty},"奶茶",支出,¥${truth.amount},零钱,支付成功,${truth.order_id}\t,10024012700001\t,"/"`,
      `${earlier} ${hms},商户消费,云杉便利店,"面包",支出,¥12.50,零钱,支付成功,4200002024012600000000000002\t,10024012600002\t,"/"`,
    ]);
    const preview = expectOk(await as.post('/api/import/bills', bill)) as Preview;
    const mine = preview.rows.find((r) => r.row === 1)!;
    assert.deepEqual([mine.decision, mine.existing_id], ['duplicate', entry.id], JSON.stringify(mine));
    await decideBill(as, preview.id, draft.account_id);
    const result = expectOk(await as.post(`/api/import/bills/${preview.id}/commit`, {}));
    assert.deepEqual([result.imported, result.merged], [1, 1], JSON.stringify(result));
    assert.equal(await t.db.$count(transactions), count + 1, 'the screenshot entry is not booked a second time');

    const [after] = await row(entry.id);
    const [other] = await t.db
      .select()
      .from(transactions)
      .where(eq(transactions.externalId, '4200002024012600000000000002'));
    assert.equal(after!.amountMinor, before!.amountMinor);
    assert.equal(after!.source, 'wechat');
    assert.equal(after!.externalId, truth.order_id);
    assert.equal(after!.note, truth.counterparty, 'the counterparty the entry lacked');
    // the time of the payment, as the bill gives it: a day after the other row at the same time of day
    assert.equal(after!.createdAt.getTime() - other!.createdAt.getTime(), 86_400_000);
    const attachments = expectOk(await as.get(`/api/transactions/${entry.id}/attachments`));
    assert.equal(attachments.list.length, 1);

    // the same bill again: nothing booked, nothing changed
    const second = expectOk(await as.post('/api/import/bills', bill)) as Preview;
    assert.ok(second.rows.every((r) => r.decision === 'duplicate'));
    await decideBill(as, second.id, draft.account_id);
    const again2 = expectOk(await as.post(`/api/import/bills/${second.id}/commit`, {}));
    assert.deepEqual([again2.imported, again2.merged], [0, 0]);
    const [last] = await row(entry.id);
    assert.equal(last!.updatedAt.getTime(), after!.updatedAt.getTime());
  });

  it('takes the order id only whole, valid and on an expense or income of ones own', async () => {
    const base = { kind: 'expense', amount: '5.00', date: '2024-02-01', category_id: food };
    assertError(await as.post('/api/transactions', { ...base, source: 'wechat' }), 400, 40001);
    assertError(await as.post('/api/transactions', { ...base, external_id: '4200000000000001' }), 400, 40001);
    assertError(
      await as.post('/api/transactions', { ...base, source: 'bank', external_id: '4200000000000001' }),
      400,
      40001,
    );
    assertError(await as.post('/api/transactions', { ...base, source: 'alipay', external_id: 'x y' }), 400, 40001);
    assertError(
      await as.post('/api/transactions', { ...base, kind: 'transfer', source: 'alipay', external_id: '2024020122001' }),
      400,
      40001,
    );
    // without them, as before
    const plain = expectOk(await as.post('/api/transactions', base), 201);
    const [r] = await row(plain.id);
    assert.deepEqual([r!.source, r!.externalId], [null, null]);
    const kept = expectOk(
      await as.post('/api/transactions', {
        ...base,
        kind: 'income',
        category_id: salary,
        source: 'alipay',
        external_id: '2024020122001',
      }),
      201,
    );
    const [k] = await row(kept.id);
    assert.deepEqual([k!.source, k!.externalId], ['alipay', '2024020122001']);
  });
});
