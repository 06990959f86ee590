/**
 * Layout readers: recognised text lines to the fields of a draft. Pure: the same lines give the
 * same draft, so the readers are tested on lines alone and the OCR on images separately.
 *
 * Each screen or paper names its facts with a label beside or above the value (支付时间 ·
 * 2024年3月15日 12:34:56, TOTAL £12.40), except the amount of a payment screen, which is the
 * largest figure on it. The readers therefore work on rows (boxes on one visual line, left to
 * right), find labels first and fall back to the layout's convention.
 */

export type TextLine = {
  text: string;
  confidence: number;
  box: { x: number; y: number; width: number; height: number };
};

export type Layout =
  'wechat' | 'alipay' | 'meituan' | 'taobao' | 'jd' | 'bank' | 'invoice' | 'receipt' | 'receipt_en' | 'unknown';

export type DraftKind = 'expense' | 'income';

export type Field<T> = { value: T; confidence: number };

export type ReadFields = {
  layout: Layout;
  amount: Field<string | null>;
  currency: Field<string | null>;
  date: Field<string | null>;
  time: Field<string | null>;
  counterparty: Field<string | null>;
  payment_method: Field<string | null>;
  order_id: Field<string | null>;
  kind: Field<DraftKind>;
};

type Row = { text: string; cells: TextLine[]; y: number; height: number; confidence: number };

/** Boxes whose vertical centres are within half a line of each other form one row, read left to right. */
export function toRows(lines: readonly TextLine[]): Row[] {
  const sorted = [...lines].sort((a, b) => a.box.y + a.box.height / 2 - (b.box.y + b.box.height / 2));
  const rows: TextLine[][] = [];
  for (const line of sorted) {
    const mid = line.box.y + line.box.height / 2;
    const row = rows.at(-1);
    const last = row?.at(-1);
    if (
      row &&
      last &&
      Math.abs(last.box.y + last.box.height / 2 - mid) < Math.min(last.box.height, line.box.height) * 0.5
    )
      row.push(line);
    else rows.push([line]);
  }
  return rows.map((cells) => {
    cells.sort((a, b) => a.box.x - b.box.x);
    return {
      cells,
      text: cells.map((c) => clean(c.text)).join(' '),
      y: Math.min(...cells.map((c) => c.box.y)),
      height: Math.max(...cells.map((c) => c.box.height)),
      confidence: Math.min(...cells.map((c) => c.confidence)),
    };
  });
}

/** Full-width forms to ASCII (OCR reads ￥ ： （ as often as ¥ : (), runs of spaces to one. */
export function clean(s: string): string {
  return s.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

const SIGNS: [RegExp, string][] = [
  [/[¥￥]|元|RMB|CNY|人民币/i, 'CNY'],
  [/£|GBP/, 'GBP'],
  [/€|EUR/, 'EUR'],
  [/US\$|USD|\$/, 'USD'],
];

/** A money figure: optional sign and currency, digits with thousands commas, exactly two decimals. */
const MONEY = /([-+−])?\s*(¥|￥|£|€|US\$|\$|RMB|CNY|GBP|EUR|USD)?\s*(\d{1,3}(?:,\d{3})+|\d+)[.,](\d{2})(?!\d)/;
const MONEY_G = new RegExp(MONEY.source, 'g');

type Money = { amount: string; currency: string | null; negative: boolean; positive: boolean };

function moneyIn(text: string): Money[] {
  const out: Money[] = [];
  for (const m of text.matchAll(MONEY_G)) {
    const whole = m[3]!.replace(/,/g, '');
    // a date (2024.03.15) or a clock (12.30) is not money: money has at most 9 whole digits here
    if (whole.length > 9 || (whole.length > 1 && whole.startsWith('0'))) continue;
    const sign = m[2] ?? '';
    out.push({
      amount: `${BigInt(whole)}.${m[4]}`,
      currency: sign ? currencyOf(sign) : null,
      negative: m[1] === '-' || m[1] === '−',
      positive: m[1] === '+',
    });
  }
  return out;
}

function currencyOf(text: string): string | null {
  for (const [re, code] of SIGNS) if (re.test(text)) return code;
  return null;
}

/** Labels, strongest first within each list; matched at the start of a row (after NFKC). */
const AMOUNT_LABELS = [
  '实付款',
  '实付金额',
  '实付',
  '应付金额',
  '应付总额',
  '应付',
  '价税合计',
  '应收',
  '合计金额',
  '合计',
  '总计',
  '订单金额',
  '转账金额',
  '交易金额',
  '付款金额',
  '支付金额',
  'AMOUNT DUE',
  'BALANCE DUE',
  'GRAND TOTAL',
  'TOTAL',
];
/** money the paper states that is not what was paid */
const NOT_AMOUNT =
  /找零|实收|收现|现金收|CHANGE|CASH TENDERED|TENDERED|SUBTOTAL|SUB TOTAL|小计|优惠|折扣|税额|VAT|TAX|TIP\b/i;
const TIME_LABELS =
  /^(支付时间|付款时间|交易时间|创建时间|下单时间|转账时间|开票日期|日期|时间|PAYMENT TIME|TRANSACTION TIME|TRANSFER TIME|ORDER TIME|CREATED|DATE|TIME)/i;
const METHOD_LABELS =
  /^(支付方式|付款方式|付款卡|支付卡|扣款方式|付款账户|转出账户|PAYMENT METHOD|PAY WITH|PAID BY|PAID WITH|FROM ACCOUNT)/i;
const ORDER_LABELS =
  /^(交易单号|订单号码|订单号|订单编号|交易号|流水号|TRANSACTION NO\.?|TRANSACTION ID|ORDER NO\.?|ORDER ID|REFERENCE NO\.?|RECEIPT NO\.?)/i;
const PARTY_LABELS =
  /^(商户全称|收款方全称|收款方|收款人|对方户名|对方账户|收款户名|商家|店铺|MERCHANT|PAYEE|RECIPIENT)/i;

/** Words that are the screen's own furniture, never a merchant. */
const FURNITURE =
  /^(支付成功|付款成功|交易成功|转账成功|收款成功|账单详情|订单详情|订单已完成|已完成|完成|交易完成|当前状态.*|返回|更多|全部账单|联系商家|申请售后|再来一单|待评价|微信支付|支付宝|(PAYMENT|TRANSFER) SUCCESSFUL|COMPLETED|ORDER COMPLETED|PAID|STATUS:?.*|(TRANSACTION|BILL|TRANSFER) DETAILS|WECHAT PAY|ALIPAY|\d{1,2}:\d{2}.*)$/i;
/** an app's own title bar over an order: 美团 · 订单详情, Taobao · Order */
const TITLE_BAR = /美团|淘宝|天猫|京东|订单详情|转账详情|^(MEITUAN|TAOBAO|JD\.COM)\b/i;

export function readLayout(lines: readonly TextLine[]): ReadFields {
  const rows = toRows(lines).filter((r) => r.text !== '');
  const all = rows.map((r) => r.text).join('\n');
  const layout = layoutOf(all);
  const currency = currencyFor(all, layout);
  const amount = amountOf(rows);
  const when = dateOf(rows, currency.value);
  return {
    layout,
    amount: amount.field,
    currency,
    date: when.date,
    time: when.time,
    counterparty: counterpartyOf(rows, layout, amount.row),
    payment_method: labelled(rows, METHOD_LABELS, (v) => cleanMethod(v)),
    order_id: labelled(rows, ORDER_LABELS, (v) => {
      const id = v.replace(/[\s:：#]/g, '');
      return /^[A-Za-z0-9-]{6,64}$/.test(id) ? id : null;
    }),
    kind: kindOf(all, amount.money),
  };
}

function layoutOf(text: string): Layout {
  if (/增值税|电子发票|价税合计|销售方/.test(text)) return 'invoice';
  if (/美团|Meituan/i.test(text)) return 'meituan';
  if (/淘宝|天猫|Taobao/i.test(text)) return 'taobao';
  if (/京东|JD\.COM/i.test(text)) return 'jd';
  if (/支付宝|花呗|余额宝|账户余额|Alipay/i.test(text)) return 'alipay';
  if (/微信|零钱|交易单号|商户单号|WeChat/i.test(text)) return 'wechat';
  if (/转账|收款人|收款账户|对方户名|银行|TRANSFER/i.test(text)) return 'bank';
  if (/合计|应收|实付|找零|小票|收银/.test(text)) return 'receipt';
  if (/TOTAL|SUBTOTAL|RECEIPT|THANK YOU/i.test(text)) return 'receipt_en';
  return 'unknown';
}

function currencyFor(text: string, layout: Layout): Field<string | null> {
  for (const [re, code] of SIGNS.slice(1)) if (re.test(text)) return { value: code, confidence: 0.9 };
  if (SIGNS[0]![0].test(text) || /[\u4e00-\u9fff]/.test(text)) return { value: 'CNY', confidence: 0.9 };
  return { value: layout === 'unknown' ? null : 'CNY', confidence: 0.3 };
}

function amountOf(rows: Row[]): { field: Field<string | null>; row: Row | null; money: Money | null } {
  // 1. a labelled amount, the strongest label first (on its row, or the row under a label alone)
  for (const label of AMOUNT_LABELS) {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const upper = row.text.toUpperCase();
      const at = upper.indexOf(label);
      if (at < 0 || (at > 0 && /[A-Z]/.test(upper[at - 1]!))) continue;
      if (label === 'TOTAL' && /SUB ?TOTAL/.test(upper)) continue;
      const found = moneyIn(row.text.slice(at + label.length)).at(-1) ?? moneyIn(rows[i + 1]?.text ?? '').at(-1);
      if (found) return { field: { value: found.amount, confidence: row.confidence * 0.95 }, row, money: found };
    }
  }
  // 2. a payment screen's amount is its largest figure
  let best: { money: Money; row: Row; height: number } | null = null;
  for (const row of rows) {
    if (NOT_AMOUNT.test(row.text)) continue;
    for (const cell of row.cells) {
      const t = clean(cell.text);
      const m = moneyIn(t);
      if (m.length !== 1) continue;
      // a figure that is the whole cell (¥28.50, -28.50), not one inside a sentence
      if (t.replace(MONEY, '').replace(/[\s元]/g, '').length > 2) continue;
      if (!best || cell.box.height > best.height) best = { money: m[0]!, row, height: cell.box.height };
    }
  }
  if (best)
    return {
      field: { value: best.money.amount, confidence: best.row.confidence * 0.85 },
      row: best.row,
      money: best.money,
    };
  return { field: { value: null, confidence: 0 }, row: null, money: null };
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

function validDate(y: number, m: number, d: number): string | null {
  if (y < 2000 || y > 2099 || m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

type FoundDate = { date: string | null; at: number; length: number };

/** The first date in a text and where it stands (so that the time can be read from the rest). */
function findDateAt(text: string, currency: string | null): FoundDate | null {
  // the day may run into the time after it too (2024-06-0316:40)
  let m = /(20\d{2})\s*[年/.-]\s*(\d{1,2})\s*[月/.-]\s*(\d{2}(?=\d{1,2}:\d{2})|\d{1,2}(?!\d))\s*日?/.exec(text);
  if (m) return { date: validDate(+m[1]!, +m[2]!, +m[3]!), at: m.index, length: m[0].length };
  // a four-digit year may run into the time after it when the OCR drops the space (02/01/202409:17)
  m = /(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-](20\d{2}(?=\d{1,2}:)|20\d{2}(?!\d)|\d{2}(?!\d))/.exec(text);
  if (m) {
    const y = m[3]!.length === 2 ? 2000 + +m[3]! : +m[3]!;
    // the United States write month first; the pound and euro countries day first
    const [mo, d] = currency === 'USD' ? [+m[1]!, +m[2]!] : [+m[2]!, +m[1]!];
    return { date: validDate(y, mo, d), at: m.index, length: m[0].length };
  }
  const upper = text.toUpperCase();
  m = /(\d{1,2})\s*([A-Z]{3})[A-Z]*\.?\s*,?\s*(20\d{2})/.exec(upper);
  if (m && MONTHS.includes(m[2]!))
    return { date: validDate(+m[3]!, MONTHS.indexOf(m[2]!) + 1, +m[1]!), at: m.index, length: m[0].length };
  m = /([A-Z]{3})[A-Z]*\.?\s*(\d{1,2}),?\s*(20\d{2})/.exec(upper);
  if (m && MONTHS.includes(m[1]!))
    return { date: validDate(+m[3]!, MONTHS.indexOf(m[1]!) + 1, +m[2]!), at: m.index, length: m[0].length };
  return null;
}

const findDate = (text: string, currency: string | null) => findDateAt(text, currency)?.date ?? null;

function findTime(text: string): string | null {
  const m = /(?<![\d.])([01]?\d|2[0-3])\s*:\s*([0-5]\d)(?:\s*:\s*([0-5]\d))?(?!\d)/.exec(text);
  if (!m) return null;
  let h = +m[1]!;
  if (/\bPM\b/i.test(text.slice(m.index)) && h < 12) h += 12;
  if (/\bAM\b/i.test(text.slice(m.index)) && h === 12) h = 0;
  return `${String(h).padStart(2, '0')}:${m[2]}:${m[3] ?? '00'}`;
}

function dateOf(rows: Row[], currency: string | null): { date: Field<string | null>; time: Field<string | null> } {
  // labelled first (支付时间 ...), then the first row holding a date (a receipt's header or footer)
  const ordered = [...rows.filter((r) => TIME_LABELS.test(r.text)), ...rows];
  for (const [i, row] of ordered.entries()) {
    const found = findDateAt(row.text, currency);
    const date = found?.date;
    if (!found || !date) continue;
    const time = findTime(`${row.text.slice(0, found.at)} ${row.text.slice(found.at + found.length)}`);
    const strength = TIME_LABELS.test(row.text) && i < rows.length ? 0.95 : 0.8;
    return {
      date: { value: date, confidence: row.confidence * strength },
      time: { value: time, confidence: time ? row.confidence * strength : 0 },
    };
  }
  return { date: { value: null, confidence: 0 }, time: { value: null, confidence: 0 } };
}

/** The value of a labelled row: the rest of its row, else the row under a label standing alone. */
function labelled(rows: Row[], label: RegExp, accept: (v: string) => string | null): Field<string | null> {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const m = label.exec(row.text);
    if (!m) continue;
    const rest = row.text.slice(m[0].length).replace(/^[\s:：]+/, '');
    const value = accept(rest || rows[i + 1]?.text || '');
    if (value) return { value, confidence: row.confidence * 0.95 };
  }
  return { value: null, confidence: 0 };
}

function cleanMethod(v: string): string | null {
  const s = v.replace(/\s*>$/, '').trim();
  return s.length >= 2 && s.length <= 40 ? s : null;
}

function counterpartyOf(rows: Row[], layout: Layout, amountRow: Row | null): Field<string | null> {
  const accept = (v: string) => {
    const s = v.replace(/\s*>$/, '').trim();
    return s.length >= 2 && s.length <= 60 && !moneyIn(s).length ? s : null;
  };
  if (layout === 'invoice') {
    // the seller's block comes after 销售方; its first 名称 is the seller
    const seller = rows.findIndex((r) => /销售方|销方/.test(r.text));
    const names = rows.slice(seller >= 0 ? seller : 0).filter((r) => /名\s*称/.test(r.text));
    const pick = seller >= 0 ? names[0] : names.at(-1);
    const value = pick ? accept(pick.text.replace(/^.*?名\s*称\s*[:：]?\s*/, '')) : null;
    if (value) return { value, confidence: pick!.confidence * 0.9 };
  }
  const byLabel = labelled(rows, PARTY_LABELS, accept);
  if (byLabel.value) return byLabel;
  if (layout === 'receipt' || layout === 'receipt_en') {
    // a shop's name heads its receipt
    const head = rows.find((r) => accept(r.text) && !findDate(r.text, null) && !/^(欢迎|WELCOME)/i.test(r.text));
    if (head) return { value: head.text, confidence: head.confidence * 0.8 };
  }
  if (layout === 'meituan' || layout === 'taobao' || layout === 'jd') {
    // an order names its shop first, under the app's title bar
    const head = rows.find((r) => !TITLE_BAR.test(r.text) && !FURNITURE.test(r.text) && accept(r.text));
    if (head) return { value: head.text, confidence: head.confidence * 0.8 };
  }
  if (amountRow) {
    // a payment screen names the payee just above its amount
    const at = rows.indexOf(amountRow);
    for (let i = at - 1; i >= 0 && i >= at - 2; i--) {
      const t = rows[i]!.text;
      if (FURNITURE.test(t)) continue;
      const value = accept(t);
      if (value) return { value, confidence: rows[i]!.confidence * 0.85 };
    }
  }
  return { value: null, confidence: 0 };
}

function kindOf(text: string, money: Money | null): Field<DraftKind> {
  if (money?.positive || /收款成功|已收款|退款成功|已存入|转入成功|收入/.test(text))
    return { value: 'income', confidence: 0.8 };
  return { value: 'expense', confidence: money?.negative ? 0.95 : 0.8 };
}
