import type { Layout, ReadFields } from './receipts.layouts.ts';
import type { ReceiptDeps } from './receipts.deps.ts';
import { round } from './receipts.deps.ts';
import * as repo from './receipts.repo.ts';
import type { ReceiptDraft } from './receipts.schemas.ts';

/**
 * A payment method as the bill import keys it (NFKC, no spaces, the first of "花呗&红包", a wallet's
 * own balance named after its wallet), so that a screenshot's 零钱 finds the account the person's
 * WeChat bills map 微信零钱 to.
 */
export function methodKey(raw: string, layout: Layout): string {
  const s = raw.normalize('NFKC').replace(/\s+/g, '').split('&')[0]!;
  if (layout === 'wechat' && (s === '零钱' || s === '')) return '微信零钱';
  if (layout === 'wechat' && s === '零钱通') return '微信零钱通';
  if (layout === 'alipay' && ['', '余额', '账户余额', '支付宝余额'].includes(s)) return '支付宝余额';
  return s.slice(0, 50);
}

const tailOf = (s: string) => (/\((\d{4})\)$/.exec(s) ?? /(\d{4})\D*$/.exec(s))?.[1] ?? null;

/** remembered mapping first, then an account of that name, then the same card tail, else the default account */
async function accountFor({ db }: ReceiptDeps, userId: number, method: string | null, layout: Layout) {
  const { own, maps } = await repo.accountsAndMaps(db, userId);
  const live = new Set(own.map((a) => a.id));
  const fallback = own.find((a) => a.isDefault)?.id ?? own[0]?.id ?? null;
  if (!method) return { value: fallback, confidence: fallback ? 0.3 : 0 };
  const key = methodKey(method, layout);
  const mapped = maps.find((m) => m.method === key && live.has(m.accountId));
  if (mapped) return { value: mapped.accountId, confidence: 0.9 };
  const named = own.find((a) => a.name.normalize('NFKC').replace(/\s+/g, '') === key);
  if (named) return { value: named.id, confidence: 0.85 };
  const tail = tailOf(key);
  const byTail = tail
    ? (maps.find((m) => tailOf(m.method) === tail && live.has(m.accountId))?.accountId ??
      own.find((a) => tailOf(a.name.normalize('NFKC')) === tail)?.id)
    : undefined;
  if (byTail) return { value: byTail, confidence: 0.7 };
  return { value: fallback, confidence: fallback ? 0.3 : 0 };
}

/** The draft entry of what was read: the account the payment method maps to, the suggested category. */
export async function draftOf(deps: ReceiptDeps, userId: number, read: ReadFields): Promise<ReceiptDraft> {
  const account = await accountFor(deps, userId, read.payment_method.value, read.layout);
  const note = read.counterparty.value ?? '';
  const amountMinor = read.amount.value ? Math.round(Number(read.amount.value) * 100) : undefined;
  const suggestion = note
    ? await deps.categories.suggestFor(userId, { kind: read.kind.value, amountMinor, note })
    : { list: [], preselect: null };
  const categoryId = suggestion.preselect ?? null;
  const score = suggestion.list.find((c) => c.category_id === categoryId)?.score ?? 0;
  const source = read.order_id.value && (read.layout === 'wechat' || read.layout === 'alipay') ? read.layout : null;
  return {
    amount: read.amount.value,
    currency: read.currency.value,
    date: read.date.value,
    time: read.time.value,
    counterparty: read.counterparty.value,
    payment_method: read.payment_method.value,
    order_id: read.order_id.value,
    source,
    category_id: categoryId,
    account_id: account.value,
    kind: read.kind.value,
    layout: read.layout,
    confidence: {
      amount: round(read.amount.confidence),
      currency: round(read.currency.confidence),
      date: round(read.date.confidence),
      time: round(read.time.confidence),
      counterparty: round(read.counterparty.confidence),
      payment_method: round(read.payment_method.confidence),
      order_id: round(read.order_id.confidence),
      category_id: round(categoryId ? score : 0),
      account_id: round(account.confidence),
      kind: round(read.kind.confidence),
    },
  };
}
