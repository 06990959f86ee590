/**
 * The words of the assistant tools' answers, in the person's two languages. Amounts arrive as JSON
 * numbers in major units from the API and are printed with their currency's own digits.
 */
import { currencyInfo } from '../../lib/currency.ts';

export type Lang = 'zh' | 'en';

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** Chinese when the request asks for it or the person writes it, else English */
export function pickLang(acceptLanguage: string | undefined, texts: unknown[]): Lang {
  if (texts.some((t) => typeof t === 'string' && CJK.test(t))) return 'zh';
  return /^\s*zh\b/i.test(acceptLanguage ?? '') ? 'zh' : 'en';
}

/** `¥35.00` style: the code, then the amount with the currency's own decimals */
export function money(amount: number, currency: string): string {
  const digits = currencyInfo(currency)?.digits ?? 2;
  return `${currency} ${amount.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

const KIND: Record<Lang, Record<string, string>> = {
  zh: { expense: '支出', income: '收入', transfer: '转账', refund: '退款', adjustment: '调整' },
  en: { expense: 'expense', income: 'income', transfer: 'transfer', refund: 'refund', adjustment: 'adjustment' },
};

export const say = {
  kind: (lang: Lang, kind: string) => KIND[lang][kind] ?? kind,
  recorded: (lang: Lang, what: string, replayed: boolean) =>
    lang === 'zh'
      ? `${replayed ? '这笔已记过（同一幂等键），未重复记账：' : '已记账：'}${what}`
      : `${replayed ? 'Already recorded with this idempotency key, not booked again: ' : 'Recorded: '}${what}`,
  entry: (
    lang: Lang,
    t: { kind: string; amount: number; currency: string; date: string; note: string; category: string },
  ) =>
    lang === 'zh'
      ? `${t.date} ${say.kind(lang, t.kind)} ${money(t.amount, t.currency)}${t.category ? ` · ${t.category}` : ''}${t.note ? ` · ${t.note}` : ''}`
      : `${t.date} ${say.kind(lang, t.kind)} ${money(t.amount, t.currency)}${t.category ? ` · ${t.category}` : ''}${t.note ? ` · ${t.note}` : ''}`,
  entries: (lang: Lang, total: number, shown: number) =>
    lang === 'zh' ? `共 ${total} 条，显示 ${shown} 条：` : `${total} entries, ${shown} shown:`,
  summary: (
    lang: Lang,
    s: { start: string; end: string; income: number; expense: number; balance: number },
    c: string,
  ) =>
    lang === 'zh'
      ? `${s.start} 至 ${s.end}：收入 ${money(s.income, c)}，支出 ${money(s.expense, c)}，结余 ${money(s.balance, c)}`
      : `${s.start} to ${s.end}: income ${money(s.income, c)}, expense ${money(s.expense, c)}, balance ${money(s.balance, c)}`,
  shares: (lang: Lang, total: number, c: string) =>
    lang === 'zh' ? `合计 ${money(total, c)}，按分类：` : `Total ${money(total, c)}, by category:`,
  budget: (
    lang: Lang,
    b: { month: string; amount: number | null; spent: number; remaining: number | null },
    c: string,
  ) =>
    b.amount === null
      ? lang === 'zh'
        ? `${b.month} 未设置预算，已支出 ${money(b.spent, c)}`
        : `No budget set for ${b.month}; spent ${money(b.spent, c)}`
      : lang === 'zh'
        ? `${b.month} 预算 ${money(b.amount, c)}，已支出 ${money(b.spent, c)}，剩余 ${money(b.remaining ?? 0, c)}`
        : `${b.month}: budget ${money(b.amount, c)}, spent ${money(b.spent, c)}, left ${money(b.remaining ?? 0, c)}`,
  netWorth: (lang: Lang, amount: number, c: string) =>
    lang === 'zh' ? `净资产 ${money(amount, c)}。账户：` : `Net worth ${money(amount, c)}. Accounts:`,
  balances: (lang: Lang) => (lang === 'zh' ? '成员余额（正数为应收）：' : 'Balances (positive: is owed):'),
  settleUp: (lang: Lang) => (lang === 'zh' ? '建议结算：' : 'Suggested settlements:'),
  settled: (lang: Lang) => (lang === 'zh' ? '已无需结算。' : 'Nothing to settle.'),
  pays: (lang: Lang, from: string, to: string, amount: string) =>
    lang === 'zh' ? `${from} 付给 ${to} ${amount}` : `${from} pays ${to} ${amount}`,
  groups: (lang: Lang) => (lang === 'zh' ? '你的群组：' : 'Your groups:'),
  categories: (lang: Lang) => (lang === 'zh' ? '你的分类：' : 'Your categories:'),
  refused: (lang: Lang, message: string) => (lang === 'zh' ? `未完成：${message}` : `Not done: ${message}`),
  needAmount: (lang: Lang) =>
    lang === 'zh' ? '这句话里没有金额，请给出金额。' : 'The line names no amount: give one.',
  needCategory: (lang: Lang) =>
    lang === 'zh'
      ? '认不出分类：请给出 category_id（可先调用 list_categories）。'
      : 'No category could be recognised: give category_id (list_categories lists them).',
  needGroup: (lang: Lang) =>
    lang === 'zh'
      ? '请给出 group_id，或在句子里写出群组名称（可先调用 list_groups）。'
      : 'Give group_id, or name the group in the line (list_groups lists them).',
  readOnly: (lang: Lang) =>
    lang === 'zh'
      ? '这个令牌只有读取权限，不能记账：请使用有写入权限的令牌。'
      : 'This token may only read: recording needs a token with the write scope.',
};
