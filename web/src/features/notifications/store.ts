// The notifications the reader sees: one page of them, the unread badge with the important notices
// that pop up once, reading them, and publishing one. The store owns loading, errors, answers that
// arrive after a newer request (dropped), and the refresh after a change; views call it, not the API.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Notification } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { shell } from '../../stores/shell';
import { notificationsApi, type NoticeBody, type Scope } from './api';

export const PAGE_SIZE = 20;

export const useNotificationsStore = defineStore('notifications', () => {
  const page = ref(1);
  const scope = ref<'' | Scope>('');
  const page$ = createLoader(
    () => notificationsApi.list({ ...(scope.value ? { scope: scope.value } : {}), page: page.value, pageSize: PAGE_SIZE }),
    { list: [] as Notification[], total: 0 },
  );
  const list = computed(() => page$.data.value.list);
  const total = computed(() => page$.data.value.total);

  /** important notices not yet shown in this tab: each pops up once */
  const strong = ref<Notification[]>([]);
  const shown = new Set<number>();
  let badgeSeq = 0;

  /** Reads the unread count (and any new important notice). A failure leaves the badge as it was. */
  async function refreshBadge(): Promise<void> {
    const mine = ++badgeSeq;
    const res = await notificationsApi.unreadCount().catch(() => null);
    if (!res || mine !== badgeSeq) return;
    shell.unread = res.count;
    const fresh = res.strong.filter((n) => !shown.has(n.id));
    if (fresh.length) {
      for (const n of fresh) shown.add(n.id);
      strong.value = fresh;
    }
  }

  async function goTo(p: number): Promise<void> {
    page.value = p;
    await page$.load();
  }

  async function filter(s: '' | Scope): Promise<void> {
    scope.value = s;
    await goTo(1);
  }

  /** Marks one read (harmless when it already is) and refreshes what shows it. */
  async function markRead(id: number): Promise<void> {
    const on = list.value.find((n) => n.id === id);
    if (on) on.read = true;
    await notificationsApi.markRead(id);
    await Promise.all([list.value.length ? page$.load() : Promise.resolve(), refreshBadge()]);
  }

  async function readAll(): Promise<void> {
    await notificationsApi.readAll();
    await Promise.all([page$.load(), refreshBadge()]);
  }

  /** Closes the pop-up of important notices: they count as read. */
  async function closeStrong(): Promise<void> {
    const closing = strong.value;
    strong.value = [];
    await Promise.all(closing.map((n) => notificationsApi.markRead(n.id).catch(() => undefined)));
    await refreshBadge();
  }

  /** Publishes a notice, or saves the one with this id, then refreshes what may show it. */
  async function publish(body: NoticeBody, id?: number): Promise<void> {
    if (id === undefined) await notificationsApi.publish(body);
    else await notificationsApi.update(id, body);
    await Promise.all([page$.loaded.value ? page$.load() : Promise.resolve(), refreshBadge()]);
  }

  return {
    page, scope, list, total, loading: page$.loading, error: page$.error, loaded: page$.loaded, strong,
    load: page$.load, goTo, filter, refreshBadge, markRead, readAll, closeStrong, publish,
  };
});
