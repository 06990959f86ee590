// The public face of the admin module: what other modules, plugins and the composition root may use.
export { default as adminRoutes } from './admin.routes.ts';
export { createAdminService } from './admin.service.ts';
