// What a person reads when something fails: always a message of the client's own catalogue,
// chosen by the API error code (and, for 40001, the first field named), never the server's text.
import { ApiError, ClientError } from '../api/client';

export interface Message {
  key: string;
  params: Record<string, unknown>;
}

export const KNOWN_CODES = [
  40001, 40101, 40102, 40103, 40104, 40105, 40106, 40107, 40108, 40301, 40302, 40303, 40401, 40901, 40902, 40903, 41301,
  41501, 42201, 42202, 42203, 42901, 50001, 50002, 50301,
] as const;

/** Fields the catalogue names in a validation message; any other is "a field". */
export const KNOWN_FIELDS = [
  'amount',
  'category_id',
  'date',
  'note',
  'tag_ids',
  'group_id',
  'name',
  'color',
  'nickname',
  'slogan',
  'timezone',
  'invite_code',
  'month',
  'content',
  'contact',
  'title',
  'reply',
  'link_url',
  'image_url',
  'publish_at',
  'expire_at',
  'user_id',
  'interval',
  'start_date',
  'end_date',
  'startDate',
  'endDate',
  'min_amount',
  'max_amount',
  'keyword',
  'criteria',
  'confirmName',
  'code',
  'app_version',
  'tagline',
  'description',
  'file',
  'frequency',
  'kind',
  'status',
  'role',
  'target_id',
  'username',
  'password',
  'new_password',
  'current_password',
  'scopes',
  'expires_in_days',
  'credential',
] as const;

/** The `reason` of a username the server refused (40001 on `username`). */
export const USERNAME_REASONS = ['length', 'characters', 'mixed_scripts'] as const;

/** The `reason` of a password the server refused (42201). */
export const PASSWORD_REASONS = ['too_short', 'too_long', 'common', 'same_as_username', 'username_required'] as const;

export interface MissingRate {
  currency: string;
  base: string;
  date: string;
}

/** The exchange rate a refused row needed and the user does not have (40001 with `missing_rate`). */
export function missingRateOf(err: unknown): MissingRate | null {
  if (!(err instanceof ApiError) || err.code !== 40001) return null;
  const m = err.body.missing_rate as Partial<MissingRate> | undefined;
  const code = /^[A-Z]{3}$/;
  if (
    !m ||
    typeof m.currency !== 'string' ||
    !code.test(m.currency) ||
    typeof m.base !== 'string' ||
    !code.test(m.base) ||
    typeof m.date !== 'string'
  )
    return null;
  return { currency: m.currency, base: m.base, date: m.date };
}

function fieldOf(err: ApiError): string | null {
  const raw = err.details[0]?.field ?? '';
  // "criteria.min_amount", "tag_ids.3", "body.amount": the most specific known name
  const parts = raw.split('.').reverse();
  for (const p of parts) if ((KNOWN_FIELDS as readonly string[]).includes(p)) return p;
  return raw ? 'other' : null;
}

export function errorMessage(err: unknown): Message {
  if (err instanceof ClientError) return { key: err.key, params: err.params };
  if (err instanceof ApiError) {
    if (err.code === 40001) {
      const missing = missingRateOf(err);
      if (missing) return { key: 'errors.missingRate', params: { ...missing } };
      const field = fieldOf(err);
      if (
        field === 'username' &&
        typeof err.body.reason === 'string' &&
        (USERNAME_REASONS as readonly string[]).includes(err.body.reason)
      ) {
        return { key: `errors.username.${err.body.reason}`, params: {} };
      }
      return field
        ? { key: 'errors.invalidField', params: { field: `fields.${field}` } }
        : { key: 'errors.40001', params: {} };
    }
    // a refused password says why
    if (
      err.code === 42201 &&
      typeof err.body.reason === 'string' &&
      (PASSWORD_REASONS as readonly string[]).includes(err.body.reason)
    ) {
      return { key: `errors.password.${err.body.reason}`, params: {} };
    }
    // a second-factor code refused on a signed-in page reads like one refused at sign-in
    if (err.code === 42201 && err.body.reason === 'bad_code') return { key: 'errors.40107', params: {} };
    if ((KNOWN_CODES as readonly number[]).includes(err.code)) return { key: `errors.${err.code}`, params: {} };
    if (err.status >= 500) return { key: 'errors.50001', params: {} };
    return { key: 'errors.unknown', params: { status: err.status } };
  }
  if (err instanceof TypeError) return { key: 'errors.network', params: {} };
  return { key: 'errors.unknown', params: { status: 0 } };
}
