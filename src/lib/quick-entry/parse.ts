import { findDates } from './dates.ts';
import { findConcepts, type Concept } from './lexicon.ts';
import { CN_NUMERAL_CHARS, readDecimal, toHundredths } from './numbers.ts';

/**
 * One line of text to a record: "昨天 打车 32 微信", "午饭 三十五块", "coffee 4.5 yesterday visa",
 * "工资 8000 收入". Pure and synchronous, so that the server and the web client (offline too) read
 * a line the same way. Each part found is cut out of the line; what is left is the note.
 */

export type QuickKind = 'expense' | 'income' | 'transfer' | 'refund';

export interface AccountLike {
  id: number;
  name: string;
  type?: string | null;
  archived?: boolean;
}

export interface QuickEntryContext {
  /** the caller's today, YYYY-MM-DD, in their time zone */
  today: string;
  /** the caller's accounts, to find one by name or by a common alias (微信, visa, 现金…) */
  accounts?: readonly AccountLike[];
}

export interface QuickEntry {
  /** null when the line gives no clue (no kind word, no known category word) */
  kind: QuickKind | null;
  /** major units with at most 2 decimals; null when the line has no amount */
  amount: number | null;
  /** hundredths of `amount` (exact) */
  amount_cents: number | null;
  /** ISO 4217 code when the line names a currency (元, $, 美元, usd…), else null */
  currency: string | null;
  /** the date the line names, else today */
  date: string;
  /** true when the line named the date */
  date_given: boolean;
  account_id: number | null;
  /** a transfer's receiving account, when the line names two */
  to_account_id: number | null;
  /** the lexicon concept of the words (food, transport…), null when no word is known */
  concept: string | null;
  /** what is left of the line, trimmed; '' when nothing is */
  note: string;
}

const CN = `[${CN_NUMERAL_CHARS}]+`;
const DIGIT = `[0-9零〇一二两三四五六七八九]`;
const NUM = `(?:\\d+(?:\\.\\d+)?|${CN})`;
const MULT: Record<string, number> = { 万: 10_000, w: 10_000, 千: 1000, k: 1000 };

const CURRENCY_WORDS: [string, string][] = [
  ['块钱', 'CNY'],
  ['块', 'CNY'],
  ['元', 'CNY'],
  ['圆', 'CNY'],
  ['人民币', 'CNY'],
  ['rmb', 'CNY'],
  ['cny', 'CNY'],
  ['yuan', 'CNY'],
  ['kuai', 'CNY'],
  ['美元', 'USD'],
  ['美金', 'USD'],
  ['美刀', 'USD'],
  ['刀', 'USD'],
  ['usd', 'USD'],
  ['dollars', 'USD'],
  ['dollar', 'USD'],
  ['bucks', 'USD'],
  ['buck', 'USD'],
  ['欧元', 'EUR'],
  ['eur', 'EUR'],
  ['euros', 'EUR'],
  ['euro', 'EUR'],
  ['英镑', 'GBP'],
  ['英磅', 'GBP'],
  ['gbp', 'GBP'],
  ['pounds', 'GBP'],
  ['pound', 'GBP'],
  ['quid', 'GBP'],
  ['日元', 'JPY'],
  ['日圆', 'JPY'],
  ['日币', 'JPY'],
  ['円', 'JPY'],
  ['jpy', 'JPY'],
  ['yen', 'JPY'],
  ['港币', 'HKD'],
  ['港元', 'HKD'],
  ['港纸', 'HKD'],
  ['hkd', 'HKD'],
  ['澳门币', 'MOP'],
  ['澳门元', 'MOP'],
  ['mop', 'MOP'],
  ['新台币', 'TWD'],
  ['台币', 'TWD'],
  ['twd', 'TWD'],
  ['韩元', 'KRW'],
  ['韩币', 'KRW'],
  ['krw', 'KRW'],
  ['won', 'KRW'],
  ['澳元', 'AUD'],
  ['澳币', 'AUD'],
  ['aud', 'AUD'],
  ['加元', 'CAD'],
  ['加币', 'CAD'],
  ['cad', 'CAD'],
  ['新加坡元', 'SGD'],
  ['新币', 'SGD'],
  ['sgd', 'SGD'],
  ['泰铢', 'THB'],
  ['thb', 'THB'],
  ['baht', 'THB'],
  ['瑞士法郎', 'CHF'],
  ['瑞郎', 'CHF'],
  ['chf', 'CHF'],
  ['francs', 'CHF'],
  ['franc', 'CHF'],
  ['nzd', 'NZD'],
  ['myr', 'MYR'],
  ['ringgit', 'MYR'],
  ['inr', 'INR'],
  ['rupees', 'INR'],
  ['卢比', 'INR'],
  ['sek', 'SEK'],
  ['nok', 'NOK'],
  ['dkk', 'DKK'],
  ['vnd', 'VND'],
  ['越南盾', 'VND'],
  ['aed', 'AED'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['₩', 'KRW'],
  ['₹', 'INR'],
  ['฿', 'THB'],
];
const CURRENCY_OF = new Map(CURRENCY_WORDS);
const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// longest first, so that 新台币 is not read as 台币 plus a stray 新
const UNIT = `(?:${[...CURRENCY_WORDS]
  .sort(([a], [b]) => b.length - a.length)
  .map(([w]) => (/[a-z]/.test(w) ? `${w}(?![a-z])` : reEscape(w)))
  .join('|')})`;
/** A code or a currency's name written before the amount, as banks and receipts do: "EUR 45", "HKD 120", "英镑 20". */
const CODE_FIRST = `(?<![a-z])(?<pre>${CURRENCY_WORDS.filter(
  ([w, code]) => (/^[a-z]{3}$/.test(w) && w.toUpperCase() === code) || /^\p{Script=Han}{2,}$/u.test(w),
)
  .map(([w]) => w)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;
/** Symbols before the amount; the lettered ones only at the start of a word (HK$, US$, NT$). */
const SYMBOLS: Record<string, string> = {
  hk$: 'HKD',
  us$: 'USD',
  nt$: 'TWD',
  mop$: 'MOP',
  a$: 'AUD',
  au$: 'AUD',
  c$: 'CAD',
  s$: 'SGD',
  nz$: 'NZD',
  '¥': 'CNY',
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '₩': 'KRW',
  '₹': 'INR',
  '฿': 'THB',
};
const SYM = `(?<sym>(?<![a-z])(?:${Object.keys(SYMBOLS)
  .filter((k) => /[a-z]/.test(k))
  .sort((a, b) => b.length - a.length)
  .map(reEscape)
  .join('|')})|[${Object.keys(SYMBOLS)
  .filter((k) => !/[a-z]/.test(k))
  .map(reEscape)
  .join('')}])`;

const AMOUNT_RULES: { re: RegExp; rank: number }[] = [
  // 32元, 三十五块, 两块五, 十二块八毛五, ¥12, $4.50 usd, 1.5万元
  {
    re: new RegExp(
      `${SYM}?\\s*(?<n>${NUM})\\s*(?<mult>万|千|k|w)?\\s*(?<unit>${UNIT})(?:(?<j>${DIGIT})(?:(?:毛|角)(?:(?<f>${DIGIT})分?)?)?)?`,
      'g',
    ),
    rank: 3,
  },
  { re: new RegExp(`${SYM}\\s*(?<n>${NUM})(?<mult>万|千|k|w)?`, 'g'), rank: 3 },
  // EUR 45, HKD 120
  { re: new RegExp(`${CODE_FIRST}\\s*(?<n>\\d+(?:\\.\\d+)?)(?<mult>万|千|k|w)?(?![0-9a-z])`, 'g'), rank: 3 },
  // 三毛, 5毛, 三毛五, 8角
  { re: new RegExp(`(?<jn>${NUM})\\s*(?:毛|角)(?:(?<f>${DIGIT})分?)?`, 'g'), rank: 3 },
  // 1.5万, 2k, 3千
  { re: /(?<![a-z0-9.])(?<n>\d+(?:\.\d+)?)\s*(?<mult>万|千|k|w)(?![a-z])/g, rank: 3 },
  { re: /(?<![a-z0-9.])(?<n>\d+(?:\.\d+)?)(?![0-9a-z])/g, rank: 2 },
  { re: new RegExp(`(?<n>${CN})`, 'g'), rank: 1 },
];

const CJK = /[\p{Script=Han}]/u;
const CJK_NUMERAL = new RegExp(`[${CN_NUMERAL_CHARS}]`);

interface Amount {
  start: number;
  end: number;
  minor: number;
  currency: string | null;
  rank: number;
}

/** The hundredths a matched amount stands for; null when it is not a sound number. */
function minorOf(g: Record<string, string | undefined>): number | null {
  const mult = g.mult ? MULT[g.mult]! : 1;
  if (g.jn !== undefined) {
    const jiao = readDecimal(g.jn);
    if (!jiao || jiao.scale > 0) return null;
    const fen = g.f ? readDecimal(g.f) : null;
    return Number(jiao.digits) * 10 + (fen ? Number(fen.digits) : 0);
  }
  const n = readDecimal(g.n!);
  if (!n) return null;
  const main = toHundredths(n, mult);
  if (main === null) return null;
  if (g.j === undefined) return main;
  // 两块五: the digit after 块 is jiao, the one after 毛 is fen
  if (n.scale > 0) return null;
  const j = readDecimal(g.j);
  const f = g.f ? readDecimal(g.f) : null;
  return main + (j ? Number(j.digits) * 10 : 0) + (f ? Number(f.digits) : 0);
}

/** Every amount the (blanked) text may hold, ranked: with a unit or a symbol, bare Arabic, bare Chinese. */
function findAmounts(text: string): Amount[] {
  const out: Amount[] = [];
  for (const { re, rank } of AMOUNT_RULES) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      // a match that begins with spaces (an optional symbol left out) starts at its number
      const lead = m[0].length - m[0].trimStart().length;
      const start = m.index + lead;
      const end = m.index + m[0].trimEnd().length;
      if (start === end) {
        re.lastIndex = m.index + 1;
        continue;
      }
      const g = m.groups ?? {};
      const minor = minorOf(g);
      // at most 12 integer digits (the books' limit), and nothing that is not money
      if (minor === null || minor <= 0 || minor >= 1e14) continue;
      const next = text[end] ?? '';
      const prev = text[start - 1] ?? '';
      let r = rank;
      if (rank === 1) {
        // a bare Chinese numeral: not inside a word (一杯, 统一, 千岛湖), unless it is long enough to be a number said aloud
        if (CJK.test(next)) continue;
        if (CJK.test(prev) && !CJK_NUMERAL.test(prev) && [...m[0]].length < 2) continue;
      } else if (rank === 2 && CJK.test(next)) {
        // 2杯: a count, taken only when nothing better is there
        r = 0;
      } else if (g.unit === '块' && g.j === undefined && CJK.test(next) && !CJK_NUMERAL.test(next)) {
        // 一块蛋糕: 块 is a measure word here
        r = 0.5;
      }
      // ¥ is both yuan and yen: a unit word says which
      const currency = g.unit
        ? CURRENCY_OF.get(g.unit)!
        : g.sym
          ? SYMBOLS[g.sym]!
          : g.pre
            ? CURRENCY_OF.get(g.pre)!
            : g.jn !== undefined
              ? 'CNY'
              : null;
      out.push({ start, end, minor, currency, rank: r });
    }
  }
  return out;
}

interface Marker {
  kind: QuickKind;
  re: RegExp;
}
const MARKERS: Marker[] = [
  { kind: 'refund', re: /退款|退货款|退货|退钱|退回|(?<![a-z])(?:refund(?:ed)?|returned|return)(?![a-z])/g },
  { kind: 'transfer', re: /转账|转到|转入|转出|转至|(?<![a-z])(?:transfer(?:red)?|moved to|move to)(?![a-z])/g },
  { kind: 'income', re: /收入|进账|到账|入账|收到|收款|(?<![a-z])(?:income|received|got paid|earned)(?![a-z])/g },
  { kind: 'expense', re: /支出|花了|花费了?|付了|(?<![a-z])(?:spent|paid|expense)(?![a-z])/g },
];

/** Words that only join the parts ("用微信", "on visa") and say nothing as a note. */
const FILLERS = /(?:^|\s)(?:用|花|在|付|从|到|给|的|for|on|with|via|using|at|by|in|from|to|the|a)(?=\s|$)/g;

interface AccountAlias {
  words: string[];
  /** fragments of account names this alias means, lower case */
  names: string[];
  type: string;
}
const ACCOUNT_ALIASES: AccountAlias[] = [
  {
    words: ['微信支付', '微信钱包', '微信零钱', '微信', '零钱', 'wechat pay', 'wechat', 'weixin', 'wx'],
    names: ['微信', 'wechat', 'weixin'],
    type: 'e_wallet',
  },
  { words: ['支付宝', '花呗', '余额宝', 'alipay', 'zfb'], names: ['支付宝', 'alipay'], type: 'e_wallet' },
  { words: ['现金', 'cash'], names: ['现金', 'cash'], type: 'cash' },
  {
    words: ['信用卡', 'credit card', 'visa', 'mastercard', 'master card', 'amex'],
    names: ['信用卡', 'credit', 'visa', 'mastercard', 'amex'],
    type: 'credit_card',
  },
  {
    words: ['储蓄卡', '借记卡', '银行卡', 'debit card', 'debit', 'bank card'],
    names: ['储蓄卡', '借记卡', '银行卡', 'debit', 'bank'],
    type: 'debit_card',
  },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordRe = (w: string) => new RegExp(/[a-z0-9]/.test(w) ? `(?<![a-z0-9])${escape(w)}(?![a-z0-9])` : escape(w), 'g');

interface Span {
  start: number;
  end: number;
}
interface AccountHit extends Span {
  id: number;
}

/** The accounts the text names, by name (longest first) or by alias, without overlaps, in order. */
function findAccounts(text: string, accounts: readonly AccountLike[], taken: Span[]): AccountHit[] {
  const open = accounts.filter((a) => !a.archived);
  const out: AccountHit[] = [];
  const free = (s: number, e: number) =>
    !taken.some((t) => s < t.end && t.start < e) && !out.some((t) => s < t.end && t.start < e);
  // every name and alias that points to an account, the longest first ("微信支付" before the account "微信")
  const candidates: { id: number; word: string }[] = open
    .map((a) => ({ id: a.id, word: lower(a.name.normalize('NFKC').trim()) }))
    .filter((x) => x.word.length > 0);
  for (const al of ACCOUNT_ALIASES) {
    const target =
      open.find((a) => al.names.some((n) => lower(a.name.normalize('NFKC')).includes(n))) ??
      (open.filter((a) => a.type === al.type).length === 1 ? open.find((a) => a.type === al.type) : undefined);
    if (target) candidates.push(...al.words.map((word) => ({ id: target.id, word })));
  }
  candidates.sort((x, y) => y.word.length - x.word.length);
  for (const { id, word } of candidates) {
    const re = wordRe(word);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (free(m.index, m.index + m[0].length)) out.push({ id, start: m.index, end: m.index + m[0].length });
    }
  }
  return out.sort((x, y) => x.start - y.start);
}

/** Lower case without changing the length (so that positions in the folded text are positions in the line). */
function lower(s: string): string {
  let out = '';
  for (const ch of s) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

function blank(text: string, spans: readonly Span[]): string {
  const chars = text.split('');
  for (const s of spans) for (let i = s.start; i < s.end; i++) chars[i] = ' ';
  return chars.join('');
}

export const MAX_LINE = 200;

export function parseQuickEntry(line: string, ctx: QuickEntryContext): QuickEntry {
  const folded = line.normalize('NFKC').slice(0, MAX_LINE);
  const text = lower(folded);
  const spans: Span[] = [];

  const dates = findDates(text, ctx.today);
  const date = dates[0];
  spans.push(...dates);

  const accounts = findAccounts(text, ctx.accounts ?? [], spans);
  spans.push(...accounts);

  let kind: QuickKind | null = null;
  for (const mk of MARKERS) {
    mk.re.lastIndex = 0;
    const blanked = blank(text, spans);
    for (let m = mk.re.exec(blanked); m; m = mk.re.exec(blanked)) {
      kind ??= mk.kind;
      spans.push({ start: m.index, end: m.index + m[0].length });
    }
  }

  const amounts = findAmounts(blank(text, spans));
  let amount: Amount | null = null;
  for (const a of amounts)
    if (!amount || a.rank > amount.rank || (a.rank === amount.rank && a.start < amount.start)) amount = a;
  if (amount) spans.push(amount);

  const rest = blank(text, spans);
  const concepts = findConcepts(rest);
  let concept: Concept | null = null;
  let longest = 0;
  for (const h of concepts) {
    if (h.end - h.start > longest) {
      concept = h.concept;
      longest = h.end - h.start;
    }
  }
  if (kind === null && concept) kind = concept.kind;
  if (kind === null && accounts.length >= 2) kind = 'transfer';

  // the note keeps the line's own letters (case included), without the parts read
  const kept = blank(folded, spans).replace(FILLERS, ' ').replace(FILLERS, ' ');
  const note = kept
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\s,，。.;；:：、\-–—]+|[\s,，。.;；:：、\-–—]+$/g, '');

  const first = accounts[0];
  const second = accounts.find((a) => a.id !== first?.id);
  return {
    kind,
    amount: amount ? amount.minor / 100 : null,
    amount_cents: amount ? amount.minor : null,
    currency: amount?.currency ?? null,
    date: date?.date ?? ctx.today,
    date_given: date !== undefined,
    account_id: first?.id ?? null,
    to_account_id: kind === 'transfer' && second ? second.id : null,
    concept: concept?.key ?? null,
    note,
  };
}
