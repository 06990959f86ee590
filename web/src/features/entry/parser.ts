// The quick-entry parser the server runs, imported from its pure source so that a line reads the
// same in the browser, offline too.
export {
  categoryForConcept,
  conceptByKey,
  conceptOf,
  parseQuickEntry,
  type QuickEntry,
} from '../../../../src/lib/quick-entry/index.ts';
