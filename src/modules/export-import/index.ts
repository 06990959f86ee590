// The public face of the export-import module: what other modules, plugins and the composition root may use.
export { existingCounts, lockUserImports } from './export-import.repo.ts';
export { default as exportImportRoutes } from './export-import.routes.ts';
export { IMPORT_MAX_ROWS, parseFile, validateRecords } from './import.parse.ts';
export type { ImportRow } from './import.parse.ts';
