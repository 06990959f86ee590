// Sends the outbox in order: at app start, when the network comes back, when the service worker
// relays a Background Sync, after each new operation, and again a little later after a cut.
// A create carries the Idempotency-Key made at Save, so a retry after a lost answer replays the
// server's first answer instead of writing twice. Edits and deletes are idempotent by nature: an
// edit sends the changed fields whole (PUT), so sending it again leaves the same row, and a delete
// whose row is already gone (404) is done. A refusal (4xx) stays in the outbox, marked, for the
// person to fix or discard; later operations on other rows still go. Files saved with an entry
// created offline follow its create (files.ts).
import { authedFetch } from '../../api/client';
import { currentUser, dbFor, type Op, type OfflineDb, type PendingFile } from './db';
import { fileBox, filesWaiting, keepFile, sendFiles } from './files';
import { isNetworkError, onEnqueued, publishOutbox } from './cache';
import { markOffline, markOnline, offline } from './store';
import { OUTBOX_SYNC_TAG } from './messages';

let running: Promise<number> | null = null;
/** asked for while a run was under way: that run may have read the outbox before what was added */
let again = false;
let retry: ReturnType<typeof setTimeout> | undefined;
let backoff = 1000;
let onSynced: () => void = () => {};

/** Views reload after operations reached the server. */
export function whenSynced(fn: () => void): void {
  onSynced = fn;
}

function send(op: Op, id: number): Promise<Response> {
  const url = new URL(op.kind === 'create' ? '/api/transactions' : `/api/transactions/${id}`, location.origin);
  const method = op.kind === 'create' ? 'POST' : op.kind === 'update' ? 'PUT' : 'DELETE';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (op.body) headers['Content-Type'] = 'application/json';
  if (op.kind === 'create') headers['Idempotency-Key'] = op.key;
  return authedFetch(new Request(url, { method, headers, body: op.body ? JSON.stringify(op.body) : null }));
}

/** A refusal that the same request will meet again: it waits for the person. */
function refusedForGood(status: number, code: number | undefined): boolean {
  if (status === 401 || status === 408 || status === 429 || status >= 500) return false;
  // the first attempt of the same key still runs on the server: try again shortly
  if (code === 40903) return false;
  return status >= 400;
}

/** Creates of different rows sent at the same time; everything else goes one by one. */
const WINDOW = 8;

type Outcome = { op: Op; res: Response; body: Record<string, unknown> | null } | { op: Op; cut: unknown };

async function sendAll(batch: { op: Op; id: number }[]): Promise<Outcome[]> {
  return Promise.all(
    batch.map(async ({ op, id }) => {
      try {
        const res = await send(op, id);
        return { op, res, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
      } catch (cut) {
        return { op, cut };
      }
    }),
  );
}

/**
 * Sends in order; counts the operations that were settled (sent, or refused for good). Creates
 * that follow one another go out together (up to WINDOW): they touch different rows, so their
 * order does not change what the server ends up with; an edit or delete waits for all before it.
 */
async function flush(db: OfflineDb): Promise<number> {
  let settled = 0;
  const ids = new Map((await db.getAll('ids')).map((x) => [x.temp, x.id]));
  const ops = (await db.getAll('outbox')).filter((o) => o.state !== 'refused');
  let i = 0;
  while (i < ops.length) {
    const batch: { op: Op; id: number }[] = [];
    while (i < ops.length && batch.length < WINDOW) {
      const op = ops[i]!;
      if (batch.length && op.kind !== 'create') break;
      i++;
      const id = op.target < 0 && op.kind !== 'create' ? ids.get(op.target) : op.target;
      // waits on a create that has not reached the server (refused, or not sent yet)
      if (id === undefined) continue;
      batch.push({ op, id });
      if (op.kind !== 'create') break;
    }
    if (!batch.length) continue;
    // recorded before sending: a create that may have reached the server is never changed again
    const mark = db.transaction('outbox', 'readwrite');
    for (const { op } of batch) await mark.store.put({ ...op, attempts: op.attempts + 1 });
    await mark.done;
    const outcomes = await sendAll(batch);
    let failure: unknown = null;
    const tx = db.transaction(['outbox', 'ids'], 'readwrite');
    for (const out of outcomes) {
      const { op } = out;
      if ('cut' in out) {
        failure ??= out.cut;
        continue;
      }
      const { res, body } = out;
      if (res.ok || (op.kind === 'delete' && res.status === 404)) {
        if (op.kind === 'create' && body && typeof body.id === 'number') {
          ids.set(op.target, body.id);
          await tx.objectStore('ids').put({ temp: op.target, id: body.id });
        }
        await tx.objectStore('outbox').delete(op.seq!);
        settled++;
        continue;
      }
      const code = typeof body?.code === 'number' ? body.code : undefined;
      if (!refusedForGood(res.status, code)) {
        failure ??= new Error(`the server answered ${res.status}`);
        continue;
      }
      await tx
        .objectStore('outbox')
        .put({ ...op, attempts: op.attempts + 1, state: 'refused', refusal: { status: res.status, body: body ?? {} } });
      settled++;
    }
    await tx.done;
    if (failure) {
      if (isNetworkError(failure)) markOffline();
      throw failure;
    }
    markOnline();
  }
  return settled;
}

function sendFile(transactionId: number, file: PendingFile): Promise<Response> {
  const form = new FormData();
  form.append('file', file.blob, file.name || 'receipt');
  const url = new URL(`/api/transactions/${transactionId}/attachments`, location.origin);
  return authedFetch(new Request(url, { method: 'POST', headers: { Accept: 'application/json' }, body: form }));
}

/** The outbox, then the files of the entries it created; throws on a cut (the rest waits). */
async function flushAll(db: OfflineDb): Promise<number> {
  const settled = await flush(db);
  const files = await sendFiles(fileBox(db), sendFile);
  if (files.failure) {
    if (isNetworkError(files.failure)) markOffline();
    // what was settled still reloads the views
    if (settled + files.settled) onSynced();
    throw files.failure;
  }
  return settled + files.settled;
}

function later(): void {
  clearTimeout(retry);
  retry = setTimeout(() => void syncNow(), backoff);
  backoff = Math.min(backoff * 2, 30_000);
}

/** Sends what waits; resolves with how many operations were settled (views then reload). One run at a time. */
export function syncNow(): Promise<number> {
  const user = currentUser();
  if (!user) return Promise.resolve(0);
  if (running) again = true;
  running ??= (async () => {
    const db = await dbFor(user);
    const left = async () => (await db.count('outbox')) + (await filesWaiting(db));
    if (!(await left())) return 0;
    offline.syncing = true;
    let settled = 0;
    try {
      settled = await flushAll(db);
      backoff = 1000;
    } catch {
      // cut off or a passing server failure: the rest waits, with the same keys
      if ((await left()) > 0) later();
    } finally {
      offline.syncing = false;
      await publishOutbox(db);
    }
    return settled;
  })().finally(() => {
    running = null;
    if (again) {
      again = false;
      void syncNow();
    }
  });
  return running.then((settled) => {
    if (settled) onSynced();
    return settled;
  });
}

/** Asks the browser for a Background Sync of the outbox where it has one. */
async function askBackgroundSync(): Promise<void> {
  const reg = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  const sync = (reg as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)
    ?.sync;
  await sync?.register(OUTBOX_SYNC_TAG).catch(() => undefined);
}

onEnqueued(() => {
  void askBackgroundSync();
  if (navigator.onLine) void syncNow();
});

/** Sends the outbox whenever the network comes back. */
export function startSync(): void {
  window.addEventListener('online', () => {
    markOnline();
    backoff = 1000;
    void syncNow();
  });
  window.addEventListener('offline', () => markOffline());
}

/**
 * Keeps a file saved with an entry created offline (`target`: its negative local id) until the
 * server holds it as that entry's attachment; sent as soon as the entry reached the server.
 */
export async function keepFileForLater(target: number, blob: Blob, name: string): Promise<void> {
  const user = currentUser();
  if (!user) throw new Error('nobody is signed in');
  await keepFile(await dbFor(user), target, blob, name);
  if (navigator.onLine) void syncNow();
}

/** Drops a refused (or any) operation, and everything that waits on a row it creates. */
export async function discard(op: Op): Promise<void> {
  const user = currentUser();
  if (!user) return;
  const db = await dbFor(user);
  const tx = db.transaction('outbox', 'readwrite');
  for (const o of await tx.store.getAll()) {
    if (o.seq === op.seq || (op.kind === 'create' && o.target === op.target)) await tx.store.delete(o.seq!);
  }
  await tx.done;
  await publishOutbox(db);
  onSynced();
}
