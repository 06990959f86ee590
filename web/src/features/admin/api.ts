// The administration calls through the typed client: dashboard and health, users, feedback,
// notifications, the displayed configuration, backups, logs and usage events.
import { client, ok, ApiError } from '../../api/client';
import type { AdminFeedback, AdminUser, Health, Notification } from '../../api/types';

export type UserStatus = 'all' | 'active' | 'disabled' | 'deleted';
export type FeedbackStatus = AdminFeedback['status'];
export type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
export interface UserQuery {
  keyword: string;
  status: UserStatus;
}
export interface LogQuery {
  date: string;
  level: '' | Level;
  keyword: string;
}
export interface ShownConfig {
  app_version: string;
  tagline: string;
  description: string;
}

/** a text filter is sent only when it holds more than spaces */
const text = <K extends string>(key: K, v: string) =>
  (v.trim() ? { [key]: v.trim() } : {}) as Partial<Record<K, string>>;

export const adminApi = {
  dashboard: () => ok(client.GET('/api/admin/dashboard')),
  /** a degraded service answers 503 with the same body: it is shown, not treated as a failure */
  health: () =>
    ok(client.GET('/api/health')).catch((e: unknown) => (e instanceof ApiError ? (e.body as unknown as Health) : null)),

  users: (q: UserQuery, page: number, pageSize: number) =>
    ok(
      client.GET('/api/admin/users', {
        params: { query: { ...text('keyword', q.keyword), status: q.status, page, pageSize } },
      }),
    ),
  restoreUser: (id: number) => ok(client.POST('/api/admin/users/{id}/restore', { params: { path: { id } } })),
  setUserStatus: (id: number, status: AdminUser['status']) =>
    ok(client.PUT('/api/admin/users/{id}/status', { params: { path: { id } }, body: { status } })),
  setUserRole: (id: number, role: AdminUser['role']) =>
    ok(client.PUT('/api/admin/users/{id}/role', { params: { path: { id } }, body: { role } })),
  deleteUser: (id: number, confirmName: string) =>
    ok(client.DELETE('/api/admin/users/{id}', { params: { path: { id } }, body: { confirmName } })),

  feedback: (status: '' | FeedbackStatus, page: number, pageSize: number) =>
    ok(client.GET('/api/admin/feedback', { params: { query: { ...(status ? { status } : {}), page, pageSize } } })),
  setFeedbackStatus: (id: number, status: FeedbackStatus) =>
    ok(client.PUT('/api/admin/feedback/{id}/status', { params: { path: { id } }, body: { status } })),
  replyFeedback: (id: number, reply: string) =>
    ok(client.POST('/api/admin/feedback/{id}/reply', { params: { path: { id } }, body: { reply } })),

  notices: (scope: '' | Notification['scope'], page: number, pageSize: number) =>
    ok(client.GET('/api/admin/notifications', { params: { query: { ...(scope ? { scope } : {}), page, pageSize } } })),
  pinNotice: (id: number, pinned: boolean) =>
    ok(client.PUT('/api/notifications/{id}/pin', { params: { path: { id } }, body: { pinned } })),
  deleteNotice: (id: number) => ok(client.DELETE('/api/notifications/{id}', { params: { path: { id } } })),

  saveConfig: (c: ShownConfig) => ok(client.PUT('/api/admin/config', { body: c })),

  backups: (page: number, pageSize: number) => ok(client.GET('/api/backup', { params: { query: { page, pageSize } } })),
  createBackup: () => ok(client.POST('/api/backup')),
  deleteBackup: (id: number) => ok(client.DELETE('/api/backup/{id}', { params: { path: { id } } })),

  logFiles: () => ok(client.GET('/api/logs/files')).then((r) => r.list),
  logDays: () => ok(client.GET('/api/logs/stats', { params: { query: { days: 7 } } })).then((r) => r.list),
  logs: (q: LogQuery, page: number, pageSize: number) =>
    ok(
      client.GET('/api/logs/query', {
        params: {
          query: {
            ...(q.date ? { date: q.date } : {}),
            ...(q.level ? { level: q.level } : {}),
            ...text('keyword', q.keyword),
            page,
            pageSize,
          },
        },
      }),
    ),

  trackStats: () => ok(client.GET('/api/logs/track/stats')),
  track: (eventType: string, page: number, pageSize: number) =>
    ok(client.GET('/api/logs/track/list', { params: { query: { ...text('event_type', eventType), page, pageSize } } })),
};
