import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { categoryOfClass, merchantClass } from '../../src/lib/merchant-lexicon.ts';
import type { BillLine } from '../../src/modules/import/bill.formats.ts';
import {
  meaningOf,
  pairRefunds,
  purchaseFor,
  type PurchaseRef,
  type RefundRef,
} from '../../src/modules/import/bill.meaning.ts';
import { parseBillDate } from '../../src/modules/import/bill.text.ts';

/*
 * What the importer decides by itself, and no more: the kind of spending of a known merchant, the
 * purchase a refund reduces (one rule for the bill and the books), the two ends of an Alipay move
 * into 余额宝, and a US bank's month-first dates.
 */

const purchase = (over: Partial<PurchaseRef>): PurchaseRef => ({
  row: 1,
  date: '2024-03-01',
  time: '10:00:00',
  amountMinor: 20000,
  counterparty: '小林',
  externalId: null,
  merchantId: null,
  skipped: false,
  refundMarked: false,
  ...over,
});
const refund = (over: Partial<RefundRef>): RefundRef => ({
  row: 9,
  date: '2024-03-02',
  time: '10:00:00',
  amountMinor: 20000,
  counterparty: '小林',
  externalId: null,
  merchantId: null,
  ...over,
});

describe('the merchant lexicon', () => {
  it('places well-known merchants, Chinese and English, the most specific name first', () => {
    const cases: [string[], string | null][] = [
      [['美团外卖', '黄焖鸡米饭'], 'food'],
      [['美团打车'], 'transport'],
      [['饿了么'], 'food'],
      [['瑞幸咖啡'], 'food'],
      [['滴滴出行'], 'transport'],
      [['中国铁路12306'], 'transport'],
      [['高德打车'], 'transport'],
      [['拼多多'], 'shopping'],
      [['京东商城平台商户'], 'shopping'],
      [['中国移动'], 'telecom'],
      [['Uber Eats'], 'food'],
      [['STARBUCKS COFFEE #123'], 'food'],
      [['KFC Oxford St'], 'food'],
      // short Latin names only as words of their own
      [['Skfcx Ltd'], null],
      [['12306123'], null],
      [['阿杰'], null],
      [['青禾小馆', '第6笔'], null],
      // the counterparty first, then the item
      [['某某', '晚餐'], 'food'],
    ];
    for (const [texts, key] of cases) assert.equal(merchantClass(...texts)?.key ?? null, key, texts.join(' '));
  });

  it("the person's category for a kind of spending: one named for it, else the default one of its icon", () => {
    const cats = [
      { id: 1, name: '餐饮', icon: 'food' },
      { id: 2, name: '水电煤', icon: 'utilities' },
      { id: 3, name: 'Transport', icon: 'transport' },
    ];
    assert.equal(categoryOfClass(merchantClass('中国移动')!, cats)?.id, 2, 'no 通讯 of their own: 水电煤');
    assert.equal(categoryOfClass(merchantClass('中国移动')!, [...cats, { id: 4, name: '通讯', icon: '' }])?.id, 4);
    assert.equal(categoryOfClass(merchantClass('滴滴出行')!, cats)?.id, 3);
    assert.equal(categoryOfClass(merchantClass('携程旅行')!, cats), null, 'no travel category: none');
  });
});

describe('one rule pairs a refund with its purchase', () => {
  it("a red packet's or transfer's refund names the original's merchant number as its own number", () => {
    const sent = purchase({
      row: 3,
      externalId: '1000039901',
      merchantId: '1000039901202403160001',
      refundMarked: true,
    });
    const back = refund({ counterparty: '微信红包', externalId: '1000039901202403160001' });
    assert.equal(pairRefunds([sent], [back]).get(9)?.row, 3);
    assert.equal(purchaseFor(back, [sent], () => 20000)?.row, 3);
    // a number names one purchase: not another of the counterparty, nor one with too little left
    assert.equal(
      purchaseFor(back, [sent], () => 100),
      undefined,
    );
  });

  it('by counterparty: made no later than the refund (its time on the same day), within a year, with enough left', () => {
    const later = purchase({ date: '2024-03-02', time: '11:00:00' });
    assert.equal(pairRefunds([later], [refund({})]).size, 0, 'bought after the refund');
    assert.equal(purchaseFor(refund({}), [{ ...later, time: '' }], () => 20000)?.row, 1, 'no time: the date');
    assert.equal(
      purchaseFor(refund({}), [purchase({ date: '2023-02-01' })], () => 20000),
      undefined,
      'a year ago',
    );
    const marked = purchase({ row: 2, date: '2024-02-01', refundMarked: true });
    const latest = purchase({ row: 4, date: '2024-03-01' });
    assert.equal(purchaseFor(refund({}), [latest, marked], () => 20000)?.row, 2, 'one marked as refunded first');
    assert.equal(purchaseFor(refund({}), [marked, latest], (p) => (p.row === 2 ? 0 : 20000))?.row, 4);
  });

  it('each purchase absorbs refunds up to its amount within a bill', () => {
    const p = purchase({ amountMinor: 10000 });
    const pairs = pairRefunds(
      [p],
      [
        refund({ row: 8, amountMinor: 6000 }),
        refund({ row: 9, amountMinor: 6000 }),
        refund({ row: 10, amountMinor: 4000 }),
      ],
    );
    assert.deepEqual([...pairs.keys()], [8, 10]);
  });
});

const alipayLine = (over: Partial<BillLine>): BillLine => ({
  row: 1,
  date: '2024-03-16',
  time: '10:00:00',
  currency: null,
  direction: 'neutral',
  amountMinor: 100000,
  counterparty: '余额宝',
  item: '',
  type: '投资理财',
  method: '余额宝',
  status: '交易成功',
  externalId: '20240316200014',
  merchantId: null,
  remark: '',
  refundedMinor: 0,
  ...over,
});

describe('Alipay moves into 余额宝', () => {
  it('that name 余额宝 as their method come from the Alipay balance', () => {
    for (const item of ['余额宝-自动转入', '转账收款到余额宝']) {
      const m = meaningOf(alipayLine({ item }), 'alipay_app');
      assert.deepEqual(
        [m.kind, m.decision, m.method, m.toMethod],
        ['transfer', 'transfer', '支付宝余额', '余额宝'],
        item,
      );
    }
    const card = meaningOf(alipayLine({ item: '余额宝-自动转入', method: '招商银行储蓄卡(1234)' }), 'alipay_app');
    assert.deepEqual([card.method, card.toMethod], ['招商银行储蓄卡(1234)', '余额宝']);
    const out = meaningOf(alipayLine({ item: '余额宝-转出到余额' }), 'alipay_app');
    assert.deepEqual([out.method, out.toMethod], ['余额宝', '支付宝余额']);
  });
});

describe('month-first dates', () => {
  it('MM-DD-YYYY reads a US bank’s 04-17-2024; the day-first format refuses it', () => {
    assert.equal(parseBillDate('04-17-2024', 'MM-DD-YYYY'), '2024-04-17');
    assert.equal(parseBillDate('4-7-2024 13:05', 'MM-DD-YYYY'), '2024-04-07');
    assert.equal(parseBillDate('2024-04-17', 'MM-DD-YYYY'), '2024-04-17');
    assert.equal(parseBillDate('17-04-2024', 'MM-DD-YYYY'), null);
    assert.equal(parseBillDate('04-17-2024', 'DD-MM-YYYY'), null);
  });
});
