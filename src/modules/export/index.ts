// The public face of the export module: what other modules, plugins and the composition root may use.
export { default as exportRoutes } from './export.routes.ts';
// the file the export writes is the file the import reads: one description, one formula rule
export { FORMAT_TEXT, FORMULA_START } from './export.format.ts';
