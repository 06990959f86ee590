import type { Executor } from '../../db/client.ts';
import * as repo from './webhooks.repo.ts';

/*
 * Whether a person has an endpoint that is on, asked by the books before every change made outside
 * a transaction. Asked one by one, the lookup cost a round trip per new record, as much as the
 * record's own insert (whose concurrent writes share a statement). The questions asked in the same
 * turn of the event loop share one lookup instead; each answer is read from the database at that
 * moment, never from a cache, so an endpoint saved a moment before is followed.
 */

type Ask = { userId: number; resolve: (on: boolean) => void; reject: (err: unknown) => void };

/** At most this many people in one lookup, and this many lookups at once. */
const MAX_PEOPLE = 500;
const MAX_IN_FLIGHT = 4;

const lookups = new WeakMap<Executor, (userId: number) => Promise<boolean>>();

/** Whether the person has an endpoint that is on, asked with the others of this moment. */
export function hasEnabledEndpoint(ex: Executor, userId: number): Promise<boolean> {
  let ask = lookups.get(ex);
  if (!ask) lookups.set(ex, (ask = coalesced(ex)));
  return ask(userId);
}

function coalesced(ex: Executor) {
  let queue: Ask[] = [];
  let scheduled = false;
  let inFlight = 0;

  async function look(batch: Ask[]): Promise<void> {
    const on = await repo.peopleWithEnabledEndpoints(ex, [...new Set(batch.map((a) => a.userId))]);
    for (const a of batch) a.resolve(on.has(a.userId));
  }

  function pump(): void {
    scheduled = false;
    while (queue.length && inFlight < MAX_IN_FLIGHT) {
      const batch = queue.slice(0, MAX_PEOPLE);
      queue = queue.slice(MAX_PEOPLE);
      inFlight++;
      look(batch)
        .catch((err: unknown) => batch.forEach((a) => a.reject(err)))
        .finally(() => {
          inFlight--;
          if (queue.length && !scheduled) {
            scheduled = true;
            setImmediate(pump);
          }
        });
    }
  }

  return (userId: number) =>
    new Promise<boolean>((resolve, reject) => {
      queue.push({ userId, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(pump);
      }
    });
}
