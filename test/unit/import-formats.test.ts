import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readBill } from '../../src/modules/import/bill.parse.ts';
import type { PresetRef } from '../../src/modules/import/bill.formats.ts';
import { detectLayout, IMPORT_FORMATS, sourceOfHeader } from '../../src/modules/import/import.formats.ts';
import type { SeedRow } from '../../src/modules/import/import.rows.ts';
import { readLedgerFile, validateRecords } from '../../src/modules/import/ledger.read.ts';
import { BANK_HEADER } from '../fixtures/bills/generate.ts';

const WECHAT = [
  '交易时间',
  '交易类型',
  '交易对方',
  '商品',
  '收/支',
  '金额(元)',
  '支付方式',
  '当前状态',
  '交易单号',
  '商户单号',
  '备注',
];
const ALIPAY_APP = [
  '交易时间',
  '交易分类',
  '交易对方',
  '对方账号',
  '商品说明',
  '收/支',
  '金额',
  '收/付款方式',
  '交易状态',
  '交易订单号',
  '商家订单号',
  '备注',
];
const ALIPAY_WEB = [
  '交易号',
  '商家订单号',
  '交易创建时间',
  '付款时间',
  '交易对方',
  '商品名称',
  '金额（元）',
  '收/支',
  '交易状态',
];
const LEDGER = [
  'date',
  'kind',
  'amount',
  'category',
  'note',
  'tags',
  'group_id',
  'created_at',
  'account',
  'currency',
  'to_account',
  'to_amount',
  'rate',
];
const preset: PresetRef = {
  id: 7,
  header: BANK_HEADER,
  mapping: { date: BANK_HEADER[0]!, date_format: 'YYYY-MM-DD', amount: BANK_HEADER[2]!, sign: 'negative_is_expense' },
};

async function preview(text: string): Promise<SeedRow[]> {
  const rows: SeedRow[] = [];
  await readBill(Buffer.from(text), { presets: [], batchSize: 3, onRows: async (r) => void rows.push(...r) });
  return rows;
}

describe('import formats', () => {
  it("one table: WeChat Pay, Alipay, our own export, the apps' exports, then mapped bank files", () => {
    assert.deepEqual(
      IMPORT_FORMATS.map((f) => f.id),
      ['wechat', 'alipay', 'ledger', 'ezbookkeeping', 'mapped'],
    );
  });

  it('each table header is recognised by its own format, with the source its rows are recorded under', () => {
    const cases: [string[], string, string][] = [
      [WECHAT, 'wechat', 'wechat'],
      [ALIPAY_APP, 'alipay', 'alipay'],
      [ALIPAY_WEB, 'alipay', 'alipay'],
      [LEDGER, 'ledger', 'ledger'],
      [LEDGER.map((c) => c.toUpperCase()), 'ledger', 'ledger'],
      [BANK_HEADER, 'mapped', sourceOfHeader(BANK_HEADER)],
    ];
    for (const [header, id, source] of cases) {
      const found = detectLayout(header, [preset], null);
      assert.ok(found, header.join(','));
      assert.equal(found.format.id, id, header.join(','));
      assert.equal(found.headerless, false);
      assert.equal(found.format.source(found.layout), source);
    }
    // a bank's header without a mapping, and a line of text, are no format's
    assert.equal(detectLayout(BANK_HEADER, [], null), null);
    assert.equal(detectLayout(['本账单仅供参考'], [preset], null), null);
  });

  it('our own CSV reads the same in a preview as in POST /api/import, in the columns a preview keeps', async () => {
    const csv =
      'date,kind,amount,category,note,tags,group_id,created_at\n' +
      '2026-01-02,expense,12.50,Food,"lunch, with ""friends""",a|b,,2026-01-02T03:04:05Z\n' +
      ',,,,,,,\n' +
      "2026-01-03,income,3000,Salary,'=not a formula,,,\n" +
      '2026-01-04,expense,1,Food,,,,\n';
    const direct = validateRecords(await readLedgerFile(Buffer.from(csv)));
    assert.deepEqual(direct.errors, []);
    const seeds = await preview(csv);
    assert.deepEqual(
      seeds.map((s) => ({
        row: s.row,
        date: s.date,
        kind: s.kind,
        amountMinor: s.amountMinor,
        category: s.categoryName,
        note: s.note,
        tags: s.tags,
        createdAt: s.createdAt,
      })),
      direct.rows.map((r) => ({
        row: r.row,
        date: r.date,
        kind: r.kind,
        amountMinor: r.amountMinor,
        category: r.category,
        note: r.note,
        tags: r.tags,
        createdAt: r.createdAt,
      })),
    );
    assert.equal(seeds[1]!.note, '=not a formula');
  });

  it('a preview tolerates what a spreadsheet adds to our own CSV; POST /api/import refuses cells past the header', async () => {
    const csv = 'date,kind,amount,category\n2026-01-02,expense,1,Food,,\n';
    const direct = validateRecords(await readLedgerFile(Buffer.from(csv)));
    assert.deepEqual(direct.errors, [{ row: 1, message: 'has more cells than the header' }]);
    const seeds = await preview(csv);
    assert.equal(seeds.length, 1);
    assert.equal(seeds[0]!.amountMinor, 100);
  });
});
