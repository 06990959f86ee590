import type { SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { CurrencyInfo } from '../../lib/currency.ts';
import type { SplitMode } from '../../lib/splits.ts';
import { writeDraft, type Draft } from './books.drafts.ts';
import { announce, afterWrite, followed, inTransaction, type BooksEvent } from './books.events.ts';
import { adoptImported, writeForeign, writeOriginal, type Adoption, type ForeignDraft } from './books.foreign.ts';
import { writeManual, type ManualDraft, type ManualWritten } from './books.manual.ts';
import {
  deleteRow,
  detachGroupRows,
  insertRow,
  insertRows,
  insertSelected,
  linkTags,
  linkTagsToAll,
  mergeAccountRows,
  moveCategory,
  replaceShares,
  replaceTags,
  updateRow,
  type BookedRow,
  type RowPatch,
  type SetWritten,
  type ShareInsert,
} from './books.writer.ts';

/*
 * The one way into the books: every change of transactions, their tags and their shares is a
 * `write(ex, userId, change)`, whatever feature it comes from. A change names where it comes from
 * (a manual entry, a group record, a transfer, an import, a recurring rule, the demo) and carries
 * a draft whose money is decided; the checks of its references are the feature's, made once before
 * it calls, except for a manual entry, whose references the writing statement itself checks
 * (books.manual.ts). Corrections, deletions and the rows other features move go the same way.
 */

export type TagLink = { transactionId: number; tagId: number };

export type BooksChange =
  /** an expense or an income a person records: checked and written by one statement */
  | { type: 'manual'; draft: ManualDraft; inTransaction: boolean }
  /** a row of one's own whose references the caller checked (a refund, a balance adjustment) */
  | { type: 'booked'; draft: Draft }
  /** an expense or an income of one's own paid in another currency than its account's, with what was paid */
  | { type: 'foreign'; draft: ForeignDraft }
  /** what a row of the owner was paid in another currency: set, or cleared with null */
  | { type: 'original'; id: number; original: { minor: number; currency: string } | null }
  /** typed rows that a bill's rows turned out to be take the bill's id, time and counterparty */
  | { type: 'adopt'; rows: readonly Adoption[] }
  /** a group record with its tags and its shares */
  | {
      type: 'group';
      row: BookedRow;
      tagIds: readonly number[];
      split: { mode: SplitMode; shares: readonly ShareInsert[] };
    }
  /** a transfer with its tags, and its fee (an expense pointing to it) */
  | { type: 'transfer'; row: BookedRow; tagIds: readonly number[]; fee: BookedRow | null }
  /** the fee a transfer gains on a correction */
  | { type: 'transferFee'; transferId: number; fee: BookedRow }
  /** a page of an imported file's rows and their tags */
  | { type: 'import'; rows: readonly BookedRow[]; links: readonly TagLink[] }
  /** a bill's rows chosen by a query, priced in the statement (insertSelected) */
  | { type: 'importSelected'; source: SQL; currencies: readonly CurrencyInfo[] }
  /** a recurring rule's occurrences (an occurrence already booked is left alone) and their tags */
  | { type: 'recurring'; rows: readonly BookedRow[]; tagIds: readonly number[] }
  /** the sample month of a demo user */
  | { type: 'demo'; rows: readonly BookedRow[] }
  /** a correction of one of the owner's rows: its columns, its tags, its shares (null: none) */
  | {
      type: 'update';
      id: number;
      patch: RowPatch;
      tagIds?: readonly number[];
      shares?: { groupId: number | null; mode: SplitMode; shares: readonly ShareInsert[] } | null;
    }
  | { type: 'delete'; id: number }
  /** a category that goes: its rows move to another of the owner's */
  | { type: 'moveCategory'; fromId: number; toId: number }
  /** an account merged into another of the same currency */
  | { type: 'mergeAccounts'; fromId: number; toId: number }
  /** a group that goes away: the rows the others recorded in it become theirs alone */
  | { type: 'detachGroup'; groupId: number };

interface Results {
  manual: ManualWritten;
  booked: number;
  foreign: number;
  original: void;
  adopt: number[];
  group: number;
  transfer: number;
  transferFee: number;
  import: number[];
  importSelected: SetWritten;
  recurring: number[];
  demo: number[];
  update: void;
  delete: boolean;
  moveCategory: number;
  mergeAccounts: { moved: number; removedTransfers: number };
  detachGroup: void;
}

type Change<T extends BooksChange['type']> = Extract<BooksChange, { type: T }>;
type Writers = { [T in BooksChange['type']]: (ex: Executor, userId: number, c: Change<T>) => Promise<Results[T]> };

const writers: Writers = {
  manual: (ex, userId, c) => writeManual(ex, userId, c.draft, c.inTransaction),
  booked: (ex, userId, c) => writeDraft(ex, userId, c.draft),
  foreign: (ex, userId, c) => writeForeign(ex, userId, c.draft),
  original: (ex, userId, c) => writeOriginal(ex, userId, c.id, c.original),
  adopt: (ex, userId, c) => adoptImported(ex, userId, c.rows),
  group: async (ex, userId, c) => {
    const id = await insertRow(ex, userId, c.row);
    await replaceTags(ex, id, c.tagIds);
    await replaceShares(ex, id, c.row.groupId, c.split.mode, c.split.shares);
    return id;
  },
  transfer: async (ex, userId, c) => {
    const id = await insertRow(ex, userId, c.row);
    await replaceTags(ex, id, c.tagIds);
    if (c.fee) await insertRow(ex, userId, { ...c.fee, parentId: id });
    return id;
  },
  transferFee: (ex, userId, c) => insertRow(ex, userId, { ...c.fee, parentId: c.transferId }),
  import: async (ex, userId, c) => {
    const ids = await insertRows(ex, userId, c.rows);
    await linkTags(ex, c.links);
    return ids;
  },
  importSelected: (ex, userId, c) => insertSelected(ex, userId, c.source, c.currencies),
  recurring: async (ex, userId, c) => {
    const ids = await insertRows(ex, userId, c.rows, { skipRecurringDuplicates: true });
    await linkTagsToAll(ex, ids, c.tagIds);
    return ids;
  },
  demo: (ex, userId, c) => insertRows(ex, userId, c.rows),
  update: async (ex, userId, c) => {
    if (Object.keys(c.patch).length) await updateRow(ex, userId, c.id, c.patch);
    if (c.shares !== undefined)
      await replaceShares(ex, c.id, c.shares?.groupId ?? null, c.shares?.mode ?? 'equal', c.shares?.shares ?? []);
    if (c.tagIds) await replaceTags(ex, c.id, c.tagIds);
  },
  delete: (ex, userId, c) => deleteRow(ex, userId, c.id),
  moveCategory: (ex, userId, c) => moveCategory(ex, userId, c.fromId, c.toId),
  mergeAccounts: (ex, userId, c) => mergeAccountRows(ex, userId, c.fromId, c.toId),
  detachGroup: (ex, userId, c) => detachGroupRows(ex, c.groupId, userId),
};

/** The events a change tells its listeners (books.events.ts); bulk moves and imports tell none per row. */
function eventsOf(userId: number, c: BooksChange, out: unknown): BooksEvent[] {
  const created = (id: number): BooksEvent => ({ type: 'transaction.created', userId, transactionId: id });
  const updated = (id: number): BooksEvent[] => [{ type: 'transaction.updated', userId, transactionId: id }];
  switch (c.type) {
    case 'manual': {
      const m = out as ManualWritten;
      return [created('row' in m ? m.row.id : m.id)];
    }
    case 'booked':
    case 'foreign':
    case 'transfer':
      return [created(out as number)];
    case 'group': {
      const id = out as number;
      if (c.row.kind !== 'expense') return [created(id)];
      // each person sharing the expense, and its payer, hears of it once
      const sharing = new Set([...c.split.shares.map((s) => s.userId), c.row.paidBy ?? userId]);
      return [
        created(id),
        ...[...sharing].map((u): BooksEvent => ({ type: 'group.expense.shared', userId: u, transactionId: id })),
      ];
    }
    case 'recurring':
      return (out as number[]).map(created);
    case 'original':
    case 'update':
      return updated(c.id);
    case 'transferFee':
      return updated(c.transferId);
    case 'delete':
      return out ? [{ type: 'transaction.deleted', userId, transactionId: c.id }] : [];
    default:
      return [];
  }
}

const TELLING = new Set<BooksChange['type']>([
  'manual',
  'booked',
  'foreign',
  'group',
  'transfer',
  'recurring',
  'original',
  'update',
  'transferFee',
  'delete',
]);

/**
 * Writes one change of the books (inside the caller's transaction when it must hold with others).
 * Its events are recorded by the listeners in the same transaction as the change: a change made
 * outside one is wrapped in a transaction when a listener follows the person, and written as
 * before (one statement, no transaction) when none does.
 */
export async function write<C extends BooksChange>(
  ex: Executor,
  userId: number,
  change: C,
): Promise<Results[C['type']]> {
  const writer = writers[change.type] as unknown as (ex: Executor, userId: number, c: C) => Promise<Results[C['type']]>;
  if (!afterWrite.size || !TELLING.has(change.type)) return writer(ex, userId, change);
  const told = async (w: Executor, c: C) => {
    const out = await writer(w, userId, c);
    await announce(w, eventsOf(userId, c, out));
    return out;
  };
  if (inTransaction(ex)) return told(ex, change);
  if (!(await followed(ex, userId))) return writer(ex, userId, change);
  // a manual entry in this transaction is written in a savepoint of it, as any entry in a transaction
  return ex.transaction((tx) => told(tx, change.type === 'manual' ? { ...change, inTransaction: true } : change));
}
