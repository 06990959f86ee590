// The administration screens' state, one store per section: each owns its reads (loading, errors,
// stale answers dropped) and reads again what a change touched. Views call these, not the API.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AdminUser, Dashboard, Health, LogDay, LogFile, Notification, TrackStats } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { createPager, forgetLoader } from '../../lib/pager';
import { onSessionEnd } from '../../lib/session-end';
import { loadConfig } from '../../stores/session';
import { adminApi, type FeedbackStatus, type LogQuery, type ShownConfig, type UserQuery } from './api';

/** Runs a change, then reads the list again whether it was done or refused (the list may have moved on). */
async function changeThenRead(change: () => Promise<unknown>, read: () => Promise<void>): Promise<void> {
  try {
    await change();
  } finally {
    await read();
  }
}

export const useAdminDashboardStore = defineStore('admin-dashboard', () => {
  const dashboard = createLoader<Dashboard | null>(() => adminApi.dashboard(), null);
  const health = createLoader<Health | null>(() => adminApi.health(), null);
  const load = () => Promise.all([dashboard.load(), health.load()]).then(() => undefined);
  onSessionEnd(() => {
    forgetLoader(dashboard, null);
    forgetLoader(health, null);
  });
  return { dashboard: dashboard.data, health: health.data, error: dashboard.error, loading: dashboard.loading, load };
});

export const useAdminUsersStore = defineStore('admin-users', () => {
  const query = ref<UserQuery>({ keyword: '', status: 'all' });
  const pager = createPager((page, size) => adminApi.users(query.value, page, size));
  onSessionEnd(pager.forget);
  /** shows the first page of the users matching q */
  const search = (q: UserQuery) => ((query.value = { ...q }), pager.goTo(1));
  const change = (fn: () => Promise<unknown>) => changeThenRead(fn, pager.load);
  return {
    ...pager,
    query,
    search,
    restore: (u: AdminUser) => change(() => adminApi.restoreUser(u.id)),
    toggleStatus: (u: AdminUser) =>
      change(() => adminApi.setUserStatus(u.id, u.status === 'active' ? 'disabled' : 'active')),
    toggleRole: (u: AdminUser) => change(() => adminApi.setUserRole(u.id, u.role === 'admin' ? 'user' : 'admin')),
    remove: (u: AdminUser, confirmName: string) => change(() => adminApi.deleteUser(u.id, confirmName)),
  };
});

export const useAdminFeedbackStore = defineStore('admin-feedback', () => {
  const status = ref<'' | FeedbackStatus>('pending');
  const pager = createPager((page, size) => adminApi.feedback(status.value, page, size));
  onSessionEnd(pager.forget);
  const filter = (s: '' | FeedbackStatus) => ((status.value = s), pager.goTo(1));
  const setStatus = (id: number, next: FeedbackStatus) =>
    changeThenRead(() => adminApi.setFeedbackStatus(id, next), pager.load);
  async function reply(id: number, text: string): Promise<void> {
    await adminApi.replyFeedback(id, text.trim());
    await pager.load();
  }
  return { ...pager, status, filter, setStatus, reply };
});

export const useAdminNoticesStore = defineStore('admin-notices', () => {
  const scope = ref<'' | Notification['scope']>('');
  const pager = createPager((page, size) => adminApi.notices(scope.value, page, size));
  onSessionEnd(pager.forget);
  const filter = (s: '' | Notification['scope']) => ((scope.value = s), pager.goTo(1));
  const change = (fn: () => Promise<unknown>) => changeThenRead(fn, pager.load);
  return {
    ...pager,
    scope,
    filter,
    pin: (n: Notification) => change(() => adminApi.pinNotice(n.id, !n.pinned)),
    remove: (n: Notification) => change(() => adminApi.deleteNotice(n.id)),
  };
});

export const useAdminConfigStore = defineStore('admin-config', () => {
  /** the displayed texts as saved, read through the shared client configuration */
  const load = async (): Promise<ShownConfig> => {
    const c = await loadConfig();
    return { app_version: c.app_version, tagline: c.tagline, description: c.description };
  };
  /** saves the texts, then reads the configuration every screen shows again */
  async function save(c: ShownConfig): Promise<void> {
    await adminApi.saveConfig({
      app_version: c.app_version.trim(),
      tagline: c.tagline.trim(),
      description: c.description.trim(),
    });
    await loadConfig();
  }
  return { load, save };
});

export const useAdminBackupsStore = defineStore('admin-backups', () => {
  const pager = createPager((page, size) => adminApi.backups(page, size));
  onSessionEnd(pager.forget);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watching = false;
  /** whether a backup was running when the list was last read: the list then looks again by itself */
  let running = false;

  async function load(): Promise<void> {
    clearTimeout(timer);
    await pager.load();
    if (!watching) return;
    const failed = pager.error.value !== null;
    if (!failed) running = pager.list.value.some((b) => b.status === 'pending');
    // a running backup finishes in the background: look again shortly, also after a failed read
    // (a running one must not stay "running" on screen until the page is reloaded)
    if (running) timer = setTimeout(() => void load(), failed ? 5000 : 2000);
  }
  /** the screen is open: read the list, and keep reading it while a backup runs */
  function watch(): Promise<void> {
    watching = true;
    return load();
  }
  function unwatch(): void {
    watching = false;
    clearTimeout(timer);
  }
  const create = () =>
    changeThenRead(async () => {
      await adminApi.createBackup();
      running = true;
    }, load);
  const remove = (id: number) => changeThenRead(() => adminApi.deleteBackup(id), load);
  const goTo = (p: number) => ((pager.page.value = p), load());
  return {
    page: pager.page,
    list: pager.list,
    total: pager.total,
    loading: pager.loading,
    error: pager.error,
    loaded: pager.loaded,
    load,
    goTo,
    watch,
    unwatch,
    create,
    remove,
  };
});

export const useAdminLogsStore = defineStore('admin-logs', () => {
  const files = createLoader<LogFile[]>(() => adminApi.logFiles(), []);
  const days = createLoader<LogDay[]>(() => adminApi.logDays(), []);
  onSessionEnd(() => {
    forgetLoader(files, []);
    forgetLoader(days, []);
  });
  const query = ref<LogQuery>({ date: '', level: '', keyword: '' });
  const pager = createPager((page, size) => adminApi.logs(query.value, page, size));
  onSessionEnd(pager.forget);
  /** the files and the last days' counts; the query starts on the latest day with entries */
  async function open(): Promise<LogQuery> {
    await Promise.all([files.load(), days.load()]);
    return { date: days.data.value[0]?.date ?? '', level: '', keyword: '' };
  }
  const search = (q: LogQuery) => ((query.value = { ...q }), pager.goTo(1));
  return { ...pager, files: files.data, days: days.data, summaryError: days.error, query, open, search };
});

export const useAdminTrackStore = defineStore('admin-track', () => {
  const stats = createLoader<TrackStats | null>(() => adminApi.trackStats(), null);
  onSessionEnd(() => forgetLoader(stats, null));
  const eventType = ref('');
  const pager = createPager((page, size) => adminApi.track(eventType.value, page, size));
  onSessionEnd(pager.forget);
  const search = (type: string) => ((eventType.value = type), pager.goTo(1));
  return { ...pager, stats: stats.data, statsError: stats.error, loadStats: stats.load, eventType, search };
});
