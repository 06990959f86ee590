import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UseCaseArgs } from '../service.ts';
import type { NotificationDeps } from './notifications.deps.ts';
import {
  pinNotification,
  publishNotification,
  removeNotification,
  updateNotification,
} from './notifications.publish.ts';
import { adminListNotifications, listNotifications, markAllRead, markRead, unreadCount } from './notifications.read.ts';
import * as notificationsRepo from './notifications.repo.ts';

export { toNotification } from './notifications.deps.ts';
export { STRONG_LIST_MAX } from './notifications.read.ts';
export { assertMayPublishScope } from './notifications.rules.ts';

export interface NotificationsServiceDeps {
  db: Db;
  clock: Clock;
  repo?: typeof notificationsRepo;
}

/**
 * The notices, one named use case each: reading and marking them read (notifications.read.ts) and
 * publishing, changing, pinning and deleting them (notifications.publish.ts), under the rules of
 * who may publish to whom (notifications.rules.ts).
 */
export function createNotificationsService({ db, clock, repo = notificationsRepo }: NotificationsServiceDeps) {
  const deps: NotificationDeps = { db, clock, repo };
  return {
    list: (...a: UseCaseArgs<typeof listNotifications>) => listNotifications(deps, ...a),
    adminList: (...a: UseCaseArgs<typeof adminListNotifications>) => adminListNotifications(deps, ...a),
    unreadCount: (...a: UseCaseArgs<typeof unreadCount>) => unreadCount(deps, ...a),
    markRead: (...a: UseCaseArgs<typeof markRead>) => markRead(deps, ...a),
    markAllRead: (...a: UseCaseArgs<typeof markAllRead>) => markAllRead(deps, ...a),
    publish: (...a: UseCaseArgs<typeof publishNotification>) => publishNotification(deps, ...a),
    update: (...a: UseCaseArgs<typeof updateNotification>) => updateNotification(deps, ...a),
    pin: (...a: UseCaseArgs<typeof pinNotification>) => pinNotification(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removeNotification>) => removeNotification(deps, ...a),
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
