// The public face of the filters module: what other modules, plugins and the composition root may use.
export { default as filtersRoutes } from './filters.routes.ts';
export { createFilterService } from './filters.service.ts';
