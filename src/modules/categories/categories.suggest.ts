// Suggesting a category for a new entry from the caller's history and the note's words.
import { todayIn } from '../../lib/dates.ts';
import { parseAmount } from '../../lib/money.ts';
import { cleanText } from '../../lib/text.ts';
import { userTimezone } from '../books/index.ts';
import { categoryForConcept, conceptOf } from '../../lib/quick-entry/index.ts';
import {
  confidentChoice,
  fallbackScore,
  LEXICON_SCORE,
  scoreCategories,
  SUGGEST_LIMIT,
  SUGGEST_WINDOW,
  type Scored,
} from '../../lib/category-suggest.ts';
import type { CategoryDeps } from './categories.deps.ts';
import type { CategoryKind, CategoryRow } from './categories.repo.ts';
import type { SuggestQuery, SuggestResult } from './categories.schemas.ts';

type Ranked = { category_id: number; score: number };

/** The suggestions for a query as the API gives it (kind, amount and note as text). */
export async function suggestCategory(deps: CategoryDeps, userId: number, q: SuggestQuery): Promise<SuggestResult> {
  const kind = q.kind ?? 'expense';
  const amountMinor = q.amount === undefined || q.amount === '' ? undefined : parseAmount(q.amount, 'amount');
  const note = q.note === undefined ? '' : cleanText(q.note, 'note', 0, 200);
  return suggestFor(deps, userId, { kind, amountMinor, note });
}

/**
 * Up to 3 categories, best first: the caller's own history, the category a keyword of the note
 * names (for people with little history), then the first categories in their order with low
 * scores; and the one to preselect, null when confidence is low.
 */
export async function suggestFor(
  { db, clock, config, repo }: CategoryDeps,
  userId: number,
  q: { kind: CategoryKind; amountMinor?: number; note: string },
): Promise<SuggestResult> {
  const today = todayIn(await userTimezone(db, userId, config.appTimezone), clock.now());
  const [history, cats] = await Promise.all([
    repo.recentHistory(db, userId, q.kind, today, SUGGEST_WINDOW),
    repo.listCategories(db, userId, q.kind),
  ]);
  const byId = new Map(cats.map((c) => [c.id, c]));
  const scored = scoreCategories(history, { amount_cents: q.amountMinor, note: q.note }).filter((s) =>
    byId.has(s.category_id),
  );
  const concept = q.note ? conceptOf(q.note) : null;
  const named = concept && concept.kind === q.kind ? categoryForConcept(concept, cats) : null;
  const preselect = confidentChoice(scored, named?.id ?? null);
  const ranked = rankedWithLexicon(scored, named?.id ?? null, preselect);
  return { list: suggestionList(ranked, byId, cats), preselect };
}

/**
 * The lexicon's category joins the history's with its own score; the preselected one is, by this
 * judgement, the best: it leads, with at least the best score.
 */
function rankedWithLexicon(scored: Scored[], namedId: number | null, preselect: number | null): Ranked[] {
  const ranked: Ranked[] = scored.map((s) => ({ category_id: s.category_id, score: s.score }));
  if (namedId !== null) {
    const own = ranked.find((r) => r.category_id === namedId);
    if (own) own.score = Math.max(own.score, LEXICON_SCORE);
    else ranked.push({ category_id: namedId, score: LEXICON_SCORE });
  }
  const lead = ranked.find((r) => r.category_id === preselect);
  if (lead) lead.score = Math.max(...ranked.map((r) => r.score));
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      (a.category_id === preselect ? -1 : b.category_id === preselect ? 1 : a.category_id - b.category_id),
  );
  return ranked;
}

/** The first SUGGEST_LIMIT of the ranked categories; too little history is completed in the user's own order. */
function suggestionList(ranked: Ranked[], byId: Map<number, CategoryRow>, cats: CategoryRow[]): SuggestResult['list'] {
  const list: SuggestResult['list'] = [];
  for (const r of ranked) {
    const c = byId.get(r.category_id)!;
    list.push({ category_id: c.id, name: c.name, color: c.color, score: r.score });
    if (list.length === SUGGEST_LIMIT) return list;
  }
  let position = 0;
  for (const c of cats) {
    if (list.length === SUGGEST_LIMIT) break;
    if (list.some((l) => l.category_id === c.id)) continue;
    list.push({ category_id: c.id, name: c.name, color: c.color, score: fallbackScore(position++) });
  }
  return list;
}
