// The notification calls, through the typed client: the reader's own, and publishing (an
// administrator for any scope, a group owner for the group's).
import { client, ok } from '../../api/client';
import type { Notification, NotificationInput } from '../../api/types';

export type Scope = Notification['scope'];
/** A notice as sent: an empty optional field is left out, one that had a value is sent as null to clear it. */
export type NoticeFields = Record<string, unknown>;

export const notificationsApi = {
  list: (q: { scope?: Scope; page: number; pageSize: number }) =>
    ok(client.GET('/api/notifications', { params: { query: q } })),
  unreadCount: () => ok(client.GET('/api/notifications/unread-count')),
  markRead: (id: number) => ok(client.POST('/api/notifications/{id}/read', { params: { path: { id } } })),
  readAll: () => ok(client.POST('/api/notifications/read-all')),
  publish: (body: NoticeFields) => ok(client.POST('/api/notifications', { body: body as NotificationInput })),
  update: (id: number, body: NoticeFields) =>
    ok(client.PUT('/api/notifications/{id}', { params: { path: { id } }, body: body as never })),
};
