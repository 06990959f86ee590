import { cleanId, cleanText, headerKey, parseBillAmount, parseBillDate, type DateFormat } from './bill.text.ts';

/*
 * The layouts of the bills we read: how each announces itself (its table header, found among the
 * first lines, after whatever block of account details the export puts above it) and how one of
 * its lines reads as a payment. No database here.
 */

export type BillFormat = 'wechat' | 'alipay' | 'ledger' | 'mapped';
/** which way money moved, as the bill says: out, in, or neither (不计收支, "/") */
export type Direction = 'out' | 'in' | 'neutral';

/** One payment line of a WeChat, Alipay or mapped bill, cleaned. */
export interface BillLine {
  /** 1 = the first data row under the header */
  row: number;
  date: string;
  direction: Direction;
  /** positive */
  cents: number;
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
  refundedCents: number;
}

export type LineResult = { ok: true; line: BillLine } | { ok: false; row: number; message: string };

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
}

export interface PresetRef {
  id: number;
  header: string[];
  mapping: ColumnMapping;
}

export interface Layout {
  format: BillFormat;
  /** the source recorded on imported rows: wechat, alipay, or bank:<header hash> */
  variant: 'wechat' | 'alipay_app' | 'alipay_web' | 'ledger' | 'mapped';
  /** column index by normalized name */
  columns: Map<string, number>;
  header: string[];
  preset: PresetRef | null;
}

const WECHAT_REQUIRED = ['交易时间', '交易类型', '交易对方', '商品', '收/支', '金额(元)', '支付方式', '当前状态', '交易单号'];
const ALIPAY_APP_REQUIRED = ['交易时间', '交易分类', '交易对方', '商品说明', '收/支', '金额', '收/付款方式', '交易状态', '交易订单号'];
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

/** The layout a record announces as a table header, or null when it is not one we know. */
export function layoutOf(cells: string[], presets: PresetRef[]): Layout | null {
  const columns = columnsOf(cells);
  const has = (names: string[]) => names.every((n) => columns.has(n));
  const header = headerCells(cells);
  if (has(WECHAT_REQUIRED)) return { format: 'wechat', variant: 'wechat', columns, header, preset: null };
  if (has(ALIPAY_APP_REQUIRED)) return { format: 'alipay', variant: 'alipay_app', columns, header, preset: null };
  if (has(ALIPAY_WEB_REQUIRED)) return { format: 'alipay', variant: 'alipay_web', columns, header, preset: null };
  const lower = new Map([...columns].map(([k, v]) => [k.toLowerCase(), v]));
  if (LEDGER_REQUIRED.every((n) => lower.has(n))) return { format: 'ledger', variant: 'ledger', columns: lower, header, preset: null };
  const preset = presets.find((p) => sameHeader(p.header, header));
  if (preset) return { format: 'mapped', variant: 'mapped', columns, header, preset };
  return null;
}

/** A line after the table that ends it (the old Alipay export's dashes and totals). */
export function isTableEnd(cells: string[]): boolean {
  const first = (cells[0] ?? '').trim();
  return /^-{5,}/.test(first);
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

/** One data record of a WeChat or Alipay bill, or of a mapped bank bill, as a BillLine (or why not). */
export function readLine(layout: Layout, cells: string[], row: number): LineResult {
  const get = (name: string) => cell(cells, layout.columns, name);
  const problems: string[] = [];
  let dateRaw: string;
  let amountRaw: string;
  let dirRaw: string;
  let line: Omit<BillLine, 'date' | 'direction' | 'cents'>;
  switch (layout.variant) {
    case 'wechat':
      dateRaw = get('交易时间');
      amountRaw = get('金额(元)');
      dirRaw = get('收/支');
      line = {
        row,
        counterparty: cleanText(get('交易对方'), 100),
        item: cleanText(get('商品')),
        type: cleanText(get('交易类型'), 50),
        method: cleanText(get('支付方式'), 50),
        status: cleanText(get('当前状态'), 50),
        externalId: cleanId(get('交易单号')),
        merchantId: cleanId(get('商户单号')),
        remark: cleanText(get('备注')),
        refundedCents: 0,
      };
      break;
    case 'alipay_app':
      dateRaw = get('交易时间');
      amountRaw = get('金额');
      dirRaw = get('收/支');
      line = {
        row,
        counterparty: cleanText(get('交易对方'), 100),
        item: cleanText(get('商品说明')),
        type: cleanText(get('交易分类'), 50),
        method: cleanText(get('收/付款方式'), 50),
        status: cleanText(get('交易状态'), 50),
        externalId: cleanId(get('交易订单号')),
        merchantId: cleanId(get('商家订单号')),
        remark: cleanText(get('备注')),
        refundedCents: 0,
      };
      break;
    case 'alipay_web': {
      const paid = get('付款时间').trim();
      dateRaw = paid || get('交易创建时间');
      amountRaw = get('金额(元)');
      dirRaw = get('收/支');
      // money that only moved between the holder's own places: 资金转移
      if (get('资金状态').trim() === '资金转移') dirRaw = '';
      const refundedRaw = get('成功退款(元)').trim();
      const refunded = refundedRaw === '' ? 0 : parseBillAmount(refundedRaw);
      if (refunded === null || refunded < 0) problems.push(`成功退款（元） "${refundedRaw}" is not an amount`);
      line = {
        row,
        counterparty: cleanText(get('交易对方'), 100),
        item: cleanText(get('商品名称')),
        type: cleanText(get('类型'), 50),
        method: '',
        status: cleanText(get('交易状态'), 50),
        externalId: cleanId(get('交易号')),
        merchantId: cleanId(get('商家订单号')),
        remark: cleanText(get('备注')),
        refundedCents: refunded ?? 0,
      };
      break;
    }
    case 'mapped':
      return readMappedLine(layout, cells, row);
    default:
      return { ok: false, row, message: 'not a bill line' };
  }
  const date = parseBillDate(dateRaw);
  if (!date) problems.push(`date "${dateRaw.trim()}" is not a date`);
  const cents = parseBillAmount(amountRaw);
  if (cents === null) problems.push(`amount "${amountRaw.trim()}" is not an amount with at most 2 decimals`);
  const dir = direction(dirRaw);
  if (!dir) problems.push(`收/支 "${dirRaw.trim()}" must be 支出, 收入 or 不计收支`);
  if (problems.length) return { ok: false, row, message: problems.join('; ') };
  return { ok: true, line: { ...line, date: date!, direction: dir!, cents: Math.abs(cents!) } };
}

function readMappedLine(layout: Layout, cells: string[], row: number): LineResult {
  const m = layout.preset!.mapping;
  const byName = (name: string | null | undefined) => {
    if (!name) return '';
    const i = layout.columns.get(headerKey(name));
    return i === undefined ? '' : (cells[i] ?? '');
  };
  const problems: string[] = [];
  const dateRaw = byName(m.date);
  const date = parseBillDate(dateRaw, m.date_format);
  if (!date) problems.push(`date "${dateRaw.trim()}" is not a date in the format ${m.date_format}`);
  let signed: number | null = null;
  if (m.amount) {
    const raw = byName(m.amount);
    const v = parseBillAmount(raw);
    if (v === null) problems.push(`amount "${raw.trim()}" is not an amount with at most 2 decimals`);
    else signed = m.sign === 'positive_is_expense' ? -v : v;
  } else {
    const out = byName(m.debit).trim();
    const inn = byName(m.credit).trim();
    const o = out === '' ? 0 : parseBillAmount(out);
    const i = inn === '' ? 0 : parseBillAmount(inn);
    if (o === null) problems.push(`debit "${out}" is not an amount with at most 2 decimals`);
    if (i === null) problems.push(`credit "${inn}" is not an amount with at most 2 decimals`);
    if (o !== null && i !== null) signed = Math.abs(i) - Math.abs(o);
  }
  if (problems.length) return { ok: false, row, message: problems.join('; ') };
  const description = cleanText(byName(m.description));
  const counterparty = cleanText(byName(m.counterparty), 100);
  return {
    ok: true,
    line: {
      row,
      date: date!,
      direction: signed! < 0 ? 'out' : 'in',
      cents: Math.abs(signed!),
      counterparty,
      item: description,
      type: '',
      method: '',
      status: '',
      externalId: m.external_id ? cleanId(byName(m.external_id)) : null,
      merchantId: null,
      remark: '',
      refundedCents: 0,
    },
  };
}
