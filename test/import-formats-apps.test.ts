import * as XLSX from '@e965/xlsx';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { build, type TestApp } from './helpers/index.ts';
import { importTwice, refused, type FormatCase } from './helpers/import-formats.ts';
import { workbook } from './helpers/zip.ts';

/*
 * The exports of the apps people leave, each written as the app writes it (its header, its
 * date and amount forms, its way of writing a transfer), through the whole import. The figures
 * are added up by hand from each file; the 随手记 cloud workbook is built here from its rows.
 */

const file = (name: string) => readFileSync(new URL(`./fixtures/imports/${name}`, import.meta.url));

/** 随手记's cloud export: one sheet, a title row above the header */
const SUI_CLOUD: string[][] = [
  ['随手记账本导出 2024-05-01'],
  ['交易类型', '日期', '分类', '子分类', '账户1', '账户币种', '金额', '账户2', '备注', '成员', '项目', '商家'],
  ['余额变更', '2024-04-01 00:00:00', '', '', '工资卡', 'CNY', '100.00', '', '', '', '', ''],
  ['支出', '2024-04-03 19:00:00', '居家生活', '水电煤', '工资卡', 'CNY', '1,234.50', '', '电费', '', '', '国网'],
  ['收入', '2024-04-10 09:00:00', '职业收入', '奖金', '工资卡', 'CNY', '3000', '', '季度奖', '', '', ''],
  ['转账', '2024-04-12 10:00:00', '', '', '工资卡', 'CNY', '500', '余额宝', '理财', '', '', ''],
];

/** 随手记's web export (导出 Excel, .xls): a sheet a kind of line, each with its own header */
const SUI_WEB: Record<string, string[][]> = {
  支出: [
    ['随手记 导出数据 2024-05-01 至 2024-05-31'],
    ['交易类型', '日期', '一级分类', '二级分类', '支出账户', '金额', '成员', '商家', '项目', '备注'],
    ['支出', '2024-05-02 12:30:00', '餐饮', '午餐', '招商银行', '35.50', '本人', '食堂', '', '工作餐'],
    ['支出', '2024-05-03 08:00:00', '交通', '地铁', '现金', '4', '', '', '', ''],
    ['支出', '2024-05-05 20:00:00', '购物', '', '招商银行', '1,299.00', '', '京东', '', '耳机'],
  ],
  收入: [
    ['交易类型', '日期', '一级分类', '二级分类', '收入账户', '金额', '成员', '商家', '项目', '备注'],
    ['收入', '2024-05-10 09:00:00', '职业收入', '工资', '招商银行', '8000.00', '', '', '', '五月工资'],
  ],
  转账: [
    ['交易类型', '日期', '转出账户', '转入账户', '金额', '成员', '商家', '项目', '备注'],
    ['转账', '2024-05-11 10:00:00', '招商银行', '现金', '200', '', '', '', '取现'],
  ],
  余额变更: [
    ['交易类型', '日期', '一级分类', '二级分类', '账户1', '账户2', '金额', '成员', '商家', '项目', '备注'],
    ['余额变更', '2024-05-01 00:00:00', '', '', '现金', '', '100', '', '', '', ''],
  ],
};

/** the same export as some versions write it: 类别, 子类别 and 账户 on every sheet, 账户2 the transfer's other side */
const SUI_WEB_OLD: Record<string, string[][]> = {
  支出: SUI_WEB['支出']!.slice(1).map((r, i) =>
    i === 0 ? ['交易类型', '日期', '类别', '子类别', '账户', ...r.slice(5)] : r,
  ),
  收入: SUI_WEB['收入']!.map((r, i) => (i === 0 ? ['交易类型', '日期', '类别', '子类别', '账户', ...r.slice(5)] : r)),
  转账: SUI_WEB['转账']!.map((r, i) => (i === 0 ? ['交易类型', '日期', '账户', '账户2', ...r.slice(4)] : r)),
};

/** An .xls workbook (BIFF8) of these sheets, written by SheetJS. */
function xls(sheets: Record<string, string[][]>): Buffer {
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets))
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xls' }) as Buffer;
}

// -88.00, +8000.00, -3.50; one transfer of 500.00; the balance modification is no payment
const EZ: FormatCase = {
  name: 'ezBookkeeping CSV',
  file: 'ezbookkeeping.csv',
  body: file('ezbookkeeping.csv'),
  format: 'ezbookkeeping',
  accounts: [
    { name: 'Cash', currency: 'CNY' },
    { name: 'Bank Card', currency: 'CNY' },
  ],
  rows: { import: 3, transfer: 1, skip: 0 },
  booked: { expense: 8800 + 350, income: 800000, transfer: 50000 },
};

const cases: FormatCase[] = [
  EZ,
  { ...EZ, name: 'ezBookkeeping TSV', file: 'ezbookkeeping.tsv', body: file('ezbookkeeping.tsv') },
  {
    // the opening balance is no payment; -42.10, +2500.00, 300.00 to savings
    name: 'Firefly III CSV export',
    file: 'firefly.csv',
    body: file('firefly.csv'),
    format: 'firefly',
    accounts: [
      { name: 'Girokonto', currency: 'EUR' },
      { name: 'Tagesgeld', currency: 'EUR' },
    ],
    rows: { import: 2, transfer: 1, skip: 0 },
    booked: { expense: 4210, income: 250000, transfer: 30000 },
  },
  {
    // -56.78, +3200.00, 400.00 to savings (once), a split -120.00 as -90.00 and -30.00
    name: 'Actual CSV export',
    file: 'actual.csv',
    body: file('actual.csv'),
    format: 'actual',
    accounts: [
      { name: 'Checking', currency: 'USD' },
      { name: 'Savings', currency: 'USD' },
    ],
    rows: { import: 4, transfer: 1, skip: 0 },
    booked: { expense: 5678 + 9000 + 3000, income: 320000, transfer: 40000 },
  },
  {
    // $5.75 out, $1,850.00 in, $250.00 to the card (once), $45.10 out
    name: 'YNAB register CSV',
    file: 'ynab-register.csv',
    body: file('ynab-register.csv'),
    format: 'ynab',
    accounts: [
      { name: 'Checking', currency: 'USD' },
      { name: 'Credit Card', currency: 'USD' },
    ],
    rows: { import: 3, transfer: 1, skip: 0 },
    booked: { expense: 575 + 4510, income: 185000, transfer: 25000 },
  },
  {
    // -32.50, +9000, 1000 to 微信零钱, a refund of 12 (income)
    name: '钱迹 CSV',
    file: 'qianji.csv',
    body: file('qianji.csv'),
    format: 'qianji',
    accounts: [
      { name: '微信零钱', currency: 'CNY' },
      { name: '招商银行', currency: 'CNY' },
    ],
    rows: { import: 3, transfer: 1, skip: 0 },
    booked: { expense: 3250, income: 900000 + 1200, transfer: 100000 },
  },
  {
    // -45.00, +12000.00, 2,000.00 from the card to cash (转出 and 转入 joined by 关联Id), -36.80
    name: '随手记 app CSV',
    file: 'sui-app.csv',
    body: file('sui-app.csv'),
    format: 'sui_app',
    accounts: [
      { name: '现金', currency: 'CNY' },
      { name: '招商银行', currency: 'CNY' },
    ],
    rows: { import: 3, transfer: 1, skip: 0 },
    booked: { expense: 4500 + 3680, income: 1200000, transfer: 200000 },
  },
];

describe('exports of other bookkeeping apps', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  for (const c of cases) {
    it(`${c.name}: rows, sums, a second upload books nothing`, () => importTwice(t, c));
  }

  it('随手记 cloud XLSX: rows, sums, a second upload books nothing', async () =>
    importTwice(t, {
      name: '随手记 cloud XLSX',
      file: 'sui.xlsx',
      body: await workbook({ rows: SUI_CLOUD }),
      format: 'sui_cloud',
      accounts: [
        { name: '工资卡', currency: 'CNY' },
        { name: '余额宝', currency: 'CNY' },
      ],
      // -1,234.50, +3000, 500 to 余额宝
      rows: { import: 2, transfer: 1, skip: 0 },
      booked: { expense: 123450, income: 300000, transfer: 50000 },
    }));

  // expenses 35.50 + 4.00 + 1,299.00, one income of 8000.00, 200.00 from the card to cash; the balance
  // change is no payment
  const suiWeb = (name: string, sheets: Record<string, string[][]>) => ({
    name,
    file: 'sui-web.xls',
    body: xls(sheets),
    format: 'sui_web',
    accounts: [
      { name: '招商银行', currency: 'CNY' },
      { name: '现金', currency: 'CNY' },
    ],
    rows: { import: 4, transfer: 1, skip: 0 },
    booked: { expense: 3550 + 400 + 129900, income: 800000, transfer: 20000 },
  });
  it('随手记 web XLS (a sheet a kind): rows, sums, a second upload books nothing', () =>
    importTwice(t, suiWeb('随手记 web XLS', SUI_WEB)));
  it('随手记 web XLS with 类别, 子类别 and 账户 columns: rows, sums, a second upload books nothing', () =>
    importTwice(t, suiWeb('随手记 web XLS (类别)', SUI_WEB_OLD)));

  const refusals: { name: string; file: string; body: Buffer; row: number; code: string }[] = [
    {
      name: 'a 随手记 transfer whose other half is missing',
      file: 'sui-app.csv',
      body: Buffer.from(
        file('sui-app.csv')
          .toString()
          .replace(/\n"转入".*\n/, '\n'),
      ),
      row: 4,
      code: 'transfer_half',
    },
    {
      name: 'a YNAB date of no calendar',
      file: 'ynab-register.csv',
      body: Buffer.from(file('ynab-register.csv').toString().replace('03/20/2024', '02/30/2024')),
      row: 5,
      code: 'bad_date',
    },
    {
      name: 'a Firefly amount that is no number',
      file: 'firefly.csv',
      body: Buffer.from(file('firefly.csv').toString().replace('-42.10', '-42.1O')),
      row: 2,
      code: 'bad_amount',
    },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name}, naming the row and the reason`, () => refused(t, r.file, r.body, r.row, r.code));
  }
});
