import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import type { BooksEvent, BooksListener } from '../books/index.ts';
import { newMessageId, type WebhookEvent } from './webhooks.events.ts';
import { hasEnabledEndpoint } from './webhooks.follows.ts';
import * as repo from './webhooks.repo.ts';

/*
 * The outbox: an event becomes one delivery row per endpoint subscribed to it, written with the
 * executor of the change, so that it commits or rolls back with the change. A person without an
 * endpoint for the event costs one lookup of the user index per transaction: what each person's
 * endpoints follow is kept for the rest of that transaction.
 */

const followedIn = new WeakMap<Executor, Map<number, Set<string>>>();

/** What each of these people follows, looked up once per transaction (every lookup outside one). */
async function subscriptions(ex: Executor, userIds: readonly number[]): Promise<Map<number, Set<string>>> {
  // the database handle outlives every change: only a transaction keeps what it looked up
  let known = ex instanceof PgTransaction ? followedIn.get(ex) : undefined;
  if (!known) {
    known = new Map();
    if (ex instanceof PgTransaction) followedIn.set(ex, known);
  }
  const missing = userIds.filter((u) => !known.has(u));
  if (missing.length) {
    const found = await repo.subscribedEvents(ex, missing);
    for (const u of missing) known.set(u, found.get(u) ?? new Set());
  }
  return known;
}

type Pending = Omit<repo.OutboxEvent, 'messageId'>;

async function enqueue(ex: Executor, events: readonly Pending[]): Promise<void> {
  if (!events.length) return;
  const subs = await subscriptions(ex, [...new Set(events.map((e) => e.userId))]);
  const wanted = events.filter((e) => subs.get(e.userId)?.has(e.type));
  if (!wanted.length) return;
  await repo.insertDeliveries(
    ex,
    wanted.map((e) => ({ ...e, messageId: newMessageId() })),
  );
}

/**
 * Puts an event of these people in the outbox, in the caller's transaction: `import.committed`,
 * `budget.exceeded` and `settlement.recorded` from where those are committed (the events of records
 * come from the books writer, through `booksListener`).
 */
export function recordEvent(
  ex: Executor,
  userIds: number | readonly number[],
  type: Exclude<WebhookEvent, `transaction.${string}` | 'group.expense.shared'>,
  data: Record<string, unknown>,
): Promise<void> {
  const people = [...new Set(typeof userIds === 'number' ? [userIds] : userIds)];
  return enqueue(
    ex,
    people.map((userId) => ({ userId, type, data, transactionId: null })),
  );
}

/** The books writer's listener: records and shared expenses become outbox rows in the change's transaction. */
export const booksListener: BooksListener = {
  follows: hasEnabledEndpoint,
  written: (ex, events: readonly BooksEvent[]) => {
    // one event per record, type and person within a change
    const seen = new Set<string>();
    const unique = events.filter((e) => {
      const key = `${e.type}:${e.transactionId}:${e.userId}`;
      return !seen.has(key) && seen.add(key);
    });
    return enqueue(
      ex,
      unique.map((e) => ({
        userId: e.userId,
        type: e.type,
        data: e.type === 'transaction.deleted' ? { id: e.transactionId } : null,
        transactionId: e.type === 'transaction.deleted' ? null : e.transactionId,
      })),
    );
  },
};
