import type { Executor } from '../../db/client.ts';
import type { CategoryKind } from '../../lib/domain.ts';
import { categories } from '../../db/schema/index.ts';

/** The languages new accounts are set up in: default category names and demo data. */
export type Locale = 'en' | 'zh';

/**
 * The first supported language of an Accept-Language header in the order the client listed it
 * (quality values respected); English when none is supported.
 */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((x) => x.tag && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}

export const DEFAULT_CATEGORIES: { kind: CategoryKind; name: string; zh: string; color: string; icon: string }[] = [
  { kind: 'expense', name: 'Food', zh: '餐饮', color: '#F5A623', icon: 'food' },
  { kind: 'expense', name: 'Transport', zh: '交通', color: '#4A90E2', icon: 'transport' },
  { kind: 'expense', name: 'Shopping', zh: '购物', color: '#D0021B', icon: 'shopping' },
  { kind: 'expense', name: 'Housing', zh: '住房', color: '#8B572A', icon: 'housing' },
  { kind: 'expense', name: 'Utilities', zh: '水电煤', color: '#417505', icon: 'utilities' },
  { kind: 'expense', name: 'Entertainment', zh: '娱乐', color: '#BD10E0', icon: 'entertainment' },
  { kind: 'expense', name: 'Health', zh: '医疗', color: '#50E3C2', icon: 'health' },
  { kind: 'expense', name: 'Education', zh: '教育', color: '#9013FE', icon: 'education' },
  { kind: 'expense', name: 'Travel', zh: '旅行', color: '#B8E986', icon: 'travel' },
  { kind: 'expense', name: 'Other', zh: '其他', color: '#9B9B9B', icon: 'other' },
  { kind: 'income', name: 'Salary', zh: '工资', color: '#7ED321', icon: 'salary' },
  { kind: 'income', name: 'Bonus', zh: '奖金', color: '#F8E71C', icon: 'bonus' },
  { kind: 'income', name: 'Investment', zh: '理财', color: '#4A4A4A', icon: 'investment' },
  { kind: 'income', name: 'Part-time', zh: '兼职', color: '#FF6F61', icon: 'parttime' },
  { kind: 'income', name: 'Other income', zh: '其他收入', color: '#9B9B9B', icon: 'other' },
];

/** Gives a new user the default category set, named in the user's language; returns the created rows. */
export async function createDefaultCategories(db: Executor, userId: number, locale: Locale = 'en') {
  let expenseSort = 0;
  let incomeSort = 0;
  return db
    .insert(categories)
    .values(
      DEFAULT_CATEGORIES.map(({ zh, ...c }) => ({
        ...c,
        name: locale === 'zh' ? zh : c.name,
        userId,
        sort: c.kind === 'expense' ? expenseSort++ : incomeSort++,
      })),
    )
    .returning();
}
