import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';

/*
 * What a change of the books tells the features that follow it (the webhooks' outbox): a record
 * created, corrected or deleted, and a group record's expense shared with its members. The books
 * know no listener: the composition root adds them (afterWrite), and `write` hands each one its
 * events with the executor of the change, so that what a listener writes commits or rolls back
 * with the change itself.
 */

export type BooksEventType =
  'transaction.created' | 'transaction.updated' | 'transaction.deleted' | 'group.expense.shared';

export interface BooksEvent {
  type: BooksEventType;
  /** whose event it is (the owner of the record; for a shared expense, each person sharing it) */
  userId: number;
  transactionId: number;
}

export interface BooksListener {
  /**
   * Whether anything may follow this person's changes: asked before a change made outside a
   * transaction, which is then wrapped in one only when the answer is yes (one indexed lookup, which
   * the listener may share with the questions of the same moment).
   */
  follows(ex: Executor, userId: number): Promise<boolean>;
  /** Records the events with the executor of the change (inside its transaction). */
  written(ex: Executor, events: readonly BooksEvent[]): Promise<void>;
}

const listeners = new Set<BooksListener>();

/** The listeners of every change of the books; adding the same listener twice adds it once. */
export const afterWrite = {
  add(listener: BooksListener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get size(): number {
    return listeners.size;
  },
};

/** Whether `ex` is an open transaction (or a savepoint of one) rather than the database handle. */
export const inTransaction = (ex: Executor): boolean => ex instanceof PgTransaction;

/** Whether any listener follows this person's changes. */
export async function followed(ex: Executor, userId: number): Promise<boolean> {
  for (const l of listeners) if (await l.follows(ex, userId)) return true;
  return false;
}

/** Hands the events to every listener, with the executor of the change. */
export async function announce(ex: Executor, events: readonly BooksEvent[]): Promise<void> {
  if (!events.length) return;
  for (const l of listeners) await l.written(ex, events);
}
