import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { AppError } from '../../src/lib/errors.ts';
import { readBill } from '../../src/modules/import/bill.parse.ts';
import { sourceOfHeader } from '../../src/modules/import/import.formats.ts';
import type { BillOutcome, SeedRow } from '../../src/modules/import/import.rows.ts';
import { cardTail, methodKey, pairRefunds, refundOriginIds } from '../../src/modules/import/bill.meaning.ts';
import { cleanId, cleanText, parseBillAmount, parseBillDate } from '../../src/modules/import/bill.text.ts';
import type { PresetRef } from '../../src/modules/import/bill.formats.ts';
import { BANK_HEADER, CARD_HEADER } from '../fixtures/bills/generate.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/bills/${name}`, import.meta.url));

async function read(
  buf: Uint8Array,
  presets: PresetRef[] = [],
  presetId?: number,
): Promise<{ out: BillOutcome; rows: SeedRow[] }> {
  const rows: SeedRow[] = [];
  const out = await readBill(buf, { presets, presetId, batchSize: 4, onRows: async (r) => void rows.push(...r) });
  return { out, rows };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err;
  }
  assert.fail('expected a refusal');
}

const byRow = (rows: SeedRow[], n: number) => rows.find((r) => r.row === n)!;

describe('bill text', () => {
  it('reads amounts with currency signs, separators and signs', () => {
    const table: [string, number | null][] = [
      ['¥25.00', 2500],
      ['￥1,234.5', 123450],
      ['-12.00', -1200],
      ['+3.10', 310],
      ['(12.00)', -1200],
      ['25元', 2500],
      ['-¥8.88', -888],
      [' 0.52 ', 52],
      ['12.500', 1250],
      ['12.345', null],
      ['1e3', null],
      ['', null],
      ['abc', null],
      ['1234567890123', null],
    ];
    for (const [raw, amountMinor] of table) assert.equal(parseBillAmount(raw), amountMinor, raw);
  });

  it('reads any cent amount written with two decimals, a sign and a ¥', () => {
    fc.assert(
      fc.property(fc.integer({ min: -99_999_999_99, max: 99_999_999_99 }), (amountMinor) => {
        const abs = Math.abs(amountMinor);
        const text = `${amountMinor < 0 ? '-' : ''}¥${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
        assert.equal(parseBillAmount(text), amountMinor);
      }),
    );
  });

  it('reads dates in each format, with times after them, and refuses impossible ones', () => {
    assert.equal(parseBillDate('2024-03-18 19:42:10'), '2024-03-18');
    assert.equal(parseBillDate('2024/3/8'), '2024-03-08');
    assert.equal(parseBillDate('2024年3月8日'), '2024-03-08');
    assert.equal(parseBillDate('20240308', 'YYYYMMDD'), '2024-03-08');
    assert.equal(parseBillDate('08/03/2024', 'DD/MM/YYYY'), '2024-03-08');
    assert.equal(parseBillDate('03/08/2024', 'MM/DD/YYYY'), '2024-03-08');
    assert.equal(parseBillDate('45359', 'YYYY-MM-DD'), '2024-03-08');
    assert.equal(parseBillDate('2024-02-30'), null);
    assert.equal(parseBillDate('2023-02-29'), null);
    assert.equal(parseBillDate('2024-02-29'), '2024-02-29');
    assert.equal(parseBillDate('yesterday'), null);
  });

  it('neutralizes formulas and control characters in every text', () => {
    assert.equal(cleanText('=HYPERLINK("http://x","y")'), 'HYPERLINK("http://x","y")');
    assert.equal(cleanText('+1 充值'), '1 充值');
    assert.equal(cleanText('-电费'), '电费');
    assert.equal(cleanText('@零食'), '零食');
    assert.equal(cleanText('\t=cmd'), 'cmd');
    assert.equal(cleanText('/'), '');
    assert.equal(cleanText('a\u0000b'), 'a b');
    assert.equal(cleanText('x'.repeat(300)).length, 200);
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = cleanText(s);
        assert.ok(!/^[=+\-@\t\r]/.test(out), JSON.stringify(out));
        assert.ok(!out.includes('\u0000'));
      }),
    );
  });

  it('strips the tabs bills append to ids', () => {
    assert.equal(cleanId('4200002024031800000000000001\t'), '4200002024031800000000000001');
    assert.equal(cleanId('/'), null);
    assert.equal(cleanId(' '), null);
  });

  it('names payment methods as account keys', () => {
    assert.equal(methodKey('零钱', 'wechat'), '微信零钱');
    assert.equal(methodKey('/', 'wechat'), '微信零钱');
    assert.equal(methodKey('余额', 'alipay_app'), '支付宝余额');
    assert.equal(methodKey('花呗&红包', 'alipay_app'), '花呗');
    assert.equal(methodKey('招商银行储蓄卡（1234）', 'alipay_app'), '招商银行储蓄卡(1234)');
    assert.equal(cardTail('招商银行储蓄卡(1234)'), '1234');
    assert.equal(cardTail('花呗'), null);
  });
});

describe('WeChat Pay bills', () => {
  for (const file of ['wechat.csv', 'wechat.xlsx']) {
    it(`${file}: finds the table under the header block and gives each line its meaning`, async () => {
      const { out, rows } = await read(fixture(file));
      assert.equal(out.detected.format, 'wechat');
      assert.equal(out.detected.source, 'wechat');
      assert.equal(out.detected.container, file.endsWith('xlsx') ? 'xlsx' : 'csv');
      assert.deepEqual(out.errors, []);
      assert.equal(rows.length, 15);
      const first = byRow(rows, 1);
      assert.deepEqual(
        {
          date: first.date,
          kind: first.kind,
          amountMinor: first.amountMinor,
          note: first.note,
          id: first.externalId,
          method: first.method,
        },
        {
          date: '2024-03-18',
          kind: 'expense',
          amountMinor: 5800,
          note: '青禾小馆 晚餐套餐',
          id: '4200002024031800000000000001',
          method: '招商银行储蓄卡(1234)',
        },
      );
      // quoted cell with a comma, and a ¥ sign
      assert.equal(byRow(rows, 2).note, '云杉便利店 矿泉水, 面包');
      assert.equal(byRow(rows, 2).amountMinor, 1250);
      // income lands in 零钱
      assert.equal(byRow(rows, 4).kind, 'income');
      assert.equal(byRow(rows, 4).method, '微信零钱');
      // a refund, paired with its purchase by merchant order number
      assert.equal(byRow(rows, 6).refund, true);
      assert.equal(out.refundLinks.get(6), 7);
      // failed payment: skipped
      assert.equal(byRow(rows, 8).decision, 'skip');
      assert.equal(byRow(rows, 8).reason, 'closed');
      // neutral lines are moves between own accounts
      const moves = rows.filter((r) => r.kind === 'transfer').map((r) => [r.row, r.method, r.toMethod]);
      assert.deepEqual(moves, [
        [9, '招商银行储蓄卡(1234)', '微信零钱'],
        [10, '微信零钱', '招商银行储蓄卡(1234)'],
        [11, '微信零钱', '微信零钱通'],
        [12, '招商银行储蓄卡(1234)', '招商银行信用卡'],
      ]);
      // formula injection neutralized
      assert.equal(byRow(rows, 13).counterparty, 'HYPERLINK("http://example.invalid","小卖部")');
      assert.equal(byRow(rows, 13).note, 'HYPERLINK("http://example.invalid","小卖部") 零食');
      assert.equal(byRow(rows, 15).method, '微信零钱通');
    });
  }

  it('reports a malformed line with its row number and reason', async () => {
    const text = readFileSync(new URL('../fixtures/bills/wechat.csv', import.meta.url), 'utf8')
      .replace('¥12.50', '¥12.5x')
      .replace('2024-03-16 09:00:00', '2024-13-16 09:00:00');
    const { out } = await read(Buffer.from(text));
    assert.deepEqual(out.errors, [
      {
        row: 2,
        message: 'amount "¥12.5x" is not an amount with at most 2 decimals',
        code: 'bad_amount',
        params: { column: '金额', value: '¥12.5x' },
      },
      {
        row: 3,
        message: 'date "2024-13-16 09:00:00" is not a date',
        code: 'bad_date',
        params: { value: '2024-13-16 09:00:00', format: 'YYYY-MM-DD' },
      },
    ]);
    assert.equal(out.errorCount, 2);
  });
});

describe('Alipay bills', () => {
  it('the app export: GB18030, 不计收支 as moves, refunds paired by trade number, closed trades skipped', async () => {
    const { out, rows } = await read(fixture('alipay.csv'));
    assert.equal(out.detected.format, 'alipay');
    assert.equal(out.detected.encoding, 'gb18030');
    assert.equal(rows.length, 12);
    assert.equal(byRow(rows, 1).note, '橙子果园 水果拼盘');
    assert.equal(byRow(rows, 1).method, '花呗');
    assert.deepEqual(
      [byRow(rows, 3).kind, byRow(rows, 3).method, byRow(rows, 3).toMethod],
      ['transfer', '招商银行储蓄卡(1234)', '余额宝'],
    );
    assert.deepEqual(
      [byRow(rows, 4).kind, byRow(rows, 4).method, byRow(rows, 4).amountMinor],
      ['income', '余额宝', 52],
    );
    assert.deepEqual([byRow(rows, 5).kind, byRow(rows, 5).toMethod], ['transfer', '花呗']);
    assert.equal(out.refundLinks.get(6), 7);
    assert.deepEqual([byRow(rows, 8).decision, byRow(rows, 8).reason], ['skip', 'closed']);
    assert.equal(byRow(rows, 9).method, '支付宝余额');
    // a refund whose purchase is in an earlier bill
    assert.deepEqual(
      out.unpairedRefunds.map((r) => r.row),
      [11],
    );
    assert.equal(byRow(rows, 12).counterparty, '国网电力');
    assert.equal(byRow(rows, 12).note, '国网电力 电费');
  });

  it('the older web export: padded cells, a footer, refunds inside the line', async () => {
    const { out, rows } = await read(fixture('alipay-web.csv'));
    assert.equal(out.detected.format, 'alipay');
    assert.equal(rows.length, 6);
    assert.equal(byRow(rows, 1).amountMinor, 2500);
    assert.equal(byRow(rows, 1).externalId, '2019013122001400000000000101');
    // 100.00 with 30.00 refunded
    assert.equal(byRow(rows, 2).amountMinor, 7000);
    assert.deepEqual([byRow(rows, 3).decision, byRow(rows, 3).reason], ['skip', 'closed']);
    assert.deepEqual([byRow(rows, 4).kind, byRow(rows, 4).toMethod], ['transfer', '余额宝']);
    assert.equal(byRow(rows, 5).kind, 'income');
    assert.deepEqual([byRow(rows, 6).decision, byRow(rows, 6).reason], ['skip', 'refunded']);
  });

  it('a refund of a closed trade is nothing', () => {
    const pairs = pairRefunds(
      [
        {
          row: 2,
          date: '2024-03-01',
          amountMinor: 500,
          counterparty: 'x',
          externalId: '2024030122001400000000000001',
          merchantId: null,
          skipped: true,
          refundMarked: false,
        },
      ],
      [
        {
          row: 1,
          date: '2024-03-02',
          amountMinor: 500,
          counterparty: 'x',
          externalId: '2024030122001400000000000001_9',
          merchantId: null,
        },
      ],
    );
    assert.equal(pairs.get(1)?.skipped, true);
    assert.deepEqual(refundOriginIds('2024030122001400000000000001_9'), ['2024030122001400000000000001']);
  });

  it('pairs by counterparty when ids say nothing, never past the purchase amount', () => {
    const p = (row: number, date: string, amountMinor: number, refundMarked = false) => ({
      row,
      date,
      amountMinor,
      counterparty: 'shop',
      externalId: null,
      merchantId: null,
      skipped: false,
      refundMarked,
    });
    const r = (row: number, date: string, amountMinor: number) => ({
      row,
      date,
      amountMinor,
      counterparty: 'shop',
      externalId: null,
      merchantId: null,
    });
    const pairs = pairRefunds(
      [p(1, '2024-03-01', 1000), p(2, '2024-03-05', 300, true), p(3, '2024-03-09', 5000)],
      [r(10, '2024-03-06', 300), r(11, '2024-03-07', 800), r(12, '2024-03-07', 800)],
    );
    assert.equal(pairs.get(10)?.row, 2);
    assert.equal(pairs.get(11)?.row, 1);
    // the March 1 purchase has only 2.00 left, the March 9 one is later
    assert.equal(pairs.has(12), false);
  });
});

describe('mapped bank bills and our own export', () => {
  it('an unknown layout is refused with what was recognised', async () => {
    const err = await refusal(read(fixture('bank.csv')));
    assert.equal(err.code, 42203);
    assert.deepEqual((err.extra as { recognised: { header: string[] } }).recognised.header, BANK_HEADER);
  });

  it('a saved mapping reads a signed amount column', async () => {
    const preset: PresetRef = {
      id: 7,
      header: BANK_HEADER,
      mapping: {
        date: '记账日期',
        date_format: 'YYYY-MM-DD',
        amount: '交易金额',
        sign: 'negative_is_expense',
        description: '交易摘要',
        counterparty: '对手信息',
        external_id: '流水号',
      },
    };
    const { out, rows } = await read(fixture('bank.csv'), [preset]);
    assert.equal(out.detected.format, 'mapped');
    assert.equal(out.detected.presetId, 7);
    assert.equal(out.detected.source, sourceOfHeader(BANK_HEADER));
    assert.deepEqual(
      rows.map((r) => [r.date, r.kind, r.amountMinor, r.note, r.externalId]),
      [
        ['2024-03-18', 'expense', 5800, '青禾小馆 快捷支付', 'BK20240318000001'],
        ['2024-03-15', 'income', 800000, '示例科技有限公司 代发工资', 'BK20240315000002'],
        ['2024-03-14', 'expense', 120000, '招商银行信用卡 信用卡还款', 'BK20240314000003'],
        ['2024-03-12', 'expense', 3650, '云杉便利店 消费', 'BK20240312000004'],
        ['2024-03-10', 'income', 35, '结息', 'BK20240310000005'],
      ],
    );
  });

  it('a saved mapping reads an XLSX with debit and credit columns and date cells', async () => {
    const preset: PresetRef = {
      id: 3,
      header: CARD_HEADER,
      mapping: {
        date: '交易日期',
        date_format: 'YYYY/MM/DD',
        debit: '支出金额',
        credit: '存入金额',
        description: '交易说明',
      },
    };
    const { out, rows } = await read(fixture('card.xlsx'), [preset]);
    assert.equal(out.detected.format, 'mapped');
    assert.deepEqual(
      rows.map((r) => [r.date, r.kind, r.amountMinor, r.note, r.externalId]),
      [
        ['2024-03-20', 'expense', 9000, '星河影城 电影票', null],
        ['2024-03-19', 'expense', 3580, '橙子果园 水果', null],
        ['2024-03-14', 'income', 120000, '还款 谢谢', null],
        ['2024-03-11', 'expense', 2340, '北辰出行 打车', null],
      ],
    );
  });

  it('our own CSV export, and JSON', async () => {
    const { out, rows } = await read(fixture('ledger.csv'));
    assert.equal(out.detected.format, 'ledger');
    assert.deepEqual(
      rows.map((r) => [r.kind, r.amountMinor, r.categoryName, r.tags]),
      [
        ['expense', 1800, '餐饮', ['早餐', '工作日']],
        ['income', 50000, '工资', []],
        ['expense', 990, '购物', []],
      ],
    );
    const json = await read(
      Buffer.from(JSON.stringify([{ date: '2024-03-01', kind: 'expense', amount: 3, category: '餐饮', note: 'x' }])),
    );
    assert.equal(json.out.detected.format, 'ledger');
    assert.equal(json.out.detected.container, 'json');
    assert.equal(json.rows[0]!.amountMinor, 300);
    // transfers and adjustments of an export name accounts: shown, and left to Import & export
    const moves = await read(
      Buffer.from(
        JSON.stringify([
          {
            date: '2024-03-02',
            kind: 'transfer',
            amount: 5,
            note: 'atm',
            account: 'Bank',
            to_account: 'Cash',
            to_amount: 5,
            currency: 'CNY',
          },
          { date: '2024-03-03', kind: 'adjustment', amount: -1, note: 'counted', account: 'Cash', currency: 'CNY' },
        ]),
      ),
    );
    assert.deepEqual(
      moves.rows.map((r) => [r.kind, r.decision, r.reason]),
      [
        ['transfer', 'skip', 'ledger_transfer'],
        ['transfer', 'skip', 'ledger_transfer'],
      ],
    );
  });

  it('too many rows is 41301', async () => {
    const lines = ['交易时间,交易类型,交易对方,商品,收/支,金额(元),支付方式,当前状态,交易单号,商户单号,备注'];
    for (let i = 0; i < 100_001; i++)
      lines.push(`2024-03-01 10:00:00,商户消费,店,物,支出,¥1.00,零钱,支付成功,${i},/,/`);
    const err = await refusal(read(Buffer.from(lines.join('\n'))));
    assert.equal(err.code, 41301);
  });

  it('GBK text that is not a bill is refused, not mistaken', async () => {
    const err = await refusal(read(iconv.encode('随便写的一行字\n另一行,内容\n', 'gb18030')));
    assert.equal(err.code, 42203);
    assert.equal((err.extra as { recognised: { encoding: string } }).recognised.encoding, 'gb18030');
  });

  it('garbage bytes never throw anything but a refusal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async (bytes) => {
        try {
          await read(bytes);
        } catch (err) {
          assert.ok(err instanceof AppError, String(err));
          assert.ok([40001, 42203, 41301].includes(err.code));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('import rules', () => {
  it('the first matching rule wins, by field, match and kind, ignoring case and width', async () => {
    const { ruleMatcher } = await import('../../src/modules/import/bill.rules.ts');
    const m = ruleMatcher([
      { id: 1, field: 'counterparty', match: 'equals', value: '美团', kind: 'income', categoryId: 10 },
      { id: 2, field: 'counterparty', match: 'contains', value: '美团', kind: null, categoryId: 11 },
      { id: 3, field: 'note', match: 'starts_with', value: 'ＡＢＣ', kind: 'expense', categoryId: 12 },
      { id: 4, field: 'any', match: 'contains', value: '花呗', kind: null, categoryId: 13 },
    ]);
    const row = (o: Partial<{ kind: string; counterparty: string; note: string; method: string }>) => ({
      kind: 'expense',
      counterparty: '',
      note: '',
      method: '',
      ...o,
    });
    assert.equal(m(row({ counterparty: '美团' }))?.id, 2);
    assert.equal(m(row({ counterparty: '美团', kind: 'income' }))?.id, 1);
    assert.equal(m(row({ note: 'abc 123' }))?.id, 3);
    assert.equal(m(row({ note: 'abc 123', kind: 'income' })), undefined);
    assert.equal(m(row({ method: '花呗' }))?.id, 4);
    assert.equal(m(row({ counterparty: '其他' })), undefined);
  });
});
