import { headerKey } from '../bill.text.ts';

/*
 * 随手记's web export (导出 Excel, an .xls workbook): a sheet a kind of line (支出, 收入, 转账, 余额变更...),
 * each with its own header, sometimes under a title row. The expense sheet names its account 支出账户,
 * the income sheet 收入账户, the transfer sheet 转出账户 and 转入账户; categories are 一级分类 and 二级分类
 * (类别, 子类别 and 账户 in some versions). The sheets are read here as one table under one header, whose
 * lines the 随手记 reader of apps.ts reads as it reads the app's own export.
 */

/** the one header the sheets are read under (the web export's layout: format sui_web) */
export const SUI_WEB_HEADER = [
  '交易类型',
  '日期',
  '一级分类',
  '二级分类',
  '账户',
  '账户2',
  '金额',
  '账户币种',
  '成员',
  '商家',
  '项目',
  '备注',
] as const;

/** the names each column of that header goes by in the sheets */
const ALIASES: Record<(typeof SUI_WEB_HEADER)[number], string[]> = {
  交易类型: ['交易类型'],
  日期: ['日期'],
  一级分类: ['一级分类', '类别', '分类'],
  二级分类: ['二级分类', '子类别', '子分类'],
  账户: ['支出账户', '收入账户', '转出账户', '账户', '账户1'],
  账户2: ['转入账户', '账户2'],
  金额: ['金额'],
  账户币种: ['账户币种', '币种'],
  成员: ['成员'],
  商家: ['商家'],
  项目: ['项目'],
  备注: ['备注'],
};

/** names only the web export's sheets use: a workbook with one of them is read sheet after sheet */
const WEB_ONLY = new Set(['一级分类', '类别', '支出账户', '收入账户', '转出账户']);

/** how far down a sheet its header may be (a title row above it) */
const HEADER_ROWS = 5;

interface SheetHeader {
  at: number;
  /** for each column of SUI_WEB_HEADER, its place in the sheet (or -1) */
  places: number[];
  /** it names a column only the web export has */
  web: boolean;
}

function sheetHeader(rows: string[][]): SheetHeader | null {
  for (let at = 0; at < Math.min(rows.length, HEADER_ROWS); at++) {
    const keys = rows[at]!.map(headerKey);
    if (!keys.includes('交易类型') || !keys.includes('日期') || !keys.includes('金额')) continue;
    const places = SUI_WEB_HEADER.map((col) => {
      const name = ALIASES[col].find((n) => keys.includes(n));
      return name === undefined ? -1 : keys.indexOf(name);
    });
    return places[4] === -1 ? null : { at, places, web: keys.some((k) => WEB_ONLY.has(k)) };
  }
  return null;
}

/**
 * The sheets of a 随手记 web export as one table (its header first, then every sheet's lines in
 * order), or null when the workbook is not one.
 */
export function suiWebTable(sheets: string[][][]): string[][] | null {
  const headers = sheets.map(sheetHeader);
  if (!headers.some((h) => h?.web)) return null;
  const table: string[][] = [[...SUI_WEB_HEADER]];
  sheets.forEach((rows, i) => {
    const h = headers[i];
    if (!h) return;
    for (const row of rows.slice(h.at + 1)) table.push(h.places.map((p) => (p < 0 ? '' : (row[p] ?? ''))));
  });
  return table;
}
