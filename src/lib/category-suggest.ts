/**
 * Category suggestion: pure scoring over a window of the user's own recent transactions.
 *
 * Each category that appears in the window gets four signals in 0..1:
 * - note: the best character-bigram (Dice) similarity between the typed note and the category's notes;
 *   bigrams of characters work for Chinese text, which has no spaces between words;
 * - amount: how close the typed amount is to the category's amounts on a log scale (the mean of the
 *   three closest, so one stray transaction does not decide it);
 * - frequency: the category's share of the window, relative to the most used category;
 * - recency: uses weighted by age (half-life 30 days), relative to the best category.
 * Signals that were not asked about (no note, no amount) drop out and the weights of the others
 * are renormalised. Scores are rounded to 4 decimals; ties go to the smaller category id.
 */
export interface HistoryItem {
  category_id: number;
  amount_cents: number;
  note: string;
  age_days: number;
}

export interface Scored {
  category_id: number;
  score: number;
  /** the best note similarity of the category's own rows (0 without a note) */
  note: number;
}

export const SUGGEST_WINDOW = 2000;
export const SUGGEST_LIMIT = 3;
const HALF_LIFE_DAYS = 30;
/** history-based scores live in [FLOOR, 1]; fallback suggestions stay below FLOOR */
const FLOOR = 0.1;
/** amounts this many times apart count as not close at all */
const AMOUNT_SPAN = Math.log(10);

const WEIGHTS = { note: 0.45, amount: 0.25, frequency: 0.18, recency: 0.12 };

/** Lower-cased letters and digits only (NFKC folds full-width forms). */
export function normalizeNote(note: string): string[] {
  return [...note.normalize('NFKC').toLowerCase()].filter((ch) => /[\p{L}\p{N}]/u.test(ch));
}

/** Character bigrams of a normalized note as a multiset; a one-character note is its own gram. */
export function bigrams(chars: string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (chars.length === 1) out.set(chars[0]!, 1);
  for (let i = 0; i + 1 < chars.length; i++) {
    const g = chars[i]! + chars[i + 1]!;
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

function gramCount(grams: Map<string, number>): number {
  let n = 0;
  for (const v of grams.values()) n += v;
  return n;
}

/** Dice coefficient of two bigram multisets: 2|A∩B| / (|A| + |B|). */
export function diceSimilarity(a: Map<string, number>, b: Map<string, number>): number {
  const total = gramCount(a) + gramCount(b);
  if (total === 0) return 0;
  let common = 0;
  for (const [g, n] of a) {
    const m = b.get(g);
    if (m) common += Math.min(n, m);
  }
  return (2 * common) / total;
}

export function noteSimilarity(a: string, b: string): number {
  return diceSimilarity(bigrams(normalizeNote(a)), bigrams(normalizeNote(b)));
}

/** 1 for equal amounts, falling linearly with |ln(a/b)| to 0 at a factor of 10. */
export function amountCloseness(a: number, b: number): number {
  if (a <= 0 || b <= 0) return 0;
  return Math.max(0, 1 - Math.abs(Math.log(a / b)) / AMOUNT_SPAN);
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

export function scoreCategories(history: HistoryItem[], query: { amount_cents?: number; note?: string }): Scored[] {
  const queryGrams = query.note ? bigrams(normalizeNote(query.note)) : null;
  const useNote = queryGrams !== null && queryGrams.size > 0;
  const useAmount = query.amount_cents !== undefined && query.amount_cents > 0;

  const acc = new Map<number, Acc>();
  const noteCache = new Map<string, number>();
  for (const h of history) {
    let a = acc.get(h.category_id);
    if (!a) acc.set(h.category_id, (a = { count: 0, recency: 0, note: 0, closeness: [] }));
    a.count += 1;
    a.recency += Math.pow(0.5, Math.max(0, h.age_days) / HALF_LIFE_DAYS);
    if (useNote && h.note) {
      let sim = noteCache.get(h.note);
      if (sim === undefined) noteCache.set(h.note, (sim = diceSimilarity(queryGrams!, bigrams(normalizeNote(h.note)))));
      if (sim > a.note) a.note = sim;
    }
    if (useAmount) a.closeness.push(amountCloseness(query.amount_cents!, h.amount_cents));
  }
  return finish(acc, useNote, useAmount);
}

interface Acc {
  count: number;
  recency: number;
  note: number;
  closeness: number[];
}

/** The scores of the categories from their accumulated signals, best first. */
function finish(acc: Map<number, Acc>, useNote: boolean, useAmount: boolean): Scored[] {
  if (!acc.size) return [];
  let maxCount = 0;
  let maxRecency = 0;
  for (const a of acc.values()) {
    maxCount = Math.max(maxCount, a.count);
    maxRecency = Math.max(maxRecency, a.recency);
  }
  const weightSum =
    WEIGHTS.frequency + WEIGHTS.recency + (useNote ? WEIGHTS.note : 0) + (useAmount ? WEIGHTS.amount : 0);

  const out: Scored[] = [];
  for (const [categoryId, a] of acc) {
    let raw =
      WEIGHTS.frequency * (a.count / maxCount) + WEIGHTS.recency * (maxRecency > 0 ? a.recency / maxRecency : 0);
    if (useNote) raw += WEIGHTS.note * a.note;
    if (useAmount) {
      const best = a.closeness.sort((x, y) => y - x).slice(0, 3);
      raw += WEIGHTS.amount * (best.reduce((s, v) => s + v, 0) / best.length);
    }
    const score = FLOOR + (1 - FLOOR) * Math.min(1, raw / weightSum);
    out.push({ category_id: categoryId, score: round4(score), note: a.note });
  }
  out.sort((x, y) => y.score - x.score || x.category_id - y.category_id);
  return out;
}

/**
 * `scoreCategories(history, { note })` for many notes against one history (a bill of many rows):
 * the history's counts, recency and note bigrams are worked out once, and a note is compared only
 * with the history notes that share a bigram with it (the others score 0). Same scores.
 */
export function noteScorer(history: HistoryItem[]): (note: string) => Scored[] {
  const base = new Map<number, { count: number; recency: number }>();
  const noteIndex = new Map<string, number>();
  const notes: { grams: Map<string, number>; categories: Set<number> }[] = [];
  const byGram = new Map<string, number[]>();
  for (const h of history) {
    let b = base.get(h.category_id);
    if (!b) base.set(h.category_id, (b = { count: 0, recency: 0 }));
    b.count += 1;
    b.recency += Math.pow(0.5, Math.max(0, h.age_days) / HALF_LIFE_DAYS);
    if (!h.note) continue;
    let n = noteIndex.get(h.note);
    if (n === undefined) {
      noteIndex.set(h.note, (n = notes.length));
      const grams = bigrams(normalizeNote(h.note));
      notes.push({ grams, categories: new Set() });
      for (const g of grams.keys()) {
        const list = byGram.get(g);
        if (list) list.push(n);
        else byGram.set(g, [n]);
      }
    }
    notes[n]!.categories.add(h.category_id);
  }
  return (note) => {
    const queryGrams = note ? bigrams(normalizeNote(note)) : null;
    const useNote = queryGrams !== null && queryGrams.size > 0;
    const acc = new Map<number, Acc>();
    for (const [id, b] of base) acc.set(id, { count: b.count, recency: b.recency, note: 0, closeness: [] });
    if (useNote) {
      const seen = new Set<number>();
      for (const g of queryGrams.keys()) {
        for (const n of byGram.get(g) ?? []) {
          if (seen.has(n)) continue;
          seen.add(n);
          const sim = diceSimilarity(queryGrams, notes[n]!.grams);
          for (const c of notes[n]!.categories) {
            const a = acc.get(c)!;
            if (sim > a.note) a.note = sim;
          }
        }
      }
    }
    return finish(acc, useNote, false);
  };
}

/** Scores of suggestions that come from the category order alone (no or too little history). */
export function fallbackScore(position: number): number {
  return round4(Math.max(0, 0.05 - 0.01 * position));
}

/** A past note this close to the typed one (Dice of bigrams) makes the history's category a confident guess. */
export const CONFIDENT_NOTE = 0.5;
/** The score of the category a lexicon word names ("地铁" → 交通), for people with little history. */
export const LEXICON_SCORE = 0.75;

/**
 * The category to preselect, or null when confidence is low: the history's best when a past note
 * matches the typed one, else the category the lexicon names. Frequency, amount and recency alone
 * never preselect: they are how a new user's first rows all became 餐饮.
 */
export function confidentChoice(history: readonly Scored[], lexiconCategoryId: number | null): number | null {
  const top = history[0];
  if (top && top.note >= CONFIDENT_NOTE) return top.category_id;
  return lexiconCategoryId;
}
