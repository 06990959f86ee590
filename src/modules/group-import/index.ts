// The public face of the group import: what the composition root may use.
export { default as groupImportRoutes } from './group-import.routes.ts';
export { createGroupImportService } from './group-import.service.ts';
