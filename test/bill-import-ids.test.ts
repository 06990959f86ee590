import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { accounts } from '../src/db/schema/index.ts';
import { build, createUser, multipart, type TestApp } from './helpers/index.ts';
import { committed, decideBill } from './helpers/bill-decide.ts';

/*
 * A bill's rows that share an id, refunds with and without their purchase, duplicates forced in: preview, commit and
 * books agree, never a 500.
 */

interface Figures {
  total: number;
  import: number;
  skip: number;
  duplicate: number;
  transfer: number;
  expense: number;
  income: number;
}

describe('bills with shared ids, refunds and duplicates', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  const head = readFileSync(new URL('./fixtures/bills/wechat.csv', import.meta.url), 'utf8')
    .split('\n')
    .slice(0, 17)
    .join('\n');
  const bill = (lines: string[]) =>
    multipart(Buffer.from(`${head}\n${lines.join('\n')}\n`), { filename: 'wechat.csv', type: 'text/csv' });
  const lines = [
    '2024-03-18 19:42:10,商户消费,甲店,"午餐",支出,¥10.00,零钱,支付成功,X1\t,/\t,"/"',
    '2024-03-18 19:42:10,商户消费,甲店,"午餐",支出,¥10.00,零钱,支付成功,X1\t,/\t,"/"',
    '2024-03-18 20:00:00,商户消费,乙店,"晚餐",支出,¥20.00,零钱,支付成功,X1\t,/\t,"/"',
    '2024-03-18 08:00:00,商户消费,丙店,"早餐",支出,¥5.00,零钱,交易关闭,Y1\t,/\t,"/"',
    '2024-03-18 09:00:00,商户消费,丙店,"早餐",支出,¥5.00,零钱,支付成功,Y1\t,/\t,"/"',
    '2024-03-19 10:00:00,丁店-退款,丁店,"书",收入,¥3.00,零钱,已退款,R1\t,/\t,"/"',
    '2024-03-18 10:00:00,商户消费,丁店,"书",支出,¥8.00,零钱,支付成功,P1\t,/\t,"/"',
    '2024-03-19 11:00:00,戊店-退款,戊店,"杯子",收入,¥4.00,零钱,已退款,R2\t,/\t,"/"',
    '2024-03-12 07:00:00,零钱充值,招商银行(1234),"/",/,¥200.00,招商银行储蓄卡(1234),充值完成,X1\t,/\t,"/"',
  ];

  it('the same payment twice is a duplicate of the file; other payments under one id, a closed twin, a forced row and a mapped transfer all commit without a 500', async () => {
    const user = await createUser(t.db);
    const as = t.as(user);
    const res = await as.post('/api/import/bills', bill(lines));
    assert.equal(res.statusCode, 200, res.body);
    type R = {
      row: number;
      decision: string;
      reason: string | null;
      refund_of_row: number | null;
      category_id: number | null;
      kind: string;
    };
    const p = res.json<{ id: number; rows: R[]; summary: Figures }>();
    const row = (n: number) => p.rows.find((r) => r.row === n)!;
    assert.deepEqual(
      [row(1).decision, row(2).decision, row(2).reason, row(3).decision],
      ['import', 'duplicate', 'duplicate_in_file', 'import'],
    );
    assert.deepEqual(
      [row(4).reason, row(5).decision],
      ['closed', 'import'],
      'a closed trade does not make its successful twin a duplicate',
    );
    assert.equal(row(6).refund_of_row, 7);
    assert.deepEqual(
      [row(8).decision, row(8).reason, row(8).kind],
      ['import', 'refund_unpaired', 'income'],
      'a refund without its purchase is money back all the same: an income',
    );
    // linked refunds reduce the expenses: 10 + 20 + 5 + 8 - 3
    assert.equal(p.summary.expense, 40);
    assert.equal(p.summary.income, 4);

    // a refund follows its purchase into another category
    const cats = (await as.get('/api/categories')).json<
      { list: { id: number; kind: string }[] } | { id: number; kind: string }[]
    >();
    const list = Array.isArray(cats) ? cats : cats.list;
    const other = list.filter((c) => c.kind === 'expense').find((c) => c.id !== row(7).category_id)!;
    assert.equal(
      (await as.patch(`/api/import/bills/${p.id}/rows`, { rows: [{ row: 7, category_id: other.id }] })).statusCode,
      200,
    );
    const after = (await as.get(`/api/import/bills/${p.id}`)).json<{ rows: R[] }>().rows;
    assert.equal(after.find((r) => r.row === 6)!.category_id, other.id);

    // a duplicate is imported only when forced
    const refused = await as.patch(`/api/import/bills/${p.id}/rows`, { rows: [{ row: 2, decision: 'import' }] });
    assert.equal(refused.statusCode, 422, refused.body);
    const forced = await as.patch(`/api/import/bills/${p.id}/rows`, {
      rows: [{ row: 2, decision: 'import', force: true }],
    });
    assert.equal(forced.statusCode, 200, forced.body);
    assert.equal(forced.json<{ summary: Figures }>().summary.expense, 50);

    // the skipped move under an id already used becomes a transfer between two accounts
    const [a] = await t.db
      .insert(accounts)
      .values({
        userId: user.id,
        name: '招商银行储蓄卡(1234)',
        type: 'debit_card',
        currency: 'CNY',
        openingDate: '2024-01-01',
      })
      .returning();
    const [b] = await t.db
      .insert(accounts)
      .values({ userId: user.id, name: '微信零钱', type: 'e_wallet', currency: 'CNY', openingDate: '2024-01-01' })
      .returning();
    const moved = await as.patch(`/api/import/bills/${p.id}/rows`, {
      rows: [{ row: 9, account_id: a!.id, to_account_id: b!.id }],
    });
    assert.equal(moved.statusCode, 200, moved.body);
    await decideBill(as, p.id, b!.id);

    const commit = await as.post(`/api/import/bills/${p.id}/commit`);
    assert.equal(commit.statusCode, 200, commit.body);
    assert.deepEqual(committed(commit.json()), { imported: 8, skipped: 1, transfers: 1, refunds: 1 });
    const books = (await as.get('/api/transactions?startDate=1900-01-01&endDate=2999-12-31&pageSize=1')).json<{
      sums: { expense: number; income: number };
    }>().sums;
    assert.deepEqual([books.expense, books.income], [50, 4], 'preview, commit and books agree');

    // the same bill again books nothing
    const again = (await as.post('/api/import/bills', bill(lines))).json<{ id: number; summary: Figures }>();
    assert.equal(again.summary.import + again.summary.transfer, 0);
    const second = await as.post(`/api/import/bills/${again.id}/commit`);
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(second.json<{ imported: number }>().imported, 0);
  });
});
