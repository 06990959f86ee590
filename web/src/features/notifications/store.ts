// The notifications the reader sees: one page of them, the unread badge, and reading them. The
// store owns loading, errors, answers that arrive after a newer request (dropped), and the refresh
// after a change; views call it, not the API.
import { reactive } from 'vue';
import type { Notification } from '../../api/types';
import { describeError } from '../../i18n';
import { shell } from '../../stores/shell';
import { notificationsApi, type Scope } from './api';

export const PAGE_SIZE = 20;

export const notificationsStore = reactive({
  list: [] as Notification[],
  total: 0,
  page: 1,
  scope: '' as '' | Scope,
  loading: false,
  error: '',
  /** the number of the latest list request: an older answer is stale */
  seq: 0,

  async load(): Promise<void> {
    const seq = ++this.seq;
    this.loading = true;
    try {
      const res = await notificationsApi.list({ ...(this.scope ? { scope: this.scope } : {}), page: this.page, pageSize: PAGE_SIZE });
      if (seq !== this.seq) return;
      this.list = res.list;
      this.total = res.total;
      this.error = '';
    } catch (err) {
      if (seq === this.seq) this.error = describeError(err);
    } finally {
      if (seq === this.seq) this.loading = false;
    }
  },

  async refreshBadge(): Promise<void> {
    const res = await notificationsApi.unreadCount().catch(() => null);
    if (res) shell.unread = res.count;
  },

  /** Marks one read (harmless when it already is) and refreshes what shows it. */
  async markRead(id: number): Promise<void> {
    const shown = this.list.find((n) => n.id === id);
    if (shown) shown.read = true;
    await notificationsApi.markRead(id);
    await Promise.all([this.list.length ? this.load() : Promise.resolve(), this.refreshBadge()]);
  },

  async readAll(): Promise<void> {
    await notificationsApi.readAll();
    await Promise.all([this.load(), this.refreshBadge()]);
  },
});
