import type { BillLine, Layout } from './bill.formats.ts';

/*
 * What a bill line means for the books: an expense, an income, a move between the holder's own
 * accounts (余额宝, 零钱通, a card paying a credit card...), a refund of an earlier purchase, or
 * nothing at all (a closed or failed trade). Pure functions; the service adds what needs the
 * database (account mapping, duplicates, categories).
 */

export type RowKind = 'expense' | 'income' | 'transfer';
export type Decision = 'import' | 'duplicate' | 'skip' | 'transfer';
/** why a row is not imported as proposed */
/**
 * `ledger_transfer`: a transfer or adjustment of our own export, which Import & export (/api/import) brings in with its
 * accounts
 */
/**
 * `duplicate_in_file`: the same payment (id, time, amount and counterparty) twice in the file; `refund_unpaired`: a
 * refund whose purchase is in neither the file nor the books, booked as an income; `currency`: the row's currency has
 * no account; `forced`: imported by the person although it looked like a duplicate; `fee`: the service fee of a
 * withdrawal
 */
export type Reason =
  | 'closed'
  | 'refunded'
  | 'zero'
  | 'duplicate'
  | 'duplicate_in_file'
  | 'no_account'
  | 'user'
  | 'refund_of_skipped'
  | 'refund_unpaired'
  | 'ledger_transfer'
  | 'currency'
  | 'forced';

export interface Meaning {
  kind: RowKind;
  decision: Decision;
  reason: Reason | null;
  /** a refund: income that reduces an earlier purchase */
  refund: boolean;
  amountMinor: number;
  /** the account (by payment method) the money leaves (expense, transfer) or enters (income) */
  method: string;
  /** a transfer's destination, by payment method */
  toMethod: string | null;
  /** a service fee taken on top of a transfer (WeChat 零钱提现): an expense of its own from `method` */
  feeMinor?: number;
}

/** A service fee written in a remark: 服务费¥0.10. */
export function feeOf(remark: string): number {
  const m = /服务费\s*[¥￥]?\s*(\d+(?:\.\d{1,2})?)/.exec(remark.normalize('NFKC'));
  return m ? Math.round(Number(m[1]) * 100) : 0;
}

/** A credit card's account key from a repayment's counterparty: 建设银行信用卡还款 -> 建设银行信用卡. */
export function creditCardKey(counterparty: string): string {
  const bank = counterparty.replace(/还款$/, '').replace(/信用卡$/, '');
  return bank ? `${bank}信用卡` : '信用卡';
}

/** Alipay's 交易分类 (and a few WeChat 交易类型) as the icon of a default category. */
const TYPE_ICONS: [RegExp, string][] = [
  [/餐饮|美食|外卖/, 'food'],
  [/交通|出行|加油|停车|爱车/, 'transport'],
  [/日用|百货|服饰|数码|电器|美容|美发|母婴|家居|网购|超市|购物/, 'shopping'],
  [/住房|物业|房租/, 'housing'],
  [/充值缴费|水电|通讯/, 'utilities'],
  [/文化|休闲|娱乐|运动|户外|游戏/, 'entertainment'],
  [/医疗|健康|药/, 'health'],
  [/教育|培训/, 'education'],
  [/酒店|旅游|旅行/, 'travel'],
];
const INCOME_TYPE_ICONS: [RegExp, string][] = [
  [/工资|薪/, 'salary'],
  [/收益|理财|投资/, 'investment'],
];

/** The icon of the default category a bill's own type names, or null. */
export function typeIcon(type: string, kind: 'expense' | 'income'): string | null {
  for (const [re, icon] of kind === 'expense' ? TYPE_ICONS : INCOME_TYPE_ICONS) if (re.test(type)) return icon;
  return null;
}

/** Statuses of trades that never moved money (or moved it back at once). */
const CLOSED = [
  '交易关闭',
  '支付失败',
  '已关闭',
  '失败',
  '已退还',
  '已撤销',
  '未支付',
  '等待付款',
  '已退回',
  '交易取消',
];

export function isClosed(status: string): boolean {
  return CLOSED.some((s) => status.includes(s));
}

/**
 * A payment method as an account key: NFKC (full-width brackets), spaces removed, the first of
 * several ("花呗&红包"), and the wallets' own balances named after their wallet so that WeChat's
 * 零钱 and Alipay's 余额 stay apart.
 */
export function methodKey(raw: string, variant: Layout['variant']): string {
  // a bill names a handful of payment methods, a hundred thousand times
  const key = `${variant}\u0000${raw}`;
  const known = METHOD_KEYS.get(key);
  if (known !== undefined) return known;
  const out = readMethodKey(raw, variant);
  if (METHOD_KEYS.size >= 1000) METHOD_KEYS.clear();
  METHOD_KEYS.set(key, out);
  return out;
}

const METHOD_KEYS = new Map<string, string>();

function readMethodKey(raw: string, variant: Layout['variant']): string {
  let s = raw.normalize('NFKC').replace(/\s+/g, '').split('&')[0]!;
  if (s === '/' || s === '-') s = '';
  if (variant === 'wechat') {
    if (s === '' || s === '零钱') return '微信零钱';
    if (s === '零钱通') return '微信零钱通';
  }
  if (variant === 'alipay_app') {
    if (s === '' || s === '余额' || s === '账户余额' || s === '支付宝余额') return '支付宝余额';
  }
  if (variant === 'alipay_web' && s === '') return '支付宝';
  return s.slice(0, 50);
}

/** The last four digits in a card's name, e.g. 招商银行储蓄卡(1234) -> 1234. */
export function cardTail(key: string): string | null {
  const m = /\((\d{4})\)$/.exec(key) ?? /(\d{4})$/.exec(key);
  return m ? m[1]! : null;
}

/**
 * The meaning of a payment out of or into `method`, built whole: a spread of a shared part and the
 * rest costs kilobytes of garbage, a hundred thousand times over a large bill.
 */
function paid(
  kind: RowKind,
  decision: Decision,
  reason: Reason | null,
  refund: boolean,
  amountMinor: number,
  method: string,
): Meaning {
  return { kind, decision, reason, refund, amountMinor, method, toMethod: null };
}

function transfer(amountMinor: number, from: string, to: string): Meaning {
  return {
    kind: 'transfer',
    decision: 'transfer',
    reason: null,
    refund: false,
    amountMinor,
    method: from,
    toMethod: to,
  };
}

function isRefundLine(line: BillLine): boolean {
  return line.type.includes('退款') || line.item.startsWith('退款') || line.status === '退款成功';
}

/** The meaning of one line of a WeChat or Alipay bill (mapped bank lines: see mappedMeaning). */
export function meaningOf(line: BillLine, variant: Layout['variant']): Meaning {
  const method = methodKey(line.method, variant);
  const amountMinor = line.amountMinor - line.refundedMinor;
  const kindOf = line.direction === 'in' ? 'income' : 'expense';
  if (isClosed(line.status)) return paid(kindOf, 'skip', 'closed', false, amountMinor, method);
  if (line.amountMinor === 0) return paid(kindOf, 'skip', 'zero', false, amountMinor, method);
  if (amountMinor <= 0) return paid('expense', 'skip', 'refunded', false, line.amountMinor, method);

  // refunds come as income (WeChat) or as 不计收支 (Alipay); either way money back for a purchase
  if (line.direction !== 'out' && isRefundLine(line)) return paid('income', 'import', null, true, amountMinor, method);
  if (line.direction === 'out') return paid('expense', 'import', null, false, amountMinor, method);
  // income lands where the bill says, else in the wallet itself
  if (line.direction === 'in') return paid('income', 'import', null, false, amountMinor, method);
  return neutralMeaning(line, variant, method, amountMinor);
}

/** 不计收支 / "/" lines: moves between the holder's own accounts, or earnings kept inside a fund. */
function neutralMeaning(line: BillLine, variant: Layout['variant'], method: string, amountMinor: number): Meaning {
  const text = `${line.type} ${line.item} ${line.counterparty}`;
  const counterparty = line.counterparty.normalize('NFKC').replace(/\s+/g, '');
  if (variant === 'wechat') {
    const t = line.type;
    if (t.includes('零钱充值')) return transfer(amountMinor, method, '微信零钱');
    if (t.includes('零钱提现')) {
      // the bill shows the gross: what reached the card, plus the fee WeChat kept
      const fee = feeOf(line.remark);
      if (fee > 0 && fee < amountMinor) return { ...transfer(amountMinor - fee, '微信零钱', method), feeMinor: fee };
      return transfer(amountMinor, '微信零钱', method);
    }
    if (t.startsWith('转入零钱通')) return transfer(amountMinor, method, '微信零钱通');
    if (t.startsWith('零钱通转出')) {
      const to = t.replace(/^零钱通转出-?到?/, '');
      return transfer(amountMinor, '微信零钱通', to === '' || to === '零钱' ? '微信零钱' : methodKey(to, variant));
    }
    if (t.includes('信用卡还款')) return transfer(amountMinor, method, creditCardKey(counterparty));
    if (t.includes('理财通')) return transfer(amountMinor, method, '理财通');
    return transfer(amountMinor, method, counterparty || '微信零钱');
  }
  // Alipay: earnings of 余额宝 are income that stays in it
  if (text.includes('收益'))
    return {
      kind: 'income',
      decision: 'import',
      reason: null,
      refund: false,
      amountMinor,
      method: counterparty === '余额宝' || method === '余额宝' ? '余额宝' : method,
      toMethod: null,
    };
  // a fund sold into 余额宝 or the balance: money leaves the fund account
  if (/卖出至|赎回/.test(line.item)) {
    const fund = counterparty.startsWith('蚂蚁财富') ? '蚂蚁财富' : counterparty || '基金';
    const to = line.item.includes('余额宝') ? '余额宝' : method === '余额宝' ? '余额宝' : method;
    return transfer(amountMinor, fund, to);
  }
  if (/买入|申购/.test(line.item) && counterparty.startsWith('蚂蚁财富'))
    return transfer(amountMinor, method, '蚂蚁财富');
  if (text.includes('余额宝')) {
    // the bill names 余额宝 itself as the method of a move into it (余额宝-自动转入, 转账收款到余额宝): the
    // money comes from the Alipay balance
    const other = method === '余额宝' ? '支付宝余额' : method;
    if (line.item.includes('转出') || line.item.includes('提现')) return transfer(amountMinor, '余额宝', other);
    return transfer(amountMinor, other, '余额宝');
  }
  if (text.includes('花呗') && text.includes('还款'))
    return transfer(amountMinor, method === '花呗' ? '支付宝余额' : method, '花呗');
  if (text.includes('信用卡还款')) return transfer(amountMinor, method, creditCardKey(counterparty));
  if (line.item.includes('提现')) return transfer(amountMinor, method, counterparty || '银行卡');
  if (line.item.includes('充值')) return transfer(amountMinor, method, '支付宝余额');
  return transfer(amountMinor, method, counterparty || '支付宝余额');
}

/** A mapped bank line: negative is money out of the preset's account, positive money in. */
export function mappedMeaning(line: BillLine): Meaning {
  const kind = line.direction === 'out' ? 'expense' : 'income';
  if (line.amountMinor === 0)
    return { kind, decision: 'skip', reason: 'zero', refund: false, amountMinor: 0, method: '', toMethod: null };
  return {
    kind,
    decision: 'import',
    reason: null,
    refund: false,
    amountMinor: line.amountMinor,
    method: '',
    toMethod: null,
  };
}

/** The note a row proposes: who, and for what. */
export function noteOf(line: BillLine): string {
  const { counterparty, item } = line;
  const s = item && item !== counterparty ? (counterparty ? `${counterparty} ${item}` : item) : counterparty;
  // at most 200 characters: a text of at most 200 code units (every row of a usual bill) has no more
  if (s.length <= 200) return s;
  const chars = [...s];
  return chars.length > 200 ? chars.slice(0, 200).join('') : s;
}

// ---- refunds ----

/** What refund pairing needs to know of a refund line. */
export interface RefundRef {
  row: number;
  date: string;
  /** HH:MM:SS, or empty when the bill gives no time */
  time?: string;
  amountMinor: number;
  counterparty: string;
  externalId: string | null;
  merchantId: string | null;
}

/** What refund pairing needs to know of a purchase line. */
export interface PurchaseRef extends RefundRef {
  /** the purchase itself is skipped (closed) */
  skipped: boolean;
  /** its status mentions a refund (已全额退款, 已退款￥5.00) */
  refundMarked: boolean;
}

/**
 * The prefixes under which a refund's original can be filed: Alipay numbers a refund after its
 * trade (trade number, then a separator or more digits).
 */
export function refundOriginIds(externalId: string | null): string[] {
  if (!externalId) return [];
  const out = new Set<string>();
  const sep = externalId.split(/[_*#-]/)[0]!;
  if (sep && sep !== externalId) out.add(sep);
  if (externalId.length > 28 && /^\d{28}/.test(externalId)) out.add(externalId.slice(0, 28));
  return [...out];
}

/** A purchase made no later than the refund: the dates, and on the same day the times when both are known. */
function notAfter(p: PurchaseRef, r: RefundRef): boolean {
  if (p.date !== r.date) return p.date < r.date;
  return !p.time || !r.time || p.time <= r.time;
}

/** a refund names its purchase by counterparty only within this many days */
const REFUND_WINDOW_DAYS = 366;
const DAY_MS = 86_400_000;
const within = (p: PurchaseRef, r: RefundRef) => Date.parse(r.date) - Date.parse(p.date) < REFUND_WINDOW_DAYS * DAY_MS;

/** Which of two purchases a refund rather reduces: one marked as refunded, then the later one. */
const later = (a: PurchaseRef, b: PurchaseRef) =>
  Number(a.refundMarked) - Number(b.refundMarked) ||
  a.date.localeCompare(b.date) ||
  (a.time ?? '').localeCompare(b.time ?? '') ||
  a.row - b.row;

/** The purchase a refund names by number: Alipay's trade number before the refund's own, WeChat's merchant number. */
function namedBy(p: PurchaseRef, r: RefundRef): boolean {
  if (p.externalId && refundOriginIds(r.externalId).includes(p.externalId)) return true;
  // a WeChat red packet's or transfer's refund carries the original's 商户单号 as its 交易单号
  if (p.merchantId && r.externalId === p.merchantId) return true;
  return !!p.merchantId && r.merchantId === p.merchantId;
}

/**
 * The one rule that pairs a refund with its purchase, for the purchases of the file and those of the
 * books alike: a purchase it names by number, else the purchase of the same counterparty made no
 * later than the refund (within a year) with enough left to refund, preferring one marked as
 * refunded, then the latest. `left` is what each purchase can still absorb.
 */
export function purchaseFor(
  r: RefundRef,
  candidates: readonly PurchaseRef[],
  left: (p: PurchaseRef) => number,
): PurchaseRef | undefined {
  const named = candidates.find((p) => namedBy(p, r));
  if (named) return left(named) >= r.amountMinor ? named : undefined;
  if (!r.counterparty) return undefined;
  let best: PurchaseRef | undefined;
  for (const p of candidates) {
    if (p.counterparty !== r.counterparty || !notAfter(p, r) || !within(p, r) || left(p) < r.amountMinor) continue;
    if (!best || later(p, best) > 0) best = p;
  }
  return best;
}

/**
 * Pairs refunds with purchases of the same file by the rule of purchaseFor; each purchase absorbs
 * refunds up to its amount.
 */
export function pairRefunds(purchases: PurchaseRef[], refunds: RefundRef[]): Map<number, PurchaseRef> {
  if (!refunds.length) return new Map();
  const byCounterparty = new Map<string, PurchaseRef[]>();
  const numbered: PurchaseRef[] = [];
  for (const p of purchases) {
    if (p.externalId || p.merchantId) numbered.push(p);
    const list = byCounterparty.get(p.counterparty);
    if (list) list.push(p);
    else byCounterparty.set(p.counterparty, [p]);
  }
  const byId = new Map<string, PurchaseRef>();
  const byMerchant = new Map<string, PurchaseRef>();
  for (const p of numbered) {
    if (p.externalId && !byId.has(p.externalId)) byId.set(p.externalId, p);
    if (p.merchantId && !byMerchant.has(p.merchantId)) byMerchant.set(p.merchantId, p);
  }
  const left = new Map<number, number>(purchases.map((p) => [p.row, p.amountMinor]));
  const leftOf = (p: PurchaseRef) => left.get(p.row) ?? 0;
  const out = new Map<number, PurchaseRef>();
  for (const r of refunds) {
    // the candidates a refund can name, looked up rather than scanned: a bill has thousands of purchases
    const named = [
      ...refundOriginIds(r.externalId).map((id) => byId.get(id)),
      r.externalId ? byMerchant.get(r.externalId) : undefined,
      r.merchantId ? byMerchant.get(r.merchantId) : undefined,
    ].filter((p): p is PurchaseRef => p !== undefined);
    const p = purchaseFor(r, named.length ? named : (byCounterparty.get(r.counterparty) ?? []), leftOf);
    if (!p) continue;
    left.set(p.row, leftOf(p) - r.amountMinor);
    out.set(r.row, p);
  }
  return out;
}
