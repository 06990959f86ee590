import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { accounts } from '../src/db/schema/index.ts';
import { build, createUser, multipart, type Client, type TestApp, type UserRow } from './helpers/index.ts';
import { decideBill } from './helpers/bill-decide.ts';

/*
 * The defects real exports showed, each on a bill of its shape: red-packet and transfer refunds
 * netting their fully refunded original to zero, a refund of a purchase nowhere booked as income, an
 * Alipay bill uploaded again booking nothing, Alipay moves into 余额宝 booked once 余额宝 has an
 * account, and a US bank's month-first dates through a column mapping.
 */

interface Row {
  row: number;
  kind: string;
  decision: string;
  reason: string | null;
  refund: boolean;
  refund_of_row: number | null;
  account_id: number | null;
  to_account_id: number | null;
  date: string;
}
interface Preview {
  id: number;
  rows: Row[];
  summary: { import: number; transfer: number; expense: number; income: number };
}

const fixture = (name: string) => readFileSync(new URL(`./fixtures/bills/${name}`, import.meta.url));
const WECHAT_HEAD = fixture('wechat.csv').toString('utf8').split('\n').slice(0, 17).join('\n');
const ALIPAY_HEAD = iconv.decode(fixture('alipay.csv'), 'gb18030').split('\n').slice(0, 24).join('\n');
/** the bill's own header lines, then these lines, with the header's line ends */
const file = (head: string, lines: string[], name: string) => {
  const eol = head.endsWith('\r') ? '\r\n' : '\n';
  const text = `${head.replace(/\r$/, '')}${eol}${lines.join(eol)}${eol}`;
  return multipart(Buffer.from(text), { filename: name, type: 'text/csv' });
};

describe('bills of the shapes real exports showed', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  async function fresh(): Promise<{ user: UserRow; as: Client }> {
    const user = await createUser(t.db);
    return { user, as: t.as(user) };
  }
  async function account(userId: number, name: string) {
    const [a] = await t.db
      .insert(accounts)
      .values({ userId, name, type: 'e_wallet', currency: 'CNY', openingDate: '2024-01-01' })
      .returning();
    return a!.id;
  }
  async function preview(as: Client, body: ReturnType<typeof file>): Promise<Preview> {
    const res = await as.post('/api/import/bills', body);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Preview>();
  }
  async function books(as: Client) {
    const res = await as.get('/api/transactions?startDate=1900-01-01&endDate=2999-12-31&pageSize=1');
    return res.json<{ sums: { expense: number; income: number } }>().sums;
  }

  it('WeChat red-packet and transfer refunds net their fully refunded original to zero; a refund of a purchase nowhere is an income', async () => {
    const { as } = await fresh();
    const lines = [
      // the refund's 交易单号 is the original's 商户单号
      '2024-03-16 ' +
        '09:00:00,微信红包,发给小林,"/",支出,¥200.00,零钱,已全额退款,10000399012024031600000000003\t,1000039901202403160000000000301\t,"/"',
      '2024-03-17 09:00:05,微信红包-退款,微信红包,"/",收入,¥200.00,零钱,已存入零钱,1000039901202403160000000000301\t,/\t,"/"',
      '2024-03-18 ' +
        '10:00:00,转账,房东陈先生,"/",支出,¥103.00,零钱,已全额退款,1000050001202403180000000005\t,1000050001202403180000000000501\t,"转账备注:押金"',
      '2024-03-19 10:00:00,转账-退款,房东陈先生,"/",收入,¥103.00,零钱,已存入零钱,1000050001202403180000000000501\t,/\t,"/"',
      '2024-03-20 12:00:00,美团平台商户-退款,美团平台商户,"/",收入,¥69.00,零钱,已退款,50300000022024032000000000009\t,10024032000009\t,"/"',
      '2024-03-20 08:00:00,商户消费,晨光咖啡,"拿铁",支出,¥28.00,零钱,支付成功,4200002024032000000000000010\t,10024032000010\t,"/"',
    ];
    const p = await preview(as, file(WECHAT_HEAD, lines, 'wechat.csv'));
    const row = (n: number) => p.rows.find((r) => r.row === n)!;
    assert.deepEqual([row(2).refund, row(2).refund_of_row, row(2).decision], [true, 1, 'import']);
    assert.deepEqual([row(4).refund, row(4).refund_of_row, row(4).decision], [true, 3, 'import']);
    assert.deepEqual([row(5).kind, row(5).decision, row(5).reason], ['income', 'import', 'refund_unpaired']);
    // 200 - 200 + 103 - 103 + 28
    assert.deepEqual([p.summary.expense, p.summary.income], [28, 69]);
    await decideBill(as, p.id, await account((await as.get('/api/me')).json<{ id: number }>().id, '微信零钱'));
    const commit = await as.post(`/api/import/bills/${p.id}/commit`);
    assert.equal(commit.statusCode, 200, commit.body);
    assert.deepEqual(await books(as), { ...(await books(as)), expense: 28, income: 69 }, 'the books agree');
    const again = await preview(as, file(WECHAT_HEAD, lines, 'wechat.csv'));
    assert.equal(again.summary.import + again.summary.transfer, 0, 'a second upload books nothing');
  });

  it('an Alipay bill uploaded again books nothing, a refund that came before its purchase included', async () => {
    const { user, as } = await fresh();
    const lines = [
      // refunded at 09:00, bought at 15:00 the same day: not this purchase's refund, in the bill or the books
      '2024-03-18 ' +
        '09:00:00,退款,星河影城,xin***@example.com,退款-电影票,不计收支,45.00,花呗,退款成功,2024031722001400000000000099_1710723600000\t,T20240317000099\t,,',
      '2024-03-18 ' +
        '15:00:00,文化休闲,星河影城,xin***@example.com,电影票2张,支出,90.00,花呗,交易成功,2024031822001400000000000011\t,T20240318000011\t,,',
    ];
    const p = await preview(as, file(ALIPAY_HEAD, lines, 'alipay.csv'));
    assert.deepEqual(
      p.rows.map((r) => [r.row, r.kind, r.decision, r.refund_of_row]),
      [
        [1, 'income', 'import', null],
        [2, 'expense', 'import', null],
      ],
    );
    await decideBill(as, p.id, await account(user.id, '花呗'));
    assert.equal((await as.post(`/api/import/bills/${p.id}/commit`)).statusCode, 200);
    const again = await preview(as, file(ALIPAY_HEAD, lines, 'alipay.csv'));
    assert.deepEqual(
      again.rows.map((r) => r.decision),
      ['duplicate', 'duplicate'],
      'the purchase in the books does not take the refund the bill did not give it',
    );
    const c = await as.post(`/api/import/bills/${again.id}/commit`);
    assert.equal(c.json<{ imported: number }>().imported, 0);
  });

  it('Alipay moves into 余额宝 naming 余额宝 as their method: from the balance, booked once 余额宝 has an account', async () => {
    const { user, as } = await fresh();
    const lines = [
      '2024-03-16 10:00:00,投资理财,余额宝,/,余额宝-自动转入,不计收支,1000.00,余额宝,交易成功,2024031620001400000000000031\t,\t,,',
      '2024-03-17 10:00:00,转账红包,余额宝,/,转账收款到余额宝,不计收支,50.00,余额宝,交易成功,2024031720001400000000000032\t,\t,,',
    ];
    const skipped = await preview(as, file(ALIPAY_HEAD, lines, 'alipay.csv'));
    assert.deepEqual(
      skipped.rows.map((r) => [r.decision, r.reason]),
      [
        ['skip', 'no_account'],
        ['skip', 'no_account'],
      ],
    );
    const balance = await account(user.id, '支付宝余额');
    const fund = await account(user.id, '余额宝');
    const p = await preview(as, file(ALIPAY_HEAD, lines, 'alipay.csv'));
    assert.deepEqual(
      p.rows.map((r) => [r.decision, r.account_id, r.to_account_id]),
      [
        ['transfer', balance, fund],
        ['transfer', balance, fund],
      ],
    );
    const c = await as.post(`/api/import/bills/${p.id}/commit`);
    assert.equal(c.statusCode, 200, c.body);
    assert.equal(c.json<{ transfers: number }>().transfers, 2);
  });

  it("a column mapping says MM-DD-YYYY: a US bank's 04-17-2024", async () => {
    const { user, as } = await fresh();
    const bank = await account(user.id, 'Chase checking');
    const header = ['Posting Date', 'Description', 'Amount'];
    const preset = await as.post('/api/import/presets', {
      name: 'Chase',
      header,
      mapping: {
        date: 'Posting Date',
        date_format: 'MM-DD-YYYY',
        amount: 'Amount',
        sign: 'negative_is_expense',
        description: 'Description',
      },
      account_id: bank,
    });
    assert.equal(preset.statusCode, 201, preset.body);
    const csv = `${header.join(',')}\n04-17-2024,STARBUCKS 123,-4.50\n12-01-2024,PAYROLL,1200.00\n`;
    const p = await preview(as, multipart(Buffer.from(csv), { filename: 'chase.csv', type: 'text/csv' }));
    assert.deepEqual(
      p.rows.map((r) => [r.date, r.kind]),
      [
        ['2024-04-17', 'expense'],
        ['2024-12-01', 'income'],
      ],
    );
  });
});
