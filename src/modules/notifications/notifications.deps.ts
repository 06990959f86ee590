import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type * as notificationsRepo from './notifications.repo.ts';
import type { Notification } from './notifications.schemas.ts';

/** What the notification use cases are built from. */
export interface NotificationDeps {
  db: Db;
  clock: Clock;
  repo: typeof notificationsRepo;
}

export function toNotification(row: notificationsRepo.NotificationViewRow): Notification {
  return {
    id: row.id,
    scope: row.scope,
    title: row.title,
    content: row.content,
    key: row.key,
    params: row.params,
    link_url: row.linkUrl,
    image_url: row.imageUrl,
    pinned: row.pinned,
    strong: row.strong,
    publish_at: row.publishAt ? row.publishAt.toISOString() : null,
    expire_at: row.expireAt ? row.expireAt.toISOString() : null,
    group_id: row.groupId,
    user_id: row.userId,
    read: row.read,
    created_at: row.createdAt.toISOString(),
  };
}

/** A notification as `userId` sees it, read or not. */
export async function view(
  { db, repo }: NotificationDeps,
  row: notificationsRepo.NotificationRow,
  userId: number,
): Promise<Notification> {
  return toNotification(await repo.withRead(db, row, userId));
}
