// The public face of the stats module: what other modules, plugins and the composition root may use.
export { default as statsRoutes } from './stats.routes.ts';
export { createStatsService, percentOf } from './stats.service.ts';
