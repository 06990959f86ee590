import type { Executor } from '../../db/client.ts';
import { todayIn } from '../../lib/dates.ts';
import { userTimezone } from '../books/index.ts';
import { noteScorer, recentHistory, SUGGEST_WINDOW, type HistoryItem } from '../categories/index.ts';
import { categoryOfClass, merchantClass } from '../../lib/merchant-lexicon.ts';
import { typeIcon } from './bill.meaning.ts';
import { ruleMatcher, type Rule } from './bill.rules.ts';
import type { BillDeps } from './bills.deps.ts';
import { looseName } from './bills.names.ts';
import * as repo from './bills.repo.ts';

/** category choices remembered while a bill is read */
const CHOICE_CACHE = 5000;
/**
 * How like one of the person's own notes a row's note must be for their history to place it: the
 * history's other signals (how often, how lately) alone would put every row in their most used
 * category.
 */
const HISTORY_NOTE = 0.5;

export type CategoryChooser = Awaited<ReturnType<typeof categoryChooser>>;

/**
 * The category a row proposes: the user's rules first, then a note like one of their own, the bill's
 * own classification (Alipay 交易分类, WeChat 交易类型), then the merchant (滴滴 is transport). A row
 * none of them places has none: the person decides, it is never filled with some category.
 */
export async function categoryChooser(
  { clock, config }: Pick<BillDeps, 'clock' | 'config'>,
  ex: Executor,
  userId: number,
) {
  const [cats, rules] = await Promise.all([repo.userCategories(ex, userId), repo.listRules(ex, userId)]);
  const today = todayIn(await userTimezone(ex, userId, config.appTimezone), clock.now());
  const [hExpense, hIncome] = await Promise.all([
    recentHistory(ex, userId, 'expense', today, SUGGEST_WINDOW),
    recentHistory(ex, userId, 'income', today, SUGGEST_WINDOW),
  ]);
  const catById = new Map(cats.map((c) => [c.id, c]));
  const history: Record<string, HistoryItem[]> = {
    expense: hExpense.filter((h) => catById.get(h.category_id)?.kind === 'expense'),
    income: hIncome.filter((h) => catById.get(h.category_id)?.kind === 'income'),
  };
  const scorers = { expense: noteScorer(history.expense!), income: noteScorer(history.income!) };
  const expenseCats = cats.filter((c) => c.kind === 'expense');
  const byName = new Map(cats.map((c) => [`${c.kind}\u0000${c.name}`, c.id]));
  // a name the file gives but for case and spaces (the first of the person's order wins)
  const byLoose = new Map<string, number>();
  for (const c of cats)
    if (!byLoose.has(`${c.kind}\u0000${looseName(c.name)}`)) byLoose.set(`${c.kind}\u0000${looseName(c.name)}`, c.id);
  const match = ruleMatcher(
    rules
      .filter((r) => catById.get(r.categoryId)?.kind === (r.kind ?? catById.get(r.categoryId)?.kind))
      .map((r) => ({ ...r, kind: r.kind ?? null }) as Rule),
  );
  // a choice, and its parts remembered apart: a bill's notes and merchants repeat far more than their pairs
  const choices = remembered<number | null>();
  type Best = ReturnType<typeof scorers.expense>[number] | null;
  const notes = { expense: remembered<Best>(), income: remembered<Best>() };
  const merchants = remembered<ReturnType<typeof merchantClass>>();
  return {
    byName: (kind: string, name: string) =>
      byName.get(`${kind}\u0000${name}`) ?? byLoose.get(`${kind}\u0000${looseName(name)}`) ?? null,
    choose(row: { kind: string; counterparty: string; note: string; method: string; type?: string }): number | null {
      if (row.kind !== 'expense' && row.kind !== 'income') return null;
      const rule = match(row);
      if (rule && catById.get(rule.categoryId)?.kind === row.kind) return rule.categoryId;
      const kind = row.kind;
      const key = `${kind}\u0000${row.type ?? ''}\u0000${row.counterparty}\u0000${row.note}`;
      return choices(key, () => {
        const best = notes[kind](row.note, () => scorers[kind](row.note)[0] ?? null);
        const icon = row.type ? typeIcon(row.type, kind) : null;
        const byType = icon ? (cats.find((c) => c.kind === kind && c.icon === icon)?.id ?? null) : null;
        // the counterparty's merchant first, then the item's (as merchantClass reads its texts)
        const merchantOf = (text: string) => merchants(text, () => merchantClass(text));
        const merchant = kind === 'expense' ? (merchantOf(row.counterparty) ?? merchantOf(row.note)) : null;
        return best && best.score >= 0.3 && best.note >= HISTORY_NOTE
          ? best.category_id
          : (byType ?? (merchant ? (categoryOfClass(merchant, expenseCats)?.id ?? null) : null));
      });
    },
  };
}

/**
 * Values remembered by key for up to CHOICE_CACHE keys at once, forgotten all together when full: a
 * bill of many different notes does not keep them all.
 */
function remembered<T>(): (key: string, make: () => T) => T {
  const memo = new Map<string, T>();
  return (key, make) => {
    if (memo.has(key)) return memo.get(key) as T;
    const value = make();
    if (memo.size >= CHOICE_CACHE) memo.clear();
    memo.set(key, value);
    return value;
  };
}
