import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readLayout, type TextLine } from '../../src/modules/receipts/receipts.layouts.ts';

/**
 * Lines as the OCR gives them: one entry per box, `[text, x, y, height]` on a 390-wide screen.
 * The expected fields are read off the screen by eye, not from the readers.
 */
type Spec = [string, number, number, number?];
const lines = (specs: Spec[]): TextLine[] =>
  specs.map(([text, x, y, h = 20]) => ({ text, confidence: 0.98, box: { x, y, width: text.length * 14, height: h } }));

const cases: { name: string; lines: Spec[]; want: Record<string, string | null> }[] = [
  {
    name: 'WeChat Pay success, full-width OCR marks',
    lines: [
      ['支付成功', 150, 60],
      ['瑞幸咖啡（国贸店）', 120, 120],
      ['￥28.50', 130, 150, 48],
      ['支付时间', 20, 260],
      ['2024年3月15日12：34：56', 200, 261],
      ['支付方式', 20, 300],
      ['零钱', 330, 300],
      ['交易单号', 20, 340],
      ['4200002145202403151234567890', 150, 341],
    ],
    want: {
      amount: '28.50',
      currency: 'CNY',
      date: '2024-03-15',
      time: '12:34:56',
      counterparty: '瑞幸咖啡(国贸店)',
      payment_method: '零钱',
      order_id: '4200002145202403151234567890',
      kind: 'expense',
    },
  },
  {
    name: 'Alipay bill detail, negative amount, payee above it',
    lines: [
      ['账单详情', 150, 40],
      ['全家便利店', 140, 110],
      ['-15.80', 140, 150, 50],
      ['交易成功', 160, 210],
      ['支付时间', 20, 280],
      ['2024-07-01 08:05:09', 200, 281],
      ['付款方式', 20, 320],
      ['花呗', 330, 320],
      ['订单号', 20, 360],
      ['2024070122001412345678901234', 150, 361],
    ],
    want: {
      amount: '15.80',
      date: '2024-07-01',
      time: '08:05:09',
      counterparty: '全家便利店',
      payment_method: '花呗',
      order_id: '2024070122001412345678901234',
      kind: 'expense',
    },
  },
  {
    name: 'supermarket receipt: 应收 is paid, 实收 and 找零 are not',
    lines: [
      ['永辉超市(望京店)', 100, 20],
      ['2024-05-02 19:20', 20, 60],
      ['牛奶 2 x 6.50 13.00', 20, 100],
      ['面包 1 x 8.90 8.90', 20, 130],
      ['合计: 21.90', 20, 170],
      ['应收: 20.90', 20, 200],
      ['实收: 50.00', 20, 230],
      ['找零: 29.10', 20, 260],
    ],
    want: { amount: '20.90', date: '2024-05-02', time: '19:20:00', counterparty: '永辉超市(望京店)' },
  },
  {
    name: 'English receipt in pounds, day-first date, Subtotal and Tip before the Total',
    lines: [
      ['The Corner Cafe', 100, 20],
      ['05/04/2024 13:45', 20, 60],
      ['Flat White', 20, 100],
      ['£3.20', 300, 100],
      ['Subtotal', 20, 140],
      ['£3.20', 300, 140],
      ['Tip', 20, 170],
      ['£0.50', 300, 170],
      ['TOTAL', 20, 200],
      ['£3.70', 300, 200],
      ['Paid by Visa ****1234', 20, 240],
    ],
    want: { amount: '3.70', currency: 'GBP', date: '2024-04-05', time: '13:45:00', counterparty: 'The Corner Cafe' },
  },
  {
    name: 'US receipt: month first',
    lines: [
      ['Joe\u2019s Diner', 100, 20],
      ['04/05/2024 7:15 PM', 20, 60],
      ['Total $18.25', 20, 200],
    ],
    want: { amount: '18.25', currency: 'USD', date: '2024-04-05', time: '19:15:00' },
  },
  {
    name: 'VAT e-invoice: 价税合计 and the seller, not the buyer',
    lines: [
      ['电子发票(普通发票)', 100, 20],
      ['开票日期: 2024年06月18日', 200, 50],
      ['购买方 名称: 个人', 20, 100],
      ['销售方 名称: 北京某某餐饮管理有限公司', 20, 300],
      ['价税合计(大写) 壹佰壹拾叁圆整 (小写)¥113.00', 20, 260],
    ],
    want: { amount: '113.00', date: '2024-06-18', counterparty: '北京某某餐饮管理有限公司' },
  },
  {
    name: 'income: a transfer received',
    lines: [
      ['收款成功', 150, 40],
      ['+200.00', 140, 100, 48],
    ],
    want: { amount: '200.00', kind: 'income' },
  },
];

describe('receipt layout readers', () => {
  for (const c of cases) {
    it(c.name, () => {
      const read = readLayout(lines(c.lines));
      const got = Object.fromEntries(Object.keys(c.want).map((k) => [k, read[k as 'amount'].value]));
      assert.deepEqual(got, c.want);
    });
  }

  it('a page of prose gives no amount rather than a guess', () => {
    const read = readLayout(lines([['Hello world, nothing to pay here', 10, 10]]));
    assert.equal(read.amount.value, null);
    assert.equal(read.amount.confidence, 0);
  });
});
