/**
 * The books: the one writer of transactions and their tags and shares (write, books.write.ts: every
 * change of the books goes through it), the money rules that decide
 * every amount written (books.money.ts), and the access rules every feature checks references with
 * (books.access.ts). Other modules import this file only.
 */
export {
  assertGroupOwner,
  defaultAccount,
  membershipOf,
  ownTagIds,
  requireAccount,
  requireCategories,
  requireCategory,
  requireGroupMember,
  requireGroupOwner,
  requireGroupReference,
  requireLiveGroupOwner,
  requireMembership,
  requireOpenAccount,
  requireTag,
  requireTags,
  requireWritableGroup,
  userTimezone,
  type AccountRef,
  type GroupRow,
  type OwnedCategory,
} from './books.access.ts';
export {
  accountCurrency,
  baseCurrencyOf,
  bookAll,
  bookIn,
  feeBase,
  fitHundredths,
  fitHundredthsSql,
  parseAmountIn,
  priceIn,
  rateOn,
  rebook,
  type Booking,
  type PriceOutcome,
  type Priced,
  type RateLookup,
} from './books.money.ts';
export { allocateIds, type BookedRow, type RowPatch, type SetWritten, type ShareInsert } from './books.writer.ts';
export type { Draft } from './books.drafts.ts';
export type { CheckedRow, ManualDraft, ManualWritten, TagRef } from './books.manual.ts';
// the one way to change the books: the writing helpers behind it are not exported
export { write, type BooksChange, type TagLink } from './books.write.ts';
export { afterWrite, type BooksEvent, type BooksEventType, type BooksListener } from './books.events.ts';
export { priceOriginal, type Adoption, type ForeignDraft, type Original } from './books.foreign.ts';
