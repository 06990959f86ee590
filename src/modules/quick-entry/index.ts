// The public face of the quick-entry module: what the composition root may use.
export { default as quickEntryRoutes } from './quick-entry.routes.ts';
export { createQuickEntryService } from './quick-entry.service.ts';
