import {
  cleanId,
  cleanText,
  headerKey,
  parseBillAmount,
  parseBillDate,
  timeOf,
  type DateFormat,
  type DecimalMark,
  type Period,
} from './bill.text.ts';

/*
 * The layouts of the bills we read: how each announces itself (its table header, found among the
 * first lines, after whatever block of account details the export puts above it) and how one of
 * its lines reads as a payment. No database here.
 */

export type BillFormat =
  | 'wechat'
  | 'alipay'
  | 'ledger'
  | 'mapped'
  | 'ofx'
  | 'qif'
  | 'camt'
  | 'mt940'
  | 'ezbookkeeping'
  | 'firefly'
  | 'actual'
  | 'ynab'
  | 'qianji'
  | 'sui_app'
  | 'sui_cloud'
  | 'sui_web';
/** which way money moved, as the bill says: out, in, or neither (不计收支, "/") */
export type Direction = 'out' | 'in' | 'neutral';

/** One payment line of a WeChat, Alipay or mapped bill, cleaned. */
export interface BillLine {
  /** 1 = the first data row under the header */
  row: number;
  date: string;
  /** the time of day when the bill gives one (HH:MM:SS), else empty */
  time: string;
  /** the row's own currency (a mapped currency column), else null: the account's */
  currency: string | null;
  direction: Direction;
  /** positive */
  amountMinor: number;
  counterparty: string;
  item: string;
  /** 交易类型 / 交易分类 / 类型 */
  type: string;
  /** 支付方式 / 收/付款方式 as written */
  method: string;
  status: string;
  externalId: string | null;
  merchantId: string | null;
  remark: string;
  /** part of the amount already refunded (the old Alipay web export's 成功退款) */
  refundedMinor: number;
}

/**
 * Why a line cannot be read, as a code the client words in the person's language, with its
 * parameters: bad_date (value, format), date_no_year (value), bad_amount (column, value),
 * bad_direction (value), bad_refund_amount (value).
 */
export interface LineProblem {
  code: string;
  params: Record<string, string>;
  message: string;
}

export type LineResult =
  | { ok: true; line: BillLine }
  | { ok: false; row: number; message: string; problems: LineProblem[]; notTransaction: boolean };

/** A saved column mapping for any other bank's CSV or XLSX. */
export interface ColumnMapping {
  date: string;
  date_format: DateFormat;
  /** one signed amount column ... */
  amount?: string | null;
  /** ... whose negative values are expenses (a debit card) or whose positive values are (a credit card) */
  sign?: 'negative_is_expense' | 'positive_is_expense' | null;
  /** ... or two columns: money out and money in */
  debit?: string | null;
  credit?: string | null;
  description?: string | null;
  counterparty?: string | null;
  external_id?: string | null;
  /** a column saying which way each (unsigned) amount went: 借/贷, 收/支, 支出/收入, DEBIT/CREDIT, Dr/Cr */
  direction?: string | null;
  /** a column with each row's currency (CNY, USD, 人民币, 美元...) */
  currency?: string | null;
  /** the decimal mark of the amounts: "." (1,234.56) or "," (1.234,56) */
  decimal?: DecimalMark | null;
  /** the CSV delimiter; unset: found from the file */
  delimiter?: ',' | ';' | '\t' | null;
  /** false: the file has no header row, columns are named by position ("1", "2"...) */
  has_header?: boolean | null;
}

export interface PresetRef {
  id: number;
  header: string[];
  mapping: ColumnMapping;
}

export interface Layout {
  format: BillFormat;
  /** the source recorded on imported rows: wechat, alipay, or bank:<header hash> */
  variant: 'wechat' | 'alipay_app' | 'alipay_web' | 'ledger' | 'mapped' | 'app';
  /** column index by normalized name */
  columns: Map<string, number>;
  header: string[];
  preset: PresetRef | null;
}

const WECHAT_REQUIRED = [
  '交易时间',
  '交易类型',
  '交易对方',
  '商品',
  '收/支',
  '金额(元)',
  '支付方式',
  '当前状态',
  '交易单号',
];
const ALIPAY_APP_REQUIRED = [
  '交易时间',
  '交易分类',
  '交易对方',
  '商品说明',
  '收/支',
  '金额',
  '收/付款方式',
  '交易状态',
  '交易订单号',
];
const ALIPAY_WEB_REQUIRED = ['交易号', '交易创建时间', '交易对方', '商品名称', '金额(元)', '收/支', '交易状态'];
const LEDGER_REQUIRED = ['date', 'kind', 'amount', 'category'];

function columnsOf(cells: string[]): Map<string, number> {
  const out = new Map<string, number>();
  cells.forEach((c, i) => {
    const k = headerKey(c);
    if (k && !out.has(k)) out.set(k, i);
  });
  return out;
}

/** The header cells of a mapped file, as saved in a preset: trimmed, trailing empty cells dropped. */
export function headerCells(cells: string[]): string[] {
  const out = cells.map((c) => c.replace(/[\t\ufeff]/g, '').trim());
  while (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

export function sameHeader(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => headerKey(x) === headerKey(b[i]!));
}

/** A record looked at as a table header: its columns by normalized name, and its cells as a preset saves them. */
export interface HeaderCandidate {
  columns: Map<string, number>;
  header: string[];
}

export function headerCandidate(cells: string[]): HeaderCandidate {
  return { columns: columnsOf(cells), header: headerCells(cells) };
}

const hasAll = (columns: Map<string, number>, names: string[]) => names.every((n) => columns.has(n));

/** The table header of a WeChat Pay bill. */
export function wechatLayout({ columns, header }: HeaderCandidate): Layout | null {
  return hasAll(columns, WECHAT_REQUIRED)
    ? { format: 'wechat', variant: 'wechat', columns, header, preset: null }
    : null;
}

/** The table header of an Alipay bill: the app's export, or the older web export. */
export function alipayLayout({ columns, header }: HeaderCandidate): Layout | null {
  if (hasAll(columns, ALIPAY_APP_REQUIRED))
    return { format: 'alipay', variant: 'alipay_app', columns, header, preset: null };
  if (hasAll(columns, ALIPAY_WEB_REQUIRED))
    return { format: 'alipay', variant: 'alipay_web', columns, header, preset: null };
  return null;
}

/** The header row of our own export, its column names in any case. */
export function ledgerLayout({ columns, header }: HeaderCandidate): Layout | null {
  const lower = new Map([...columns].map(([k, v]) => [k.toLowerCase(), v]));
  return hasAll(lower, LEDGER_REQUIRED)
    ? { format: 'ledger', variant: 'ledger', columns: lower, header, preset: null }
    : null;
}

/** The header row of one of the person's column mappings (saved with a header). */
export function mappedLayout({ columns, header }: HeaderCandidate, presets: PresetRef[]): Layout | null {
  const preset = presets.find((p) => p.mapping.has_header !== false && sameHeader(p.header, header));
  return preset ? { format: 'mapped', variant: 'mapped', columns, header, preset } : null;
}

/** Columns named by position, for a file without a header row. */
export function positionalHeader(n: number): string[] {
  return Array.from({ length: n }, (_, i) => String(i + 1));
}

/**
 * The layout of a file without a header row, from its first record: a preset saved without a
 * header whose column count matches and whose date column reads as a date.
 */
export function headerlessLayout(cells: string[], presets: PresetRef[], period: Period | null): Layout | null {
  const filled = headerCells(cells).length;
  for (const preset of presets) {
    const n = preset.header.length;
    // trailing empty cells may or may not be written
    if (preset.mapping.has_header !== false || n < filled || n > Math.max(filled, cells.length)) continue;
    const header = positionalHeader(n);
    const layout: Layout = { format: 'mapped', variant: 'mapped', columns: columnsOf(header), header, preset };
    const i = layout.columns.get(headerKey(preset.mapping.date));
    if (i !== undefined && parseBillDate(cells[i], preset.mapping.date_format, period)) return layout;
  }
  return null;
}

/** Words of a total, a note or a disclaimer: a line that is no payment. */
const NOT_A_PAYMENT = /合计|总计|小计|以上|仅供参考|说明|备注[:：]|注[:：]|total|balance (brought|carried)|end of/i;

/**
 * Whether a line that did not read is no payment at all (a total, a note, a disclaimer, a blank
 * date) rather than a payment written wrong: its date cell holds no digit, or the line's first
 * cells are the words of a total or a note.
 */
export function isNotTransaction(dateRaw: string, cells: string[]): boolean {
  const d = dateRaw.trim();
  if (!/\d/.test(d)) return true;
  return cells.slice(0, 3).some((c) => NOT_A_PAYMENT.test(c));
}

/** A line after the table that ends it (the old Alipay export's dashes and totals). */
export function isTableEnd(cells: string[]): boolean {
  const first = (cells[0] ?? '').trim();
  return /^-{5,}/.test(first);
}

/** A direction cell of a mapped file: 借/贷, 收/支, DEBIT/CREDIT, Dr/Cr, out/in. */
export function mappedDirection(raw: string): 'out' | 'in' | null {
  const s = raw.normalize('NFKC').trim().toLowerCase();
  if (/^[借支出付-]/.test(s) || /^(debit|dr|d|out|withdrawal)\b/.test(s)) return 'out';
  if (/^[贷收入存+]/.test(s) || /^(credit|cr|c|in|deposit)\b/.test(s)) return 'in';
  return null;
}

const CURRENCY_NAMES: Record<string, string> = {
  人民币: 'CNY',
  RMB: 'CNY',
  美元: 'USD',
  港币: 'HKD',
  港元: 'HKD',
  欧元: 'EUR',
  日元: 'JPY',
  英镑: 'GBP',
  澳元: 'AUD',
  加元: 'CAD',
  新加坡元: 'SGD',
};

/** A currency cell as an ISO 4217 code (人民币 -> CNY), or null when it names none. */
export function currencyCode(raw: string): string | null {
  const s = raw.normalize('NFKC').replace(/\s+/g, '');
  if (CURRENCY_NAMES[s]) return CURRENCY_NAMES[s]!;
  const up = s.toUpperCase();
  return /^[A-Z]{3}$/.test(up) ? up : null;
}

function direction(raw: string): Direction | null {
  const s = raw.trim();
  if (s === '支出') return 'out';
  if (s === '收入') return 'in';
  if (s === '' || s === '/' || s === '不计收支' || s === '其他') return 'neutral';
  return null;
}

function cell(cells: string[], columns: Map<string, number>, name: string): string {
  const i = columns.get(name);
  return i === undefined ? '' : (cells[i] ?? '');
}

/** The columns that WeChat Pay's and Alipay's phone exports name differently (the rest share names). */
const APP_COLUMNS = {
  wechat: {
    amount: '金额(元)',
    item: '商品',
    type: '交易类型',
    method: '支付方式',
    status: '当前状态',
    externalId: '交易单号',
    merchantId: '商户单号',
  },
  alipay_app: {
    amount: '金额',
    item: '商品说明',
    type: '交易分类',
    method: '收/付款方式',
    status: '交易状态',
    externalId: '交易订单号',
    merchantId: '商家订单号',
  },
  // the web export names no payment method
  alipay_web: {
    amount: '金额(元)',
    item: '商品名称',
    type: '类型',
    method: null,
    status: '交易状态',
    externalId: '交易号',
    merchantId: '商家订单号',
  },
} as const;

/**
 * A WeChat or Alipay line, whole at once, its date and money filled in once read (a spread into a second object costs
 * kilobytes of garbage per line).
 */
function appLine(
  row: number,
  cells: string[],
  cols: Layout['columns'],
  names: (typeof APP_COLUMNS)[keyof typeof APP_COLUMNS],
  refundedMinor: number,
): BillLine {
  return {
    row,
    date: '',
    time: '',
    currency: null,
    direction: 'neutral',
    amountMinor: 0,
    counterparty: cleanText(cell(cells, cols, '交易对方'), 100),
    item: cleanText(cell(cells, cols, names.item)),
    type: cleanText(cell(cells, cols, names.type), 50),
    method: names.method === null ? '' : cleanText(cell(cells, cols, names.method), 50),
    status: cleanText(cell(cells, cols, names.status), 50),
    externalId: cleanId(cell(cells, cols, names.externalId)),
    merchantId: cleanId(cell(cells, cols, names.merchantId)),
    remark: cleanText(cell(cells, cols, '备注')),
    refundedMinor,
  };
}

/** One data record of a WeChat or Alipay bill, or of a mapped bank bill, as a BillLine (or why not). */
export function readLine(layout: Layout, cells: string[], row: number, period: Period | null = null): LineResult {
  // no closure per line: the reader calls this a hundred thousand times
  const cols = layout.columns;
  const problems: LineProblem[] = [];
  let dateRaw: string;
  let amountRaw: string;
  let dirRaw: string;
  let line: BillLine;
  switch (layout.variant) {
    case 'wechat':
    case 'alipay_app': {
      const names = APP_COLUMNS[layout.variant];
      dateRaw = cell(cells, cols, '交易时间');
      amountRaw = cell(cells, cols, names.amount);
      dirRaw = cell(cells, cols, '收/支');
      line = appLine(row, cells, cols, names, 0);
      break;
    }
    case 'alipay_web': {
      const paid = cell(cells, cols, '付款时间').trim();
      dateRaw = paid || cell(cells, cols, '交易创建时间');
      amountRaw = cell(cells, cols, '金额(元)');
      dirRaw = cell(cells, cols, '收/支');
      // money that only moved between the holder's own places: 资金转移
      if (cell(cells, cols, '资金状态').trim() === '资金转移') dirRaw = '';
      const refundedRaw = cell(cells, cols, '成功退款(元)').trim();
      const refunded = refundedRaw === '' ? 0 : parseBillAmount(refundedRaw);
      if (refunded === null || refunded < 0)
        problems.push({
          code: 'bad_amount',
          params: { column: '成功退款(元)', value: refundedRaw },
          message: `成功退款（元） "${refundedRaw}" is not an amount`,
        });
      line = appLine(row, cells, cols, APP_COLUMNS.alipay_web, refunded ?? 0);
      break;
    }
    case 'mapped':
      return readMappedLine(layout, cells, row, period);
    default:
      return failed(row, [{ code: 'not_a_line', params: {}, message: 'not a bill line' }], false);
  }
  const date = parseBillDate(dateRaw);
  if (!date)
    problems.push({
      code: 'bad_date',
      params: { value: dateRaw.trim(), format: 'YYYY-MM-DD' },
      message: `date "${dateRaw.trim()}" is not a date`,
    });
  const amountMinor = parseBillAmount(amountRaw);
  if (amountMinor === null)
    problems.push({
      code: 'bad_amount',
      params: { column: '金额', value: amountRaw.trim() },
      message: `amount "${amountRaw.trim()}" is not an amount with at most 2 decimals`,
    });
  const dir = direction(dirRaw);
  if (!dir)
    problems.push({
      code: 'bad_direction',
      params: { value: dirRaw.trim() },
      message: `收/支 "${dirRaw.trim()}" must be 支出, 收入 or 不计收支`,
    });
  if (problems.length) return failed(row, problems, !date && isNotTransaction(dateRaw, cells));
  line.date = date!;
  line.time = timeOf(dateRaw);
  line.direction = dir!;
  line.amountMinor = Math.abs(amountMinor!);
  return { ok: true, line };
}

function failed(row: number, problems: LineProblem[], notTransaction: boolean): LineResult {
  return { ok: false, row, message: problems.map((p) => p.message).join('; '), problems, notTransaction };
}

function readMappedLine(layout: Layout, cells: string[], row: number, period: Period | null): LineResult {
  const m = layout.preset!.mapping;
  const byName = (name: string | null | undefined) => {
    if (!name) return '';
    const i = layout.columns.get(headerKey(name));
    return i === undefined ? '' : (cells[i] ?? '');
  };
  const problems: LineProblem[] = [];
  const dateRaw = byName(m.date);
  const date = mappedDate(m, dateRaw, period, problems);
  const signed = mappedAmount(m, byName, problems);
  const currency = mappedCurrency(m, byName, problems);
  if (problems.length) return failed(row, problems, !date && isNotTransaction(dateRaw, cells));
  const description = cleanText(byName(m.description));
  const counterparty = cleanText(byName(m.counterparty), 100);
  return {
    ok: true,
    line: {
      row,
      date: date!,
      time: timeOf(dateRaw),
      currency,
      direction: signed! < 0 ? 'out' : 'in',
      amountMinor: Math.abs(signed!),
      counterparty,
      item: description,
      type: '',
      method: '',
      status: '',
      externalId: m.external_id ? cleanId(byName(m.external_id)) : null,
      merchantId: null,
      remark: '',
      refundedMinor: 0,
    },
  };
}

/** A mapped line's date in the mapping's format (a day without a year takes the statement period's). */
function mappedDate(m: ColumnMapping, dateRaw: string, period: Period | null, problems: LineProblem[]) {
  const date = parseBillDate(dateRaw, m.date_format, period);
  if (date) return date;
  if (m.date_format === 'MM/DD' && !period && /\d/.test(dateRaw))
    problems.push({
      code: 'date_no_year',
      params: { value: dateRaw.trim() },
      message: `date "${dateRaw.trim()}" has no year and the file names no statement period`,
    });
  else
    problems.push({
      code: 'bad_date',
      params: { value: dateRaw.trim(), format: m.date_format },
      message: `date "${dateRaw.trim()}" is not a date in the format ${m.date_format}`,
    });
  return date;
}

/**
 * A mapped line's signed amount in minor units (negative: money out): one amount column, signed or
 * with a direction column, or a debit and a credit column. Null when it cannot be read.
 */
function mappedAmount(
  m: ColumnMapping,
  byName: (name: string | null | undefined) => string,
  problems: LineProblem[],
): number | null {
  const decimal = m.decimal ?? '.';
  const amountProblem = (column: string, value: string) =>
    problems.push({
      code: 'bad_amount',
      params: { column, value: value.trim() },
      message: `${column} "${value.trim()}" is not an amount with at most 2 decimals`,
    });
  if (m.amount) {
    const raw = byName(m.amount);
    const v = parseBillAmount(raw, decimal);
    if (v === null) amountProblem(m.amount, raw);
    else if (m.direction) {
      const d = mappedDirection(byName(m.direction));
      if (!d)
        problems.push({
          code: 'bad_direction',
          params: { value: byName(m.direction).trim() },
          message: `${m.direction} "${byName(m.direction).trim()}" says neither money out nor money in`,
        });
      else return d === 'out' ? -Math.abs(v) : Math.abs(v);
    } else return m.sign === 'positive_is_expense' ? -v : v;
    return null;
  }
  const out = byName(m.debit).trim();
  const inn = byName(m.credit).trim();
  const blank = (x: string) => x === '' || x === '-' || x === '--';
  const o = blank(out) ? 0 : parseBillAmount(out, decimal);
  const i = blank(inn) ? 0 : parseBillAmount(inn, decimal);
  if (o === null) amountProblem(m.debit!, out);
  if (i === null) amountProblem(m.credit!, inn);
  return o !== null && i !== null ? Math.abs(i) - Math.abs(o) : null;
}

/** A mapped line's currency code, when the mapping has a currency column and the cell holds one. */
function mappedCurrency(
  m: ColumnMapping,
  byName: (name: string | null | undefined) => string,
  problems: LineProblem[],
): string | null {
  if (!m.currency) return null;
  const raw = byName(m.currency).trim();
  const currency = raw === '' ? null : currencyCode(raw);
  if (raw !== '' && !currency)
    problems.push({
      code: 'bad_currency',
      params: { value: raw },
      message: `currency "${raw}" is not a currency code`,
    });
  return currency;
}
