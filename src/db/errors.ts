/**
 * PostgreSQL error codes as either driver reports them; Drizzle may wrap the driver's error in
 * one or more `cause`s.
 */
function hasCode(err: unknown, code: string): boolean {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** unique_violation: a unique index refused the row */
export const isUniqueViolation = (err: unknown): boolean => hasCode(err, '23505');

/** foreign_key_violation: a referenced row is gone */
export const isForeignKeyViolation = (err: unknown): boolean => hasCode(err, '23503');

// PostgreSQL classes 08 (connection exception) and 57P (operator intervention: shutdown,
// terminated backend, cannot connect now), and too_many_connections (53300)
const UNAVAILABLE_SQLSTATE = /^(08\d{3}|57P0[1-4]|53300)$/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|Cannot use a pool after calling end/i;
// object_not_in_prerequisite_state is also raised by ordinary statements; only the refusal of a
// database closed to connections (ALTER DATABASE ... ALLOW_CONNECTIONS false) is an outage
const NOT_ACCEPTING_CONNECTIONS = /is not currently accepting connections/i;

/**
 * True when the database could not be reached or dropped the connection (outage, restart,
 * failover, terminated backend, connection slots full): the request may succeed when retried, so
 * it answers 503 (50301), not an internal error.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (code === '55000' && NOT_ACCEPTING_CONNECTIONS.test((e as { message?: string }).message ?? '')) return true;
    if (UNAVAILABLE_MESSAGE.test((e as { message?: string }).message ?? '')) return true;
    // AggregateError (a refused connection to every address of a host name)
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some((x) => isDatabaseUnavailable(x))) return true;
  }
  return false;
}
