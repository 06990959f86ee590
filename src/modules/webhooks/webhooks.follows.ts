import type { Executor } from '../../db/client.ts';
import { coalesce } from '../../lib/coalesce.ts';
import * as repo from './webhooks.repo.ts';

/*
 * Whether a person has an endpoint that is on, asked by the books before every change made outside
 * a transaction. Asked one by one, the lookup cost a round trip per new record, as much as the
 * record's own insert (whose concurrent writes share a statement). The questions asked in the same
 * turn of the event loop share one lookup instead; each answer is read from the database at that
 * moment, never from a cache, so an endpoint saved a moment before is followed.
 */

const lookups = new WeakMap<Executor, (userId: number) => Promise<boolean>>();

/** Whether the person has an endpoint that is on, asked with the others of this moment. */
export function hasEnabledEndpoint(ex: Executor, userId: number): Promise<boolean> {
  let ask = lookups.get(ex);
  if (!ask)
    lookups.set(
      ex,
      (ask = coalesce<number, boolean>(
        async (batch) => {
          const on = await repo.peopleWithEnabledEndpoints(ex, [...new Set(batch.map((w) => w.item))]);
          for (const w of batch) w.resolve(on.has(w.item));
        },
        { maxBatch: 500, maxInFlight: 4 },
      )),
    );
  return ask(userId);
}
