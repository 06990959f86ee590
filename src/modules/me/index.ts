// The public face of the me module: what other modules, plugins and the composition root may use.
export { default as meRoutes } from './me.routes.ts';
export { createMeService } from './me.service.ts';
