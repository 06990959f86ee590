// The service worker: precaches the app shell and every hashed asset (the list is injected at
// build time), answers every page address with the shell offline, and passes /api by untouched.
// A Background Sync event for the outbox asks the open pages to send it: only a page holds the
// session's tokens, and a page that opens later sends the outbox at start anyway.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { OUTBOX_SYNC_TAG, SW_SEND_OUTBOX, SW_SKIP_WAITING } from './features/offline/messages';

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
  clients: { matchAll(opts: { type: 'window'; includeUncontrolled: boolean }): Promise<{ postMessage(m: unknown): void }[]> };
  addEventListener(type: 'message', fn: (e: MessageEvent) => void): void;
  addEventListener(type: 'sync', fn: (e: SyncEvent) => void): void;
}
const sw = self as unknown as WorkerScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/docs(\/|$)/] }));

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
