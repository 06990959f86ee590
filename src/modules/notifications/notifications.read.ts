// Reading notices: a person's list and unread count, marking them read, and the administrators' list.
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { toNotification, type NotificationDeps } from './notifications.deps.ts';
import type { Scope } from './notifications.schemas.ts';

export const STRONG_LIST_MAX = 100;

type ListQuery = { scope?: Scope; page?: number; pageSize?: number };

/** The notices `userId` sees now, newest first, a page of them. */
export async function listNotifications({ db, clock, repo }: NotificationDeps, userId: number, q: ListQuery) {
  const { rows, total } = await repo.listVisible(db, userId, clock.now(), { scope: q.scope, ...pageOf(q) });
  return { list: rows.map(toNotification), total };
}

/** Every notice, published or not, a page of them. */
export async function adminListNotifications({ db, repo }: NotificationDeps, adminId: number, q: ListQuery) {
  const { rows, total } = await repo.listAll(db, adminId, { scope: q.scope, ...pageOf(q) });
  return { list: rows.map(toNotification), total };
}

/** How many notices are unread, and the strong ones among them to show at once. */
export async function unreadCount({ db, clock, repo }: NotificationDeps, userId: number) {
  const at = clock.now();
  const [count, strong] = await Promise.all([
    repo.countUnread(db, userId, at),
    repo.listUnreadStrong(db, userId, at, STRONG_LIST_MAX),
  ]);
  return { count, strong: strong.map(toNotification) };
}

export async function markRead({ db, clock, repo }: NotificationDeps, userId: number, id: number): Promise<void> {
  if (!(await repo.findVisible(db, id, userId, clock.now()))) throw Errors.notFound('notification');
  await repo.markRead(db, id, userId);
}

export async function markAllRead({ db, clock, repo }: NotificationDeps, userId: number): Promise<{ updated: number }> {
  return { updated: await repo.markAllRead(db, userId, clock.now()) };
}
