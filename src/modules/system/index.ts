// The public face of the system module: what other modules, plugins and the composition root may use.
export { createConfigService } from './config.service.ts';
export { default as systemRoutes } from './system.routes.ts';
