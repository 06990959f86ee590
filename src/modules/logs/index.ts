// The public face of the logs module: what other modules, plugins and the composition root may use.
export { default as logsRoutes } from './logs.routes.ts';
export { createLogsService } from './logs.service.ts';
