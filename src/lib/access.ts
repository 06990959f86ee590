import { isValidTimezone } from './dates.ts';
import { Errors } from './errors.ts';

/**
 * The messages of the access rules, one per rule. The rules themselves read the database and live
 * with the books (src/modules/books/books.access.ts); these are the pure parts every module shares.
 */

const MESSAGES = {
  category: 'must be one of your categories',
  tag: 'must be one of your tags',
  group: 'must be a group you belong to',
  account: 'must be one of your accounts',
} as const;

/**
 * The one error of each rule, for the rules of books.access.ts and the few checks that must read the
 * row in their own way (under a row lock, say) and so cannot call them.
 */
export const notYours = {
  category: (field: string) => Errors.field(field, MESSAGES.category),
  tag: (field: string) => Errors.field(field, MESSAGES.tag),
  group: (field: string) => Errors.field(field, MESSAGES.group),
  account: (field: string) => Errors.field(field, MESSAGES.account),
};

// ---- the caller's settings ----

/** A user's stored time zone when it is a valid IANA zone, else `fallback` (APP_TIMEZONE). */
export function zoneOr(tz: string | null | undefined, fallback: string): string {
  return tz && isValidTimezone(tz) ? tz : fallback;
}
