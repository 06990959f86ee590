// The public face of the import module: what other modules, plugins and the composition root may use.
export { createBillImportService, type BillImportService } from './bills.service.ts';
export { default as importRoutes } from './import.routes.ts';
export { importPurgeTask } from './import.task.ts';
export { importedLike } from './import.dedupe.ts';
