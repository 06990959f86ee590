// The service worker: precaches the app shell and every hashed asset (the list is injected at
// build time), answers every page address with the shell offline, and passes /api by untouched.
// What another app shares to the installed app (an image, a PDF) is posted here: kept in the
// browser's database of images to read, then the add form opens and reads it.
// A Background Sync event for the outbox asks the open pages to send it: only a page holds the
// session's tokens, and a page that opens later sends the outbox at start anyway.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { OUTBOX_SYNC_TAG, SW_SEND_OUTBOX, SW_SKIP_WAITING } from './features/offline/messages';
import { keepImage, readable } from './features/receipts/inbox';
import { SHARE_TARGET_FILES, SHARE_TARGET_OPENS, SHARE_TARGET_PATH } from './features/receipts/share-target';

interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface SyncEvent extends ExtendableEvent {
  tag: string;
}
declare global {
  interface Window {
    /** the precache list, written in here at build time */
    __WB_MANIFEST: Parameters<typeof precacheAndRoute>[0];
  }
}
interface WorkerScope {
  skipWaiting(): Promise<void>;
  clients: {
    matchAll(opts: { type: 'window'; includeUncontrolled: boolean }): Promise<{ postMessage(m: unknown): void }[]>;
  };
  addEventListener(type: 'message', fn: (e: MessageEvent) => void): void;
  addEventListener(type: 'sync', fn: (e: SyncEvent) => void): void;
}
const sw = self as unknown as WorkerScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/docs(\/|$)/] }));
registerRoute(
  ({ url }) => url.origin === location.origin && url.pathname === SHARE_TARGET_PATH,
  async ({ request }) => {
    const form = await request.formData().catch(() => null);
    for (const file of form?.getAll(SHARE_TARGET_FILES) ?? []) {
      if (typeof file !== 'string' && readable(file))
        await keepImage({ blob: file, name: file.name, user: null, at: Date.now() });
    }
    return Response.redirect(SHARE_TARGET_OPENS, 303);
  },
  'POST',
);

sw.addEventListener('message', (e) => {
  if ((e.data as { type?: string } | null)?.type === SW_SKIP_WAITING) void sw.skipWaiting();
});

sw.addEventListener('sync', (e) => {
  if (e.tag !== OUTBOX_SYNC_TAG) return;
  e.waitUntil(
    sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
      for (const c of list) c.postMessage({ type: SW_SEND_OUTBOX });
    }),
  );
});
