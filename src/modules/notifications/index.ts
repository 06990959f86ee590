// The public face of the notifications module: what other modules, plugins and the composition root may use.
export { insertNotification, wasSent } from './notifications.repo.ts';
export { default as notificationsRoutes } from './notifications.routes.ts';
export { createNotificationsService } from './notifications.service.ts';
export {
  sendSystemNotice,
  markNoticesRead,
  noticeValues,
  type NoticeKey,
  type SystemNotice,
  type SystemNotices,
} from './notifications.system.ts';
