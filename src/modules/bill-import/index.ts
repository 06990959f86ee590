// The public face of the bill-import module: what other modules, plugins and the composition root may use.
export { default as billImportRoutes } from './bill-import.routes.ts';
export { createBillImportService } from './bill-import.service.ts';
export { importPurgeTask } from './bill-import.task.ts';
