/**
 * PostgreSQL error codes as either driver reports them; Drizzle may wrap the driver's error in
 * one or more `cause`s.
 */
function hasCode(err: unknown, code: string): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** unique_violation: a unique index refused the row */
export const isUniqueViolation = (err: unknown): boolean => hasCode(err, '23505');

/** foreign_key_violation: a referenced row is gone */
export const isForeignKeyViolation = (err: unknown): boolean => hasCode(err, '23503');
