import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { deferred } from '../../lib/deferred';
import { forgetSessionData } from '../../lib/session-end';
import type { Notification } from '../../api/types';
import { shell } from '../../stores/shell';

const api = vi.hoisted(() => ({
  list: vi.fn(),
  unreadCount: vi.fn(),
  markRead: vi.fn(),
  readAll: vi.fn(),
  publish: vi.fn(),
  update: vi.fn(),
}));
vi.mock('./api', () => ({ notificationsApi: api }));

import { useNotificationsStore } from './store';

const notice = (id: number, read = false) => ({ id, read }) as Notification;
const page = (...list: Notification[]) => ({ list, total: list.length });

describe('the notifications store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.resetAllMocks();
    shell.unread = 0;
    api.unreadCount.mockResolvedValue({ count: 0, strong: [] });
    api.markRead.mockResolvedValue({});
  });

  it('shows the page asked for last when an earlier one answers after it', async () => {
    const first = deferred<ReturnType<typeof page>>();
    const second = deferred<ReturnType<typeof page>>();
    api.list.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const store = useNotificationsStore();
    const a = store.goTo(1);
    const b = store.filter('group');
    second.resolve(page(notice(2)));
    await b;
    first.resolve(page(notice(1)));
    await a;
    expect(store.list.map((n) => n.id)).toEqual([2]);
    expect(api.list).toHaveBeenLastCalledWith({ scope: 'group', page: 1, pageSize: 20 });
  });

  it('marks a notice read at once, then reads the page and the badge again', async () => {
    api.list.mockResolvedValueOnce(page(notice(1), notice(2))).mockResolvedValueOnce(page(notice(1, true), notice(2)));
    api.unreadCount.mockResolvedValue({ count: 1, strong: [] });
    const store = useNotificationsStore();
    await store.goTo(1);
    const marking = store.markRead(1);
    expect(store.list[0]!.read).toBe(true);
    await marking;
    expect(api.markRead).toHaveBeenCalledWith(1);
    expect(api.list).toHaveBeenCalledTimes(2);
    expect(shell.unread).toBe(1);
  });

  it('pops each important notice up once, and counts it read when closed', async () => {
    api.unreadCount
      .mockResolvedValueOnce({ count: 2, strong: [notice(7)] })
      .mockResolvedValueOnce({ count: 2, strong: [notice(7)] })
      .mockResolvedValueOnce({ count: 1, strong: [] });
    const store = useNotificationsStore();
    await store.refreshBadge();
    expect(store.strong.map((n) => n.id)).toEqual([7]);
    await store.closeStrong();
    expect(api.markRead).toHaveBeenCalledWith(7);
    expect(store.strong).toEqual([]);
    await store.refreshBadge();
    expect(store.strong).toEqual([]);
    expect(shell.unread).toBe(1);
  });

  it('forgets the page, the badge and the notices already shown when the session ends', async () => {
    api.list.mockResolvedValueOnce(page(notice(1)));
    api.unreadCount.mockResolvedValue({ count: 1, strong: [notice(7)] });
    const store = useNotificationsStore();
    await store.filter('personal');
    await store.refreshBadge();
    forgetSessionData();
    expect(store.list).toEqual([]);
    expect(store.scope).toBe('');
    expect(store.strong).toEqual([]);
    expect(shell.unread).toBe(0);
    // the next person is shown their own important notices, even one with the same id
    await store.refreshBadge();
    expect(store.strong.map((n) => n.id)).toEqual([7]);
  });

  it('keeps the badge when the count cannot be read', async () => {
    shell.unread = 3;
    api.unreadCount.mockRejectedValueOnce(new Error('offline'));
    await useNotificationsStore().refreshBadge();
    expect(shell.unread).toBe(3);
  });

  it('publishes or saves a notice, then refreshes a page already shown', async () => {
    api.list.mockResolvedValue(page());
    const store = useNotificationsStore();
    await store.publish({ title: 'a' });
    expect(api.publish).toHaveBeenCalledWith({ title: 'a' });
    expect(api.list).not.toHaveBeenCalled();
    await store.goTo(1);
    await store.publish({ title: 'b' }, 4);
    expect(api.update).toHaveBeenCalledWith(4, { title: 'b' });
    expect(api.list).toHaveBeenCalledTimes(2);
    api.publish.mockRejectedValueOnce(new Error('refused'));
    await expect(store.publish({})).rejects.toThrow('refused');
  });
});
