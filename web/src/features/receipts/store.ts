// The images the add form reads into drafts, one after another ("1 of 3"): each is kept in the
// browser's database (inbox.ts) until its draft was saved (the image then becomes the entry's
// attachment) or skipped; without a network it waits, and is read as soon as the network returns.
import { defineStore } from 'pinia';
import { watch } from 'vue';
import { ApiError } from '../../api/client';
import { describeError } from '../../i18n';
import { session } from '../../stores/session';
import { openAdd, shell } from '../../stores/shell';
import { keepFileForLater } from '../offline';
import * as api from './api';
import { dropImage, dropImagesOf, imagesOf, keepImage, readable } from './inbox';

export { readable };

export type ReceiptStatus = 'waiting' | 'reading' | 'ready' | 'failed';

export interface ReceiptItem {
  /** this page's own number for it */
  key: number;
  /** its place in the browser's database; null when that could not keep it */
  inboxId: number | null;
  blob: Blob;
  name: string;
  status: ReceiptStatus;
  recognition: api.Recognition | null;
  error: string;
}

const online = () => typeof navigator === 'undefined' || navigator.onLine;

let keys = 0;

export const useReceiptQueue = defineStore('receipts', {
  state: () => ({
    items: [] as ReceiptItem[],
    /** images of this run already saved or skipped: the current one is number done + 1 */
    done: 0,
    reading: false,
  }),
  getters: {
    current: (s): ReceiptItem | null => s.items[0] ?? null,
    total: (s) => s.done + s.items.length,
    position: (s) => s.done + 1,
    waitingForNetwork: (s) => s.items.some((i) => i.status === 'waiting') && !online(),
  },
  actions: {
    /** Images given to the form (photo, paste, drop): kept, then read in order. */
    async add(files: readonly File[]) {
      const user = session.me?.id ?? null;
      for (const file of files.filter(readable)) {
        const inboxId = await keepImage({ blob: file, name: file.name, user, at: Date.now() }).catch(() => null);
        this.items.push({
          key: ++keys,
          inboxId,
          blob: file,
          name: file.name,
          status: 'waiting',
          recognition: null,
          error: '',
        });
      }
      await this.readWaiting();
    },

    /** The images still waiting in the browser (added offline, or shared from another app), then read. */
    async resume() {
      const user = session.me?.id;
      if (!user) return;
      const known = new Set(this.items.map((i) => i.inboxId));
      const images = await imagesOf(user).catch(() => []);
      for (const image of images) {
        if (known.has(image.id)) continue;
        this.items.push({
          key: ++keys,
          inboxId: image.id,
          blob: image.blob,
          name: image.name,
          status: 'waiting',
          recognition: null,
          error: '',
        });
      }
      await this.readWaiting();
    },

    /** Reads the waiting images one at a time while there is a network; a cut leaves them waiting. */
    async readWaiting() {
      if (this.reading) return;
      this.reading = true;
      try {
        for (;;) {
          const item = this.items.find((i) => i.status === 'waiting');
          if (!item || !online()) break;
          item.status = 'reading';
          try {
            item.recognition = await api.recognize(item.blob, item.name);
            item.status = 'ready';
          } catch (err) {
            if (!(err instanceof ApiError)) {
              // no answer: the network went away meanwhile
              item.status = 'waiting';
              break;
            }
            item.status = 'failed';
            item.error = describeError(err);
          }
        }
      } finally {
        this.reading = false;
      }
    },

    /**
     * The current image is done: attached to the entry saved from it (when there is one), then let
     * go. An entry saved offline (a negative local id), or one the network left before its image
     * was sent, keeps the image beside it in the outbox, sent as its attachment once the entry is
     * on the server. False when it could be neither attached nor kept (the entry stays saved).
     */
    async finish(item: ReceiptItem, transactionId: number | null): Promise<boolean> {
      let attached = true;
      if (transactionId !== null) {
        const later = () => keepFileForLater(transactionId, item.blob, item.name);
        // a cut while sending (no answer, not a refusal) keeps it for later too
        const attach =
          transactionId > 0
            ? api.attach(transactionId, item.blob, item.name).catch((err: unknown) => {
                if (err instanceof ApiError) throw err;
                return later();
              })
            : later();
        attached = await attach.then(
          () => true,
          () => false,
        );
      }
      if (item.inboxId !== null) await dropImage(item.inboxId).catch(() => undefined);
      this.items = this.items.filter((i) => i.key !== item.key);
      this.done = this.items.length ? this.done + 1 : 0;
      return attached;
    },
  },
});

/**
 * Attachments as screens show them: each entry's list by its id (the edit form's strip), and the
 * thumbnails by attachment id (data: addresses), read once and shared by every row that shows them.
 */
export const useAttachments = defineStore('attachments', {
  state: () => ({
    /** each entry's attachments, by transaction id */
    byEntry: {} as Record<number, api.Attachment[]>,
    /** a thumbnail by attachment id: '' while it is read, null when it could not be */
    thumbs: {} as Record<number, string | null>,
  }),
  actions: {
    async load(transactionId: number) {
      const found = await api.attachments(transactionId);
      this.byEntry[transactionId] = found;
      await Promise.all(found.filter((a) => a.has_thumbnail).map((a) => this.thumb(a.id)));
    },
    /** Reads an image's thumbnail once (a row scrolled into view asks for it). */
    async thumb(id: number) {
      if (id in this.thumbs) return;
      this.thumbs[id] = '';
      this.thumbs[id] = await api.pictureOf(id, true).catch(() => null);
    },
    /** The picture full size, as a data: address. */
    picture: (id: number) => api.pictureOf(id, false),
    /** A PDF opened in a tab of its own. */
    async openFile(id: number) {
      const url = URL.createObjectURL(await api.fileOf(id, false));
      window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
  },
});

let listening = false;

/**
 * Once for the page: when the network returns, the images waiting for it are read, and a draft
 * made of one opens the add form if it was closed meanwhile; a person signing out takes their
 * waiting images with them.
 */
export function readWhenOnline(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  // signing out leaves none of the person's images in this browser
  watch(
    () => session.me?.id,
    (now, before) => {
      if (!before || now === before) return;
      useReceiptQueue().$reset();
      void dropImagesOf(before).catch(() => undefined);
    },
  );
  window.addEventListener('online', () => {
    const queue = useReceiptQueue();
    void queue.resume().then(() => {
      if (!shell.adding && queue.items.some((i) => i.status === 'ready')) openAdd();
    });
  });
}
