// The import feature's face: bill files, their preview and commit, and the import rules. Other
// features import this file only.
export { useBillImportStore } from './store';
