// Category suggestions without a network, answered by the fetch layer in place of the server:
// the server's own scoring (pure, imported from its source) over the person's cached history (the
// month kept whole and the pages of the books seen), the lexicon's category for a word of the
// note, and the first categories in the person's order to complete the list.
import type { Category, Transaction, TransactionPage } from '../../api/types';
import { categoryForConcept, conceptOf } from '../../../../src/lib/quick-entry/index.ts';
import {
  confidentChoice,
  fallbackScore,
  LEXICON_SCORE,
  scoreCategories,
  SUGGEST_LIMIT,
  type HistoryItem,
} from '../../../../src/lib/category-suggest.ts';
import type { OfflineDb } from './db';

const DAY_MS = 86_400_000;

/**
 * The person's own rows of one kind found in the cache, each once, as the scorer's history: as on
 * the server, rows whose category the person chose (not one left as suggested), amounts above 0.
 */
async function cachedHistory(
  db: OfflineDb,
  kind: 'expense' | 'income',
  me: number | null,
  now: number,
): Promise<HistoryItem[]> {
  const rows = new Map<number, Transaction>();
  for (const a of await db.getAll('answers')) {
    const list = a.url.startsWith('month:')
      ? (a.body as Transaction[])
      : a.url.startsWith('/api/transactions?') || a.url === '/api/transactions'
        ? (a.body as TransactionPage).list
        : null;
    for (const r of list ?? []) rows.set(r.id, r);
  }
  return [...rows.values()]
    .filter((r) => r.user_id === me && r.kind === kind && r.category_id !== null && r.category_picked && r.amount > 0)
    .map((r) => ({
      category_id: r.category_id!,
      amount_cents: Math.round(r.amount * 100),
      note: r.note,
      age_days: Math.max(0, (now - Date.parse(r.date)) / DAY_MS),
    }));
}

export interface LocalSuggestion {
  list: { category_id: number; name: string; color: string; score: number }[];
  preselect: number | null;
}

/** What the server's suggester would answer, from what the cache holds. */
export async function suggestOffline(
  db: OfflineDb,
  url: URL,
  ctx: { categories: Category[]; me: number | null },
  now = Date.now(),
): Promise<LocalSuggestion> {
  const kind = url.searchParams.get('kind') === 'income' ? 'income' : 'expense';
  const note = url.searchParams.get('note') ?? '';
  const amount = Number(url.searchParams.get('amount'));
  const cats = ctx.categories.filter((c) => c.kind === kind);
  const byId = new Map(cats.map((c) => [c.id, c]));
  const scored = scoreCategories(await cachedHistory(db, kind, ctx.me, now), {
    note,
    amount_cents: amount > 0 ? Math.round(amount * 100) : undefined,
  }).filter((s) => byId.has(s.category_id));
  const concept = note ? conceptOf(note) : null;
  const named = concept && concept.kind === kind ? categoryForConcept(concept, cats) : null;
  const preselect = confidentChoice(scored, named?.id ?? null);
  const ranked = scored.map((s) => ({ id: s.category_id, score: s.score }));
  if (named && !ranked.some((r) => r.id === named.id)) ranked.push({ id: named.id, score: LEXICON_SCORE });
  // the preselected one leads, as the server's answer has it
  ranked.sort((a, b) => Number(b.id === preselect) - Number(a.id === preselect) || b.score - a.score || a.id - b.id);
  const picked = ranked.slice(0, SUGGEST_LIMIT).map((r) => r.id);
  for (const c of cats) if (picked.length < SUGGEST_LIMIT && !picked.includes(c.id)) picked.push(c.id);
  let position = 0;
  const list = picked.map((id) => {
    const c = byId.get(id)!;
    const score = ranked.find((r) => r.id === id)?.score ?? fallbackScore(position++);
    return { category_id: id, name: c.name, color: c.color, score };
  });
  return { list, preselect };
}
