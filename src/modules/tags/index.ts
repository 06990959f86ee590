// The public face of the tags module: what other modules, plugins and the composition root may use.
export { default as tagsRoutes } from './tags.routes.ts';
export { createTagService } from './tags.service.ts';
