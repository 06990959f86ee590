// The local store of one user: a database per user id, so that a second person on the same
// browser never opens the first one's cache or outbox. It holds the last answer of each cached
// GET (by address), the outbox of writes in the order they were made, the ids the server
// gave to rows created offline, and the files saved with such rows (sent once the row exists).
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface CachedAnswer {
  /** path and sorted query of the GET */
  url: string;
  body: unknown;
  /** when the server gave it (ms since the epoch) */
  at: number;
}

export type OpKind = 'create' | 'update' | 'delete';

export interface Op {
  /** the outbox order (assigned by the database) */
  seq?: number;
  kind: OpKind;
  /** made when the person pressed Save; sent as Idempotency-Key with a create */
  key: string;
  /** the row: a server id, or the negative local id of a row created offline */
  target: number;
  /** create: the whole create body; update: the PUT body */
  body: Record<string, unknown> | null;
  /** when it was saved */
  at: number;
  /** how many times it was sent without an answer, or with one that was lost */
  attempts: number;
  state: 'queued' | 'refused';
  /** the server's refusal: status and error body */
  refusal: { status: number; body: Record<string, unknown> } | null;
}

/** A file (a receipt's image) saved with an entry while offline, kept until the server holds it. */
export interface PendingFile {
  /** assigned by the database */
  id?: number;
  /** the entry it belongs to: its server id, or the negative local id of an entry created offline */
  target: number;
  blob: Blob;
  name: string;
  /** when it was saved */
  at: number;
  /** how many times it was sent */
  attempts: number;
  /** the server's refusal of the file itself (type, size, quota): it waits for the person, unsent */
  refusal: { status: number; body: Record<string, unknown> } | null;
}

interface OfflineSchema extends DBSchema {
  answers: { key: string; value: CachedAnswer };
  outbox: { key: number; value: Op };
  ids: { key: number; value: { temp: number; id: number } };
  files: { key: number; value: PendingFile };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

const USER = 'ledger.user';
const PREFIX = 'ledger-offline-';

export function dbName(userId: number): string {
  return `${PREFIX}${userId}`;
}

/** The signed-in user whose store is in use, remembered with the session (cleared with it). */
export function currentUser(): number | null {
  return Number(localStorage.getItem(USER)) || null;
}

export function rememberUser(id: number): void {
  localStorage.setItem(USER, String(id));
}

let opened: { userId: number; db: Promise<OfflineDb> } | null = null;

export function dbFor(userId: number): Promise<OfflineDb> {
  if (opened?.userId !== userId) {
    void opened?.db.then((d) => d.close()).catch(() => undefined);
    const db: Promise<OfflineDb> = openDB<OfflineSchema>(dbName(userId), 2, {
      upgrade(d, oldVersion) {
        if (oldVersion < 1) {
          d.createObjectStore('answers', { keyPath: 'url' });
          d.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
          d.createObjectStore('ids', { keyPath: 'temp' });
        }
        // version 2: the files of entries created offline
        if (oldVersion < 2) d.createObjectStore('files', { keyPath: 'id', autoIncrement: true });
      },
      // another tab signs this user out (deletes the database): let it go at once
      blocking() {
        void db.then((d) => d.close());
        if (opened?.db === db) opened = null;
      },
    });
    opened = { userId, db };
  }
  return opened.db;
}

/** The store of the signed-in user, or null when nobody is known. */
export async function userDb(): Promise<OfflineDb | null> {
  const id = currentUser();
  return id ? dbFor(id) : null;
}

/** Deletes one user's store (sign-out). */
export async function dropUserDb(userId: number): Promise<void> {
  if (opened?.userId === userId) {
    const db = await opened.db.catch(() => null);
    db?.close();
    opened = null;
  }
  // a tab of an older version that never lets go must not hold the sign-out forever
  await Promise.race([deleteDB(dbName(userId)), new Promise((r) => setTimeout(r, 3000))]);
}
