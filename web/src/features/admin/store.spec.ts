import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { AdminUser, Backup } from '../../api/types';
import { deferred } from '../../lib/deferred';

const api = vi.hoisted(() => ({
  users: vi.fn(),
  restoreUser: vi.fn(),
  setUserStatus: vi.fn(),
  setUserRole: vi.fn(),
  deleteUser: vi.fn(),
  backups: vi.fn(),
  createBackup: vi.fn(),
  deleteBackup: vi.fn(),
}));
vi.mock('./api', () => ({ adminApi: api }));
vi.mock('../../stores/session', () => ({ loadConfig: vi.fn() }));

import { useAdminBackupsStore, useAdminUsersStore } from './store';

const user = (id: number, status: AdminUser['status'] = 'active') => ({ id, status, role: 'user' }) as AdminUser;
const backup = (id: number, status: Backup['status']) => ({ id, status }) as Backup;
const page = <T>(...list: T[]) => ({ list, total: list.length });

describe('the administration stores', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.resetAllMocks();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the users of the latest search, not of one that answered late', async () => {
    const older = deferred<ReturnType<typeof page<AdminUser>>>();
    api.users.mockReturnValueOnce(older.promise).mockResolvedValueOnce(page(user(2)));
    const store = useAdminUsersStore();
    const a = store.search({ keyword: 'a', status: 'all' });
    await store.search({ keyword: 'bo', status: 'disabled' });
    older.resolve(page(user(1)));
    await a;
    expect(store.list.map((u) => u.id)).toEqual([2]);
    expect(api.users).toHaveBeenLastCalledWith({ keyword: 'bo', status: 'disabled' }, 1, 20);
  });

  it('reads the users again after a change, also after a refused one', async () => {
    api.users
      .mockResolvedValueOnce(page(user(1)))
      .mockResolvedValueOnce(page(user(1, 'disabled')))
      .mockResolvedValueOnce(page(user(1, 'disabled')));
    const store = useAdminUsersStore();
    await store.search({ keyword: '', status: 'all' });
    await store.toggleStatus(store.list[0]!);
    expect(api.setUserStatus).toHaveBeenCalledWith(1, 'disabled');
    expect(store.list[0]!.status).toBe('disabled');
    api.deleteUser.mockRejectedValueOnce(new Error('name does not match'));
    await expect(store.remove(store.list[0]!, 'x')).rejects.toThrow('name does not match');
    expect(api.users).toHaveBeenCalledTimes(3);
  });

  it('looks at the backups again while one runs, and stops when the screen closes', async () => {
    vi.useFakeTimers();
    api.backups
      .mockResolvedValueOnce(page(backup(1, 'pending')))
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValueOnce(page(backup(1, 'completed')));
    const store = useAdminBackupsStore();
    await store.watch();
    expect(api.backups).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(api.backups).toHaveBeenCalledTimes(2);
    // a failed read keeps the backup "running" and looks again, later
    await vi.advanceTimersByTimeAsync(4000);
    expect(api.backups).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(api.backups).toHaveBeenCalledTimes(3);
    expect(store.list[0]!.status).toBe('completed');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.backups).toHaveBeenCalledTimes(3);

    api.createBackup.mockResolvedValueOnce({});
    api.backups.mockResolvedValue(page(backup(2, 'pending')));
    await store.create();
    store.unwatch();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.backups).toHaveBeenCalledTimes(4);
  });
});
