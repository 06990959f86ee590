import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectDelimiter, readBill } from '../../src/modules/import/bill.parse.ts';
import type { SeedRow } from '../../src/modules/import/import.rows.ts';
import { creditCardKey, feeOf, meaningOf, pairRefunds, typeIcon } from '../../src/modules/import/bill.meaning.ts';
import { currencyCode, mappedDirection, type BillLine, type PresetRef } from '../../src/modules/import/bill.formats.ts';
import { parseBillAmount, parseBillDate, periodOf, timeOf, unwrapCell } from '../../src/modules/import/bill.text.ts';

async function read(text: string, presets: PresetRef[] = [], presetId?: number) {
  const rows: SeedRow[] = [];
  const out = await readBill(Buffer.from(text), { presets, presetId, onRows: async (r) => void rows.push(...r) });
  return { out, rows };
}

describe('bill cells as real exports write them', () => {
  it('a quoted cell followed by tabs loses its quotes', () => {
    assert.equal(unwrapCell('"-1,099.14"\t'), '-1,099.14');
    assert.equal(unwrapCell('"3985734"\t\t'), '3985734');
    assert.equal(unwrapCell('plain'), 'plain');
    assert.equal(parseBillAmount('"-1,099.14"\t'), -109914);
  });

  it('dates with two spaces before the time, DD/MM/YYYY, and MM/DD with the year of the statement', () => {
    assert.equal(parseBillDate('2025/12/03  14:06:51'), '2025-12-03');
    assert.equal(timeOf('2025/12/03  14:06:51'), '14:06:51');
    assert.equal(parseBillDate('09/04/2025', 'DD/MM/YYYY'), '2025-04-09');
    const period = periodOf('招商银行信用卡对账单（个人消费卡账户 2024年01月）');
    assert.deepEqual(period, { year: 2024, month: 1 });
    assert.equal(parseBillDate('12/29', 'MM/DD', period), '2023-12-29');
    assert.equal(parseBillDate('01/02', 'MM/DD', period), '2024-01-02');
    assert.equal(parseBillDate('12/29', 'MM/DD', null), null);
  });

  it('amounts with decimal commas, currency codes and signs', () => {
    assert.equal(parseBillAmount('-1.234,56', ','), -123456);
    assert.equal(parseBillAmount('CNY 123.18'), 12318);
    assert.equal(parseBillAmount('JPY 1000.00'), 100000);
    assert.equal(parseBillAmount('+10000.00'), 1000000);
  });

  it('the delimiter is found: comma, semicolon with decimal commas, tab', () => {
    assert.equal(detectDelimiter('a,b,c\n1,2,3\n'), ',');
    assert.equal(detectDelimiter('Datum;Text;Betrag\n01.02.2025;Miete;-1.234,56\n02.02.2025;Lohn;2.000,00\n'), ';');
    assert.equal(detectDelimiter('a\tb\tc\n1\t2\t3\n'), '\t');
    // ICBC pads its cells with tabs: still a comma file
    assert.equal(detectDelimiter('2023-05-05     \t,2023-05-05     \t,"消费     \t",x\t,y\t\n'), ',');
  });

  it('directions and currencies of mapped columns', () => {
    assert.equal(mappedDirection('借 Dr'), 'out');
    assert.equal(mappedDirection('贷 Cr'), 'in');
    assert.equal(mappedDirection('DEBIT'), 'out');
    assert.equal(mappedDirection('收'), 'in');
    assert.equal(mappedDirection('支出'), 'out');
    assert.equal(currencyCode('人民币'), 'CNY');
    assert.equal(currencyCode('USD'), 'USD');
  });
});

describe('bill files as real exports write them', () => {
  it("a European bank's ; CSV with decimal commas reads with its mapping", async () => {
    const header = ['Datum', 'Text', 'Betrag'];
    const presets: PresetRef[] = [
      {
        id: 1,
        header,
        mapping: {
          date: 'Datum',
          date_format: 'DD.MM.YYYY',
          amount: 'Betrag',
          sign: 'negative_is_expense',
          description: 'Text',
          decimal: ',',
        },
      },
    ];
    const { out, rows } = await read(
      'Datum;Text;Betrag\n01.02.2025;Miete;-1.234,56\n02.02.2025;Lohn;2.000,00\n',
      presets,
    );
    assert.equal(out.errorCount, 0);
    assert.deepEqual(
      rows.map((r) => [r.date, r.kind, r.amountMinor]),
      [
        ['2025-02-01', 'expense', 123456],
        ['2025-02-02', 'income', 200000],
      ],
    );
  });

  it('a total or disclaimer under the table is left out with a reason, not fatal', async () => {
    const header = ['交易日期', '摘要', '金额'];
    const presets: PresetRef[] = [
      {
        id: 1,
        header,
        mapping: {
          date: '交易日期',
          date_format: 'YYYY-MM-DD',
          amount: '金额',
          sign: 'negative_is_expense',
          description: '摘要',
        },
      },
    ];
    const { out, rows } = await read(
      '交易日期,摘要,金额\n2025-01-02,消费,-10.00\n合计,,-10.00\n以上数据仅供参考,,\n',
      presets,
    );
    assert.equal(out.errorCount, 0);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      out.ignored.map((i) => i.reason),
      ['not_transaction', 'not_transaction'],
    );
  });

  it('a wrong date is refused with a code and its parameters', async () => {
    const header = ['交易日期', '摘要', '金额'];
    const presets: PresetRef[] = [
      {
        id: 1,
        header,
        mapping: { date: '交易日期', date_format: 'YYYY-MM-DD', amount: '金额', sign: 'negative_is_expense' },
      },
    ];
    const { out } = await read('交易日期,摘要,金额\n02/01/2025,消费,-10.00\n', presets);
    assert.deepEqual(out.errors, [
      {
        row: 1,
        message: 'date "02/01/2025" is not a date in the format YYYY-MM-DD',
        code: 'bad_date',
        params: { value: '02/01/2025', format: 'YYYY-MM-DD' },
      },
    ]);
  });

  it('a file without a header row reads with a headerless mapping', async () => {
    const presets: PresetRef[] = [
      {
        id: 1,
        header: ['1', '2', '3', '4'],
        mapping: { date: '1', date_format: 'MM/DD/YYYY', debit: '3', credit: '4', description: '2', has_header: false },
      },
    ];
    const { rows } = await read('05/01/2023,SHOP,1.96,\n05/03/2023,PAY,,332.22\n', presets);
    assert.deepEqual(
      rows.map((r) => [r.date, r.kind, r.amountMinor]),
      [
        ['2023-05-01', 'expense', 196],
        ['2023-05-03', 'income', 33222],
      ],
    );
  });
});

const line = (over: Partial<BillLine>): BillLine => ({
  row: 1,
  date: '2024-01-01',
  time: '',
  currency: null,
  direction: 'neutral',
  amountMinor: 10010,
  counterparty: '',
  item: '',
  type: '',
  method: '',
  status: '支付成功',
  externalId: null,
  merchantId: null,
  remark: '',
  refundedMinor: 0,
  ...over,
});

describe('what WeChat and Alipay lines mean', () => {
  it('零钱提现 with a service fee is a transfer of the net plus a fee', () => {
    assert.equal(feeOf('服务费¥0.10'), 10);
    const m = meaningOf(line({ type: '零钱提现', method: '工商银行', remark: '服务费¥0.10' }), 'wechat');
    assert.deepEqual(
      [m.kind, m.amountMinor, m.feeMinor, m.method, m.toMethod],
      ['transfer', 10000, 10, '微信零钱', '工商银行'],
    );
  });

  it('a fund sold into 余额宝 moves money from the fund to 余额宝', () => {
    const m = meaningOf(
      line({
        type: '投资理财',
        item: '蚂蚁财富-交银定期支付双息平衡混合-卖出至余额宝',
        counterparty: '蚂蚁财富-蚂蚁（杭州）基金销售有限公司',
        method: '余额宝',
      }),
      'alipay_app',
    );
    assert.deepEqual([m.kind, m.method, m.toMethod], ['transfer', '蚂蚁财富', '余额宝']);
  });

  it('信用卡还款 names the card', () => {
    assert.equal(creditCardKey('建设银行信用卡还款'), '建设银行信用卡');
    const m = meaningOf(line({ type: '信用卡还款', counterparty: '建设银行信用卡还款', method: '零钱' }), 'wechat');
    assert.equal(m.toMethod, '建设银行信用卡');
  });

  it("Alipay's 交易分类 names a default category", () => {
    assert.equal(typeIcon('餐饮美食', 'expense'), 'food');
    assert.equal(typeIcon('交通出行', 'expense'), 'transport');
    assert.equal(typeIcon('转账红包', 'expense'), null);
  });

  it('a refund is not paired with a purchase made later the same day', () => {
    const p = (row: number, time: string) => ({
      row,
      date: '2024-03-14',
      time,
      amountMinor: 500,
      counterparty: '店',
      externalId: null,
      merchantId: null,
      skipped: false,
      refundMarked: false,
    });
    const pairs = pairRefunds(
      [p(1, '18:00:00'), p(2, '09:00:00')],
      [
        {
          row: 3,
          date: '2024-03-14',
          time: '12:00:00',
          amountMinor: 500,
          counterparty: '店',
          externalId: null,
          merchantId: null,
        },
      ],
    );
    assert.equal(pairs.get(3)?.row, 2);
  });
});
