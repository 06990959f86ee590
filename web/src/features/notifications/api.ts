// The notification calls, through the typed client.
import { client, ok } from '../../api/client';
import type { Notification } from '../../api/types';

export type Scope = Notification['scope'];

export const notificationsApi = {
  list: (q: { scope?: Scope; page: number; pageSize: number }) => ok(client.GET('/api/notifications', { params: { query: q } })),
  unreadCount: () => ok(client.GET('/api/notifications/unread-count')),
  markRead: (id: number) => ok(client.POST('/api/notifications/{id}/read', { params: { path: { id } } })),
  readAll: () => ok(client.POST('/api/notifications/read-all')),
};
