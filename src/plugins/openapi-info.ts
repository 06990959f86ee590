/**
 * What the interactive documentation says before the operations: the rules every route shares, and
 * the features the operations are grouped by. A route's tag comes from the first segment of its path
 * (`/api/<segment>/...`) through FEATURE_OF; a segment missing there is a test failure, not a silent
 * group of its own.
 */

export const API_INTRO = `
Personal books, shared "record together" groups, accounts and currencies, statistics, budgets, bill
import, recurring bills, notifications, feedback and administration, as one JSON API under \`/api\`.
The web client on the same server uses exactly these operations.

## Money

Amounts are sent as a JSON number or a decimal string (\`12\`, \`12.5\`, \`"12.50"\`), greater than
zero, with at most as many decimals as the currency has: none for JPY or KRW, two for CNY, USD, EUR
or GBP, three for KWD or BHD (ISO 4217's minor unit). More decimals, exponents, \`NaN\` or
negatives are refused with 40001. They are stored as integers in the currency's minor unit and
summed as integers; answers carry them as JSON numbers in major units. Dates are \`YYYY-MM-DD\`.

## Errors

Every error answers \`{code, message, details?}\`: \`code\` is a five-digit number whose first three
digits are the HTTP status; \`details\` lists \`{field, message}\` for invalid fields.

| Code | Status | Meaning |
|---|---|---|
| 40001 | 400 | invalid input (a field, the body, a query) |
| 40101–40106 | 401 | not signed in, token expired or refused, account disabled, wrong password or passkey |
| 40107, 40108 | 401 | a second-factor code wrong or already used; its sign-in ticket expired (sign in again) |
| 40301 | 403 | administrator required, registration closed, or beyond an API token's scope |
| 40302 | 403 | not a member of that group (a group you are not in answers as one that does not exist) |
| 40303 | 403 | \`REQUIRE_ADMIN_TOTP\`: an administrator without a confirmed second factor, on an administrator route |
| 40401 | 404 | not found or not yours (never 403), or a feature this server leaves off |
| 40501 | 405 | method not allowed; \`Allow\` lists the path's methods |
| 40901–40903 | 409 | conflict; the group is dissolved; the same \`Idempotency-Key\` still in progress |
| 41301 | 413 | body or file too large |
| 41501 | 415 | unsupported media or file type |
| 42201 | 422 | refused by a business rule |
| 42202 | 422 | an \`Idempotency-Key\` reused with a different body |
| 42203 | 422 | an import refused: \`errors: [{row, message}]\` names each row |
| 42901 | 429 | rate limited; \`Retry-After\` says when to retry |
| 50001, 50002 | 500 | internal error (logged with the request id) |
| 50301 | 503 | the database or another dependency is unavailable; \`Retry-After\` says when to retry |

## Retries and idempotency keys

Creating a transaction (\`POST /api/transactions\`) and importing a file (\`POST /api/import\`) take an
optional \`Idempotency-Key\` header (1 to 64 visible characters). The same key with the same body
replays the first answer instead of writing twice; with another body it is 42202; while the first
is still running it is 40903. Bill imports are idempotent by the bill's own transaction ids: a
second upload of the same file books nothing.

## Signing in and tokens

Send \`Authorization: Bearer <token>\`. A token is either an access token from a sign-in or a
refresh (\`POST /api/auth/refresh\` turns the refresh token into a new pair), or a personal API
token (\`lgr_...\`) made on the security page or with \`POST /api/me/tokens\`. An API token has
a scope: \`read\` allows \`GET\` and \`HEAD\` of a person's own routes; \`write\` allows every route
of the person. No API token reaches administrator routes or the routes that manage sign-in
methods, sessions and tokens (\`x-session-only\`): those answer 40301. Each operation states who
may call it in \`x-auth\`: \`public\`, \`user\`, \`admin\` or \`token\` (a short-lived download token in
\`?token=\`).

A password sign-in of a person with a confirmed TOTP second factor answers 202 with a \`ticket\` instead
of tokens; \`POST /api/auth/totp/verify {ticket, code}\` (a code from the authenticator app, or a
single-use recovery code) then gives the sign-in's answer. A passkey sign-in counts as both factors.

Lists take \`page\` (from 1) and \`pageSize\` (1 to 100, default 20) and answer \`{list, total}\`.

## Licence

The service is free software under the MIT licence.
`.trim();

/** the features the operations are grouped by, in the order the documentation shows them */
export const API_FEATURES = [
  { name: 'Transactions', description: 'Records of the books: create, list and filter, edit, delete, quick entry' },
  { name: 'Accounts and currencies', description: 'Money accounts, balances, transfers, net worth and exchange rates' },
  { name: 'Categories, tags and filters', description: 'Categories, tags, saved filters and category suggestions' },
  { name: 'Statistics', description: 'Period summaries, category shares, trends and comparisons' },
  { name: 'Budgets', description: 'Monthly budgets: total, per category, group and personal' },
  { name: 'Groups and splits', description: 'Shared "record together" groups, splits, balances and settlements' },
  { name: 'Recurring bills', description: 'Rules that book a bill on a schedule' },
  { name: 'Import and export', description: 'Bill import with preview and rules, the all-or-nothing import, exports' },
  { name: 'Notifications and feedback', description: 'Notices to people and groups, and feedback to the team' },
  {
    name: 'Identity',
    description: 'Registration and first-run setup, sign-in, passkeys, sessions, API tokens and the profile',
  },
  { name: 'Administration', description: 'Administrators only: users, configuration, backups, logs, dashboards' },
  {
    name: 'Assistants',
    description: 'The Model Context Protocol endpoint for AI assistants, with a personal API token',
  },
  { name: 'System', description: 'Health, public configuration and usage tracking' },
] as const;

export type ApiFeature = (typeof API_FEATURES)[number]['name'];

/** the feature of each first path segment after /api/ */
export const FEATURE_OF: Record<string, ApiFeature> = {
  transactions: 'Transactions',
  'quick-entry': 'Transactions',
  receipts: 'Transactions',
  attachments: 'Transactions',
  accounts: 'Accounts and currencies',
  rates: 'Accounts and currencies',
  categories: 'Categories, tags and filters',
  tags: 'Categories, tags and filters',
  filters: 'Categories, tags and filters',
  suggest: 'Categories, tags and filters',
  stats: 'Statistics',
  budget: 'Budgets',
  budgets: 'Budgets',
  groups: 'Groups and splits',
  settlements: 'Groups and splits',
  splits: 'Groups and splits',
  recurring: 'Recurring bills',
  import: 'Import and export',
  'import-rules': 'Import and export',
  export: 'Import and export',
  notifications: 'Notifications and feedback',
  feedback: 'Notifications and feedback',
  webhooks: 'Notifications and feedback',
  auth: 'Identity',
  me: 'Identity',
  avatars: 'Identity',
  setup: 'Identity',
  admin: 'Administration',
  backup: 'Administration',
  logs: 'Administration',
  mcp: 'Assistants',
  health: 'System',
  config: 'System',
  track: 'System',
};

/** the feature a route belongs to, from its path; undefined when the segment is not in the table */
export function featureOf(url: string): ApiFeature | undefined {
  return FEATURE_OF[url.split('/')[2] ?? ''];
}
