// The files of entries saved offline: a receipt's image saved with an entry that went to the
// outbox is kept in the user's store (db.ts, `files`) beside the entry's create, and sent as that
// entry's attachment once the create reached the server and the server's id for the row is known
// (an entry already on the server whose image the network cut off waits the same way).
// A file goes from the store only when the server answered that it holds it (201), or that the
// entry is gone (404) or will never exist (its create was discarded). A retry after a lost answer
// sends the same bytes to the same entry, which the server keeps as one attachment.
import type { OfflineDb, Op, PendingFile } from './db';

/** What sending the files needs from the store: one consistent reading, and the three outcomes. */
export interface FileBox {
  /** the waiting files, the server ids of rows created offline, and the outbox's operations */
  read(): Promise<{ files: PendingFile[]; ids: Map<number, number>; ops: Op[] }>;
  /** recorded before a file is sent */
  tried(file: PendingFile): Promise<void>;
  /** the server holds it, or its entry is gone: the file may go */
  done(file: PendingFile): Promise<void>;
  refused(file: PendingFile, refusal: NonNullable<PendingFile['refusal']>): Promise<void>;
}

/** Posts one file as an attachment of the entry with this server id. */
export type SendFile = (transactionId: number, file: PendingFile) => Promise<Response>;

export interface FilesOutcome {
  /** files the server now holds, or that were let go with their entry */
  settled: number;
  /** a cut or a passing failure: what is left waits for the next run */
  failure: unknown;
}

/** A refusal of the file itself, which the same file meets again (the entry exists, so not 404). */
function refusedForGood(status: number): boolean {
  return status >= 400 && status < 500 && status !== 401 && status !== 404 && status !== 408 && status !== 429;
}

/**
 * Sends, in the order they were saved, the files whose entry the server created; a file whose
 * entry waits stays, one whose create left the outbox without reaching the server goes.
 */
export async function sendFiles(box: FileBox, send: SendFile): Promise<FilesOutcome> {
  const { files, ids, ops } = await box.read();
  const waiting = new Set(ops.filter((o) => o.kind === 'create').map((o) => o.target));
  let settled = 0;
  for (const file of files) {
    if (file.refusal) continue;
    const id = file.target > 0 ? file.target : ids.get(file.target);
    if (id === undefined) {
      if (waiting.has(file.target)) continue;
      // its entry was discarded (or deleted) before it ever reached the server
      await box.done(file);
      settled++;
      continue;
    }
    await box.tried(file);
    let res: Response;
    try {
      res = await send(id, file);
    } catch (cut) {
      return { settled, failure: cut };
    }
    if (res.ok || res.status === 404) {
      await box.done(file);
      settled++;
    } else if (refusedForGood(res.status)) {
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      await box.refused(file, { status: res.status, body: body ?? {} });
      settled++;
    } else {
      return { settled, failure: new Error(`the server answered ${res.status}`) };
    }
  }
  return { settled, failure: null };
}

/** The files store of a user's database as a `FileBox`. */
export function fileBox(db: OfflineDb): FileBox {
  return {
    async read() {
      // one transaction: a create that reached the server is in `ids` or still in the outbox, never neither
      const tx = db.transaction(['files', 'ids', 'outbox'], 'readonly');
      const [files, ids, ops] = await Promise.all([
        tx.objectStore('files').getAll(),
        tx.objectStore('ids').getAll(),
        tx.objectStore('outbox').getAll(),
      ]);
      await tx.done;
      return { files, ids: new Map(ids.map((x) => [x.temp, x.id])), ops };
    },
    async tried(file) {
      await db.put('files', { ...file, attempts: file.attempts + 1 });
    },
    async done(file) {
      await db.delete('files', file.id!);
    },
    async refused(file, refusal) {
      await db.put('files', { ...file, attempts: file.attempts + 1, refusal });
    },
  };
}

/** How many files wait to be sent (refused ones wait for the person, not for the network). */
export async function filesWaiting(db: OfflineDb): Promise<number> {
  return (await db.getAll('files')).filter((f) => !f.refusal).length;
}

/** Keeps a file for the entry `target`: a server id, or the negative local id of an entry created offline. */
export async function keepFile(db: OfflineDb, target: number, blob: Blob, name: string): Promise<void> {
  if (!Number.isInteger(target) || target === 0) throw new Error(`no entry ${target} to keep a file for`);
  await db.add('files', { target, blob, name, at: Date.now(), attempts: 0, refusal: null });
}
