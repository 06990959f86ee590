// Images waiting to be read: kept in the browser's database until the server has read them into a
// draft and the draft was saved or dropped. The add form puts a photo there when the network is
// away; the service worker puts there what another app shared to this one (it knows no user:
// such images are for whoever opens the add form next on this browser).
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface WaitingImage {
  /** assigned by the database */
  id?: number;
  blob: Blob;
  name: string;
  /** the user who added it; null: shared from another app */
  user: number | null;
  /** when it was added (ms since the epoch) */
  at: number;
}

interface InboxSchema extends DBSchema {
  images: { key: number; value: WaitingImage };
}

/** What the add form reads: images and PDF files. */
export function readable(file: { type: string; name: string }): boolean {
  return (
    file.type.startsWith('image/') || file.type === 'application/pdf' || /\.(pdf|jpe?g|png|webp)$/i.test(file.name)
  );
}

const NAME = 'ledger-receipts';
let opened: Promise<IDBPDatabase<InboxSchema>> | null = null;

function inbox(): Promise<IDBPDatabase<InboxSchema>> {
  opened ??= openDB<InboxSchema>(NAME, 1, {
    upgrade(d) {
      d.createObjectStore('images', { keyPath: 'id', autoIncrement: true });
    },
  });
  return opened;
}

/** Keeps an image; answers its id. */
export async function keepImage(image: Omit<WaitingImage, 'id'>): Promise<number> {
  return (await inbox()).add('images', image as WaitingImage);
}

/** The images of this user and those shared from other apps, oldest first; shared ones become the user's. */
export async function imagesOf(user: number): Promise<(WaitingImage & { id: number })[]> {
  const db = await inbox();
  const tx = db.transaction('images', 'readwrite');
  const out: (WaitingImage & { id: number })[] = [];
  for (const image of await tx.store.getAll()) {
    if (image.user !== null && image.user !== user) continue;
    if (image.user === null) await tx.store.put({ ...image, user });
    out.push({ ...image, user, id: image.id! });
  }
  await tx.done;
  return out.sort((a, b) => a.at - b.at || a.id - b.id);
}

export async function dropImage(id: number): Promise<void> {
  await (await inbox()).delete('images', id);
}

/** Forgets every image of this user. */
export async function dropImagesOf(user: number): Promise<void> {
  const db = await inbox();
  const tx = db.transaction('images', 'readwrite');
  for (const image of await tx.store.getAll()) if (image.user === user) await tx.store.delete(image.id!);
  await tx.done;
}
