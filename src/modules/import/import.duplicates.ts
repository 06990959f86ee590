import type { Executor } from '../../db/client.ts';
import { existingCounts, type DupKey } from './import.repo.ts';

/**
 * The duplicate rule of rows without an id, for every import: a row is a duplicate while the
 * user's books hold as many transactions with its date, kind, amount, category, note and account
 * as the file has shown so far. So importing a file twice, or one's own export, adds nothing, and
 * two equal payments of one day in one file both stay when the books hold one.
 *
 * The answer marks each key of a batch (null: the row is not a candidate, e.g. its category or
 * account is created by the import); the counts carry over from batch to batch, so that a file
 * read in batches is judged as a whole. One query per batch, for the keys not seen before.
 */
export function duplicateCounter(
  ex: Executor,
  userId: number,
): (keys: readonly (DupKey | null)[]) => Promise<boolean[]> {
  const remaining = new Map<string, number>();
  return async (keys) => {
    const texts = keys.map((k) =>
      k === null
        ? null
        : `${k.accountId}\u0000${k.date}\u0000${k.kind}\u0000${k.amountMinor}\u0000${k.categoryId}\u0000${k.note}`,
    );
    const unseen = new Map<string, DupKey>();
    texts.forEach((t, i) => {
      if (t !== null && !remaining.has(t) && !unseen.has(t)) unseen.set(t, keys[i]!);
    });
    if (unseen.size) {
      const counts = await existingCounts(ex, userId, [...unseen.values()]);
      [...unseen.keys()].forEach((t, i) => remaining.set(t, counts[i]!));
    }
    return texts.map((t) => {
      if (t === null) return false;
      const left = remaining.get(t)!;
      if (left <= 0) return false;
      remaining.set(t, left - 1);
      return true;
    });
  };
}
