// The notifications the reader sees: one page of them, the unread badge with the important notices
// that pop up once, reading them, and publishing one. The store owns loading, errors, answers that
// arrive after a newer request (dropped), and the refresh after a change; views call it, not the API.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { Notification } from '../../api/types';
import { createPager } from '../../lib/pager';
import { onSessionEnd } from '../../lib/session-end';
import { shell } from '../../stores/shell';
import { notificationsApi, type NoticeFields, type Scope } from './api';

export { PAGE_SIZE } from '../../lib/pager';

export const useNotificationsStore = defineStore('notifications', () => {
  const scope = ref<'' | Scope>('');
  const pager = createPager((page, pageSize) =>
    notificationsApi.list({ ...(scope.value ? { scope: scope.value } : {}), page, pageSize }),
  );
  const { list, load } = pager;

  /** important notices not yet shown in this tab: each pops up once */
  const strong = ref<Notification[]>([]);
  const shown = new Set<number>();
  let badgeSeq = 0;
  onSessionEnd(() => {
    pager.forget();
    scope.value = '';
    strong.value = [];
    shown.clear();
    shell.unread = 0;
  });

  /**
   * Reads the unread count (and any new important notice). A failure leaves the badge as it was and
   * answers false.
   */
  async function refreshBadge(): Promise<boolean> {
    const mine = ++badgeSeq;
    const res = await notificationsApi.unreadCount().catch(() => null);
    if (!res) return false;
    if (mine !== badgeSeq) return true;
    shell.unread = res.count;
    const fresh = res.strong.filter((n) => !shown.has(n.id));
    if (fresh.length) {
      for (const n of fresh) shown.add(n.id);
      strong.value = fresh;
    }
    return true;
  }

  async function filter(s: '' | Scope): Promise<void> {
    scope.value = s;
    await pager.goTo(1);
  }

  /** Marks one read (harmless when it already is) and refreshes what shows it. */
  async function markRead(id: number): Promise<void> {
    const on = list.value.find((n) => n.id === id);
    if (on) on.read = true;
    await notificationsApi.markRead(id);
    await Promise.all([list.value.length ? load() : Promise.resolve(), refreshBadge()]);
  }

  async function readAll(): Promise<void> {
    await notificationsApi.readAll();
    await Promise.all([load(), refreshBadge()]);
  }

  /** Closes the pop-up of important notices: they count as read. */
  async function closeStrong(): Promise<void> {
    const closing = strong.value;
    strong.value = [];
    await Promise.all(closing.map((n) => notificationsApi.markRead(n.id).catch(() => undefined)));
    await refreshBadge();
  }

  /** Publishes a notice, or saves the one with this id, then refreshes what may show it. */
  async function publish(body: NoticeFields, id?: number): Promise<void> {
    if (id === undefined) await notificationsApi.publish(body);
    else await notificationsApi.update(id, body);
    await Promise.all([pager.loaded.value ? load() : Promise.resolve(), refreshBadge()]);
  }

  return { ...pager, scope, strong, filter, refreshBadge, markRead, readAll, closeStrong, publish };
});
