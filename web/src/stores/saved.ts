// What the session keeps in localStorage beside the tokens, read both by the session store and by
// the page's first script (early.ts), before the app has loaded. The keys carry the session's
// prefix, so that signing out forgets them with the tokens.
export const SAVED_GROUP = 'ledger.group';
const SAVED_TIMEZONE = 'ledger.timezone';

/** The group whose books were shown last, if any. */
export function savedGroup(): number | null {
  return Number(localStorage.getItem(SAVED_GROUP)) || null;
}

/** The signed-in person's time zone as last known ("today" is theirs), or the browser's. */
export function savedTimezone(): string | undefined {
  return localStorage.getItem(SAVED_TIMEZONE) || undefined;
}

export function saveTimezone(timezone: string | null): void {
  if (timezone) localStorage.setItem(SAVED_TIMEZONE, timezone);
  else localStorage.removeItem(SAVED_TIMEZONE);
}

/**
 * A choice of this device the server reads to render the first screen in it (src/plugins/
 * first-screen.ts): no secret, kept a year, removed with null.
 */
export function savePageCookie(name: 'ledger_group' | 'ledger_locale', value: string | null): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${name}=${value ?? ''}; Path=/; Max-Age=${value ? 31536000 : 0}; SameSite=Strict`;
}
