// The public face of the groups module: what other modules, plugins and the composition root may use.
export { default as groupsRoutes } from './groups.routes.ts';
export { createGroupsService } from './groups.service.ts';
