// Quick entry: one line of text read as a record, the same way on the server and in the web client.
export {
  parseQuickEntry,
  MAX_LINE,
  type AccountLike,
  type QuickEntry,
  type QuickEntryContext,
  type QuickKind,
} from './parse.ts';
export {
  CONCEPTS,
  categoryForConcept,
  conceptByKey,
  conceptOf,
  findConcepts,
  type CategoryLike,
  type Concept,
} from './lexicon.ts';
export { parseChineseInteger } from './numbers.ts';
export { findDates } from './dates.ts';
