import type { Executor } from '../../db/client.ts';
import { defaultAccount } from '../accounts/accounts.booking.ts';
import type { CategoryKind as TransactionKind } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import * as repo from './export-import.repo.ts';
import type { ImportResult } from './export-import.schemas.ts';
import { decodeText, parseFile, validateRecords, type ImportRow, type RowError } from './import.parse.ts';

export { IMPORT_MAX_ROWS } from './import.parse.ts';

export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const MAX_CATEGORIES = 200;
const INSERT_BATCH = 5000;

const catKey = (kind: string, name: string) => `${kind}\u0000${name}`;

interface Plan {
  toImport: ImportRow[];
  skipped: number;
  /** categories to create, in order of first use */
  newCategories: { kind: TransactionKind; name: string }[];
  errors: RowError[];
  categoryIds: Map<string, number>;
  categories: repo.CategoryRef[];
  liveGroups: Set<number>;
}

/**
 * Decides which rows are duplicates: for each (date, kind, amount, category, note) the first
 * "existing count" rows of the file are skipped and the rest imported, so that importing a file
 * twice, or one's own export, adds nothing. Also finds the categories to create and refuses rows
 * that would take the user past the category limit.
 */
async function planImport(ex: Executor, userId: number, rows: ImportRow[]): Promise<Plan> {
  const categories = await repo.userCategories(ex, userId);
  const categoryIds = new Map(categories.map((c) => [catKey(c.kind, c.name), c.id]));
  const liveGroups = new Set(await repo.liveGroupIds(ex, userId));

  const keyOf = new Map<string, number>();
  const keys: repo.DupKey[] = [];
  const rowKeys: (number | null)[] = rows.map((r) => {
    const categoryId = categoryIds.get(catKey(r.kind, r.category));
    if (categoryId === undefined) return null;
    const k = `${r.date}\u0000${r.kind}\u0000${r.cents}\u0000${categoryId}\u0000${r.note}`;
    let idx = keyOf.get(k);
    if (idx === undefined) {
      idx = keys.length;
      keyOf.set(k, idx);
      keys.push({ date: r.date, kind: r.kind, cents: r.cents, categoryId, note: r.note });
    }
    return idx;
  });
  const remaining = await repo.existingCounts(ex, userId, keys);

  const toImport: ImportRow[] = [];
  let skipped = 0;
  rows.forEach((r, i) => {
    const idx = rowKeys[i];
    if (idx !== null && idx !== undefined && remaining[idx]! > 0) {
      remaining[idx]!--;
      skipped++;
    } else toImport.push(r);
  });

  const newCategories: { kind: TransactionKind; name: string }[] = [];
  const seen = new Set<string>();
  for (const r of toImport) {
    const k = catKey(r.kind, r.category);
    if (!categoryIds.has(k) && !seen.has(k)) {
      seen.add(k);
      newCategories.push({ kind: r.kind, name: r.category });
    }
  }
  const errors: RowError[] = [];
  const room = Math.max(0, MAX_CATEGORIES - categories.length);
  if (newCategories.length > room) {
    const refused = new Set(newCategories.slice(room).map((c) => catKey(c.kind, c.name)));
    for (const r of toImport) {
      if (refused.has(catKey(r.kind, r.category))) {
        errors.push({ row: r.row, message: `category "${r.category}" cannot be created: at most ${MAX_CATEGORIES} categories per user` });
      }
    }
  }
  return { toImport, skipped, newCategories: newCategories.slice(0, room), errors, categoryIds, categories, liveGroups };
}

async function write(tx: Executor, userId: number, plan: Plan): Promise<void> {
  // categories: appended after the user's own, in each kind's order
  if (plan.newCategories.length) {
    const nextSort = { expense: 0, income: 0 };
    for (const c of plan.categories) nextSort[c.kind] = Math.max(nextSort[c.kind], c.sort + 1);
    await repo.insertCategories(
      tx,
      userId,
      plan.newCategories.map((c) => ({ ...c, sort: nextSort[c.kind]++ })),
    );
    for (const c of await repo.userCategories(tx, userId)) plan.categoryIds.set(catKey(c.kind, c.name), c.id);
  }

  const wanted = new Set(plan.toImport.flatMap((r) => r.tags));
  let tagIds = new Map<string, number>();
  if (wanted.size) {
    tagIds = new Map((await repo.userTags(tx, userId)).map((t) => [t.name, t.id]));
    const missing = [...wanted].filter((n) => !tagIds.has(n));
    if (missing.length) {
      await repo.insertTags(tx, userId, missing);
      tagIds = new Map((await repo.userTags(tx, userId)).map((t) => [t.name, t.id]));
    }
  }

  const ids = await repo.allocateTransactionIds(tx, plan.toImport.length);
  const account = await defaultAccount(tx, userId);
  for (let start = 0; start < plan.toImport.length; start += INSERT_BATCH) {
    const part = plan.toImport.slice(start, start + INSERT_BATCH);
    const links: { transactionId: number; tagId: number }[] = [];
    const rows = part.map((r, i) => {
      const id = ids[start + i]!;
      for (const t of r.tags) links.push({ transactionId: id, tagId: tagIds.get(t)! });
      return {
        id,
        kind: r.kind,
        cents: r.cents,
        categoryId: plan.categoryIds.get(catKey(r.kind, r.category))!,
        note: r.note,
        date: r.date,
        // a group the caller is not (or no longer) in, or that was dissolved: imported as personal
        groupId: r.groupId !== null && plan.liveGroups.has(r.groupId) ? r.groupId : null,
        createdAt: r.createdAt,
      };
    });
    await repo.insertTransactions(tx, userId, account, rows);
    await repo.insertTransactionTags(tx, links);
  }
}

const byRow = (a: RowError, b: RowError) => a.row - b.row;

/**
 * Imports a CSV or JSON file, all or nothing, in one database transaction. Any invalid row: 42203
 * listing every bad row, nothing written. A dry run answers what a real run would do and writes
 * nothing: with invalid rows that is nothing imported and the errors.
 */
export async function importFile(db: Executor, userId: number, file: Uint8Array, dryRun: boolean): Promise<ImportResult> {
  const { rows, errors } = validateRecords(parseFile(decodeText(file)));
  if (dryRun) {
    const plan = await planImport(db, userId, rows);
    const all = [...errors, ...plan.errors].sort(byRow);
    if (all.length) return { imported: 0, skipped: 0, errors: all };
    return { imported: plan.toImport.length, skipped: plan.skipped, errors: [] };
  }
  if (errors.length) {
    // every bad row is listed, those refused by the category limit included
    const plan = await planImport(db, userId, rows);
    throw Errors.importRejected([...errors, ...plan.errors].sort(byRow));
  }
  return db.transaction(async (tx) => {
    await repo.lockUserImports(tx, userId);
    const plan = await planImport(tx, userId, rows);
    if (plan.errors.length) throw Errors.importRejected(plan.errors.sort(byRow));
    await write(tx, userId, plan);
    return { imported: plan.toImport.length, skipped: plan.skipped, errors: [] };
  });
}
