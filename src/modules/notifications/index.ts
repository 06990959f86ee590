// The public face of the notifications module: what other modules, plugins and the composition root may use.
export { insertNotification } from './notifications.repo.ts';
export { default as notificationsRoutes } from './notifications.routes.ts';
export { createNotificationsService } from './notifications.service.ts';
