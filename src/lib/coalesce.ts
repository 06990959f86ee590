/*
 * Requests made in the same turn of the event loop, handled together: the way a database groups
 * commits. The books' inserts share one statement this way, and so do the webhooks' questions
 * whether a person follows their changes.
 */

/** An item waiting in a batch, with the settling of its own promise. */
export interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Answers a function of one item whose calls in the same turn of the event loop go to `run`
 * together: at most `maxBatch` items a batch, `maxInFlight` batches at once, the rest when one ends.
 * `run` settles each item of its batch; if it throws, every item of the batch is rejected with that.
 */
export function coalesce<T, R>(
  run: (batch: Waiting<T, R>[]) => Promise<void>,
  { maxBatch, maxInFlight }: { maxBatch: number; maxInFlight: number },
): (item: T) => Promise<R> {
  let queue: Waiting<T, R>[] = [];
  let scheduled = false;
  let inFlight = 0;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  };

  function pump(): void {
    scheduled = false;
    while (queue.length && inFlight < maxInFlight) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(maxBatch);
      inFlight++;
      run(batch)
        .catch((err: unknown) => batch.forEach((w) => w.reject(err)))
        .finally(() => {
          inFlight--;
          if (queue.length) schedule();
        });
    }
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}
