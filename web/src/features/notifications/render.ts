// A notice in the reader's language: a notice the service wrote (`key` set) is rendered from the
// catalogue with its params, money formatted for the language; anything else as it was written.
import type { Notification } from '../../api/types';
import { formatBytes, formatMoney, formatMonth, type AppLocale } from '../../lib/format';

type Translate = (key: string, params?: Record<string, unknown>) => string;
type Exists = (key: string) => boolean;

export interface Rendered {
  title: string;
  content: string;
}

const MONEY = ['amount', 'share', 'spent'];

/** A notice key as a catalogue key: `split.expense` is split_expense in noticeTitles and noticeBodies. */
const messageKey = (key: string) => key.replace(/\./g, '_');

/** The params as the message shows them: money with the currency for the locale, months and sizes in its words. */
export function displayParams(
  params: Record<string, unknown>,
  locale: AppLocale,
  t: Translate,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  const currency = typeof params.currency === 'string' ? params.currency : null;
  for (const k of MONEY) {
    if (typeof params[k] === 'number' && currency) out[k] = formatMoney(params[k] as number, locale, currency);
  }
  if (typeof params.month === 'string') out.month = formatMonth(params.month, locale);
  if (typeof params.size === 'number') out.size = formatBytes(params.size, locale);
  out.note = typeof params.note === 'string' && params.note ? t('notices.notePart', { note: params.note }) : '';
  return out;
}

export function renderNotice(
  n: Pick<Notification, 'title' | 'content' | 'key' | 'params'>,
  locale: AppLocale,
  t: Translate,
  te: Exists,
): Rendered {
  const key = n.key ? messageKey(n.key) : null;
  if (!key || !te(`noticeTitles.${key}`)) return { title: n.title, content: n.content };
  const p = displayParams(n.params ?? {}, locale, t);
  return { title: t(`noticeTitles.${key}`, p), content: t(`noticeBodies.${key}`, p) };
}

/** What a link to an in-app route is called: the page it opens. */
export function linkLabel(link: string): string {
  if (link === '/feedback') return 'noticeLinks.feedback';
  if (/^\/groups\/\d+\/balances$/.test(link)) return 'noticeLinks.balances';
  if (link === '/budget') return 'noticeLinks.budget';
  if (link === '/admin/backups') return 'noticeLinks.backups';
  return 'noticeLinks.other';
}
