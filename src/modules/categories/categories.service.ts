import type { Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { notYours } from '../../lib/access.ts';
import { moveCategory, userTimezone } from '../books/index.ts';
import type { ServiceDeps } from '../service.ts';
import { Errors } from '../../lib/errors.ts';
import { todayIn } from '../../lib/dates.ts';
import { parseAmount } from '../../lib/money.ts';
import { cleanText } from '../../lib/text.ts';
import * as categoriesRepo from './categories.repo.ts';
import type { CategoryKind, CategoryRow } from './categories.repo.ts';
import {
  MAX_CATEGORIES_PER_USER,
  type CategoryCreateBody,
  type CategoryUpdateBody,
  type CategoryView,
  type SuggestQuery,
  type SuggestResult,
} from './categories.schemas.ts';
import { categoryForConcept, conceptOf } from '../../lib/quick-entry/index.ts';
import { confidentChoice, fallbackScore, LEXICON_SCORE, scoreCategories, SUGGEST_LIMIT, SUGGEST_WINDOW } from '../../lib/category-suggest.ts';

export function toCategory(row: CategoryRow): CategoryView {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    kind: row.kind,
    icon: row.icon,
    sort: row.sort,
    created_at: row.createdAt.toISOString(),
  };
}

const duplicateName = () => Errors.conflict('a category of that kind with that name already exists');

export type CategoryServiceDeps = ServiceDeps<typeof categoriesRepo, 'appTimezone'>;

export function createCategoryService({ db, clock, config, repo = categoriesRepo }: CategoryServiceDeps) {

  /**
   * Moves every transaction, recurring rule and saved-filter reference of `source` to `targetId`,
   * inside the caller's transaction. Checks: target is the caller's (else 40001) and of the same kind (42201).
   */
  async function moveAll(tx: Tx, userId: number, source: CategoryRow, targetId: number, field: string) {
    if (targetId === source.id) throw Errors.field(field, 'must be another category');
    const target = await repo.lockCategory(tx, userId, targetId);
    if (!target) throw notYours.category(field);
    if (target.kind !== source.kind) throw Errors.rule('the target category is of another kind');
    const moved = await moveCategory(tx, userId, source.id, target.id);
    await repo.moveRecurringRules(tx, userId, source.id, target.id);
    await repo.repointSavedFilters(tx, userId, source.id, target.id);
    return moved;
  }

  return {
    async list(userId: number, kind?: CategoryKind): Promise<{ list: CategoryView[] }> {
      const rows = await repo.listCategories(db, userId, kind);
      return { list: rows.map(toCategory) };
    },

    async create(userId: number, body: CategoryCreateBody): Promise<CategoryView> {
      const name = cleanText(body.name, 'name', 1, 20);
      const icon = body.icon === undefined ? '' : cleanText(body.icon, 'icon', 0, 50);
      try {
        return await db.transaction(async (tx) => {
          await repo.lockOwner(tx, userId);
          if (await repo.nameTaken(tx, userId, body.kind, name)) throw duplicateName();
          if ((await repo.countCategories(tx, userId)) >= MAX_CATEGORIES_PER_USER) {
            throw Errors.rule(`at most ${MAX_CATEGORIES_PER_USER} categories per user`);
          }
          const sort = await repo.nextSort(tx, userId, body.kind);
          const row = await repo.insertCategory(tx, { userId, name, color: body.color.toUpperCase(), kind: body.kind, icon, sort });
          return toCategory(row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateName();
        throw err;
      }
    },

    async update(userId: number, id: number, body: CategoryUpdateBody): Promise<CategoryView> {
      const patch: { name?: string; color?: string; icon?: string } = {};
      if (body.name !== undefined) patch.name = cleanText(body.name, 'name', 1, 20);
      if (body.color !== undefined) patch.color = body.color.toUpperCase();
      if (body.icon !== undefined) patch.icon = cleanText(body.icon, 'icon', 0, 50);
      const current = await repo.findCategory(db, userId, id);
      if (!current) throw Errors.notFound('category');
      if (!Object.keys(patch).length) return toCategory(current);
      if (patch.name !== undefined && patch.name !== current.name && (await repo.nameTaken(db, userId, current.kind, patch.name, id))) {
        throw duplicateName();
      }
      try {
        const row = await repo.updateCategory(db, userId, id, patch);
        if (!row) throw Errors.notFound('category');
        return toCategory(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateName();
        throw err;
      }
    },

    async sort(userId: number, ids: number[]): Promise<void> {
      if (new Set(ids).size !== ids.length) throw Errors.field('ids', 'must not repeat an id');
      await db.transaction(async (tx) => {
        await repo.lockOwner(tx, userId);
        const first = await repo.findCategory(tx, userId, ids[0]!);
        if (!first) throw notYours.category('ids');
        const all = await repo.idsOfKind(tx, userId, first.kind);
        const owned = new Set(all);
        if (!ids.every((id) => owned.has(id))) throw Errors.field('ids', `must list only ${first.kind} categories of yours`);
        if (ids.length !== all.length) throw Errors.field('ids', `must list all ${all.length} of your ${first.kind} categories`);
        await repo.applySort(tx, userId, ids);
      });
    },

    async migrate(userId: number, id: number, targetId: number): Promise<{ moved: number }> {
      return db.transaction(async (tx) => {
        const source = await repo.lockCategory(tx, userId, id);
        if (!source) throw Errors.notFound('category');
        return { moved: await moveAll(tx, userId, source, targetId, 'target_id') };
      });
    },

    async remove(userId: number, id: number, migrateTo?: number): Promise<void> {
      await db.transaction(async (tx) => {
        const source = await repo.lockCategory(tx, userId, id);
        if (!source) throw Errors.notFound('category');
        if (migrateTo !== undefined) {
          await moveAll(tx, userId, source, migrateTo, 'migrate_to');
        } else {
          if ((await repo.countTransactions(tx, userId, id)) > 0) {
            throw Errors.rule('the category still has transactions: pass migrate_to to move them first');
          }
          if ((await repo.countRecurringRules(tx, userId, id)) > 0) {
            throw Errors.rule('the category is used by recurring rules: pass migrate_to to move them first');
          }
          await repo.repointSavedFilters(tx, userId, id, null);
        }
        await repo.deleteCategory(tx, userId, id);
      });
    },

    async suggest(userId: number, q: SuggestQuery): Promise<SuggestResult> {
      const kind = q.kind ?? 'expense';
      const amountCents = q.amount === undefined || q.amount === '' ? undefined : parseAmount(q.amount, 'amount');
      const note = q.note === undefined ? '' : cleanText(q.note, 'note', 0, 200);
      return suggestFor(userId, { kind, amountCents, note });
    },

    suggestFor,
  };

  /**
   * Up to 3 categories, best first: the caller's own history, the category a keyword of the note
   * names (for people with little history), then the first categories in their order with low
   * scores; and the one to preselect, null when confidence is low.
   */
  async function suggestFor(userId: number, q: { kind: CategoryKind; amountCents?: number; note: string }): Promise<SuggestResult> {
    const today = todayIn(await userTimezone(db, userId, config.appTimezone), clock.now());
    const [history, cats] = await Promise.all([
      repo.recentHistory(db, userId, q.kind, today, SUGGEST_WINDOW),
      repo.listCategories(db, userId, q.kind),
    ]);
    const byId = new Map(cats.map((c) => [c.id, c]));
    const scored = scoreCategories(history, { amount_cents: q.amountCents, note: q.note }).filter((s) => byId.has(s.category_id));
    const concept = q.note ? conceptOf(q.note) : null;
    const named = concept && concept.kind === q.kind ? categoryForConcept(concept, cats) : null;
    const preselect = confidentChoice(scored, named?.id ?? null);

    // the lexicon's category joins the history's with its own score; the preselected one is, by this
    // judgement, the best: it leads, with at least the best score
    const ranked: { category_id: number; score: number }[] = scored.map((s) => ({ category_id: s.category_id, score: s.score }));
    if (named) {
      const own = ranked.find((r) => r.category_id === named.id);
      if (own) own.score = Math.max(own.score, LEXICON_SCORE);
      else ranked.push({ category_id: named.id, score: LEXICON_SCORE });
    }
    const lead = ranked.find((r) => r.category_id === preselect);
    if (lead) lead.score = Math.max(...ranked.map((r) => r.score));
    ranked.sort((a, b) => b.score - a.score || (a.category_id === preselect ? -1 : b.category_id === preselect ? 1 : a.category_id - b.category_id));

    const list: SuggestResult['list'] = [];
    for (const r of ranked) {
      const c = byId.get(r.category_id)!;
      list.push({ category_id: c.id, name: c.name, color: c.color, score: r.score });
      if (list.length === SUGGEST_LIMIT) return { list, preselect };
    }
    // too little history: complete with the first categories in the user's own order
    let position = 0;
    for (const c of cats) {
      if (list.length === SUGGEST_LIMIT) break;
      if (list.some((l) => l.category_id === c.id)) continue;
      list.push({ category_id: c.id, name: c.name, color: c.color, score: fallbackScore(position++) });
    }
    return { list, preselect };
  }
}

export type CategoryService = ReturnType<typeof createCategoryService>;
