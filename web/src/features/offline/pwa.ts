// The installable app in the page: the manifest of the page's language, the service worker and
// its update prompt, the "New entry" shortcut, and the offline layer under the API client.
import { watch } from 'vue';
import type { Router } from 'vue-router';
import { registerSW } from 'virtual:pwa-register';
import { useFetchLayer, authedFetch } from '../../api/client';
import { i18n } from '../../i18n';
import { session, today } from '../../stores/session';
import type { ClientConfig, Group, Me } from '../../api/types';
import { openAdd, shell } from '../../stores/shell';
import { keepMonth, offlineLayer, publishOutbox, whenFresher } from './cache';
import { userDb } from './db';
import { SW_SEND_OUTBOX } from './messages';
import { offline } from './store';
import { startSync, syncNow, whenSynced } from './sync';

let update: ((reload?: boolean) => Promise<void>) | null = null;

/**
 * True while a form holds something typed and not saved: the add dialog is open, or a field of a
 * form on the page (not a search or a filter date) has a value.
 */
export function formIsDirty(): boolean {
  if (shell.adding) return true;
  return [
    ...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('main form input, main form textarea'),
  ].some(
    (el) =>
      !['search', 'date', 'hidden', 'checkbox', 'radio', 'submit', 'button'].includes(el.type) &&
      el.value.trim() !== '' &&
      el.value !== el.defaultValue,
  );
}

/** Reloads into the new version, unless a form is dirty (then false: the prompt stays). */
export async function applyUpdate(): Promise<boolean> {
  if (formIsDirty() || !update) return false;
  // the new worker takes over, then the page loads again under it (workbox-window reloads only
  // for an update it found itself, not for one the browser found while the page stayed open)
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  await update(false);
  return true;
}

function linkManifest(lang: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'manifest';
    document.head.append(link);
  }
  link.href = lang === 'zh-CN' ? '/manifest.zh-CN.webmanifest' : '/manifest.webmanifest';
}

export function installOffline(router: Router): void {
  useFetchLayer(offlineLayer);
  startSync();
  whenSynced(() => shell.saved++);
  // a start from the cache, corrected by the network's answer
  whenFresher((path, body) => {
    if (path === '/api/transactions') shell.saved++;
    else if (path === '/api/me') session.me = body as Me;
    else if (path === '/api/config') session.config = body as ClientConfig;
    else if (path === '/api/groups') session.groups = (body as { list: Group[] }).list;
  });
  watch(() => i18n.global.locale.value, linkManifest, { immediate: true });

  // the "New entry" shortcut of the installed app
  router.afterEach((to) => {
    if (to.name === 'books' && to.query.new === '1') {
      openAdd();
      const { new: _drop, ...rest } = to.query;
      void router.replace({ query: rest });
    }
  });

  // a signed-in start: show what waits, send it, and keep the month whole for offline use
  watch(
    () => session.me?.id,
    async (id) => {
      if (!id) return;
      await publishOutbox(await userDb());
      void syncNow();
      if (navigator.onLine) void keepMonth(authedFetch, today()).catch(() => undefined);
    },
    { immediate: true },
  );

  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    update = registerSW({
      immediate: true,
      onNeedRefresh() {
        offline.updateReady = true;
      },
    });
    navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
      if ((e.data as { type?: string } | null)?.type === SW_SEND_OUTBOX) void syncNow();
    });
  }
}
