export interface ErrorDetail {
  field: string;
  message: string;
}

/** An expected failure carrying the contract's numeric code; the error handler answers it as is. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** seconds a client should wait before retrying a 503 (database outage, restart) */
export const RETRY_AFTER_S = 5;

export const Errors = {
  validation: (message: string, details?: ErrorDetail[]) => new AppError(400, 40001, message, details),
  field: (field: string, message: string) => new AppError(400, 40001, `${field} ${message}`, [{ field, message }]),
  /**
   * A row in a foreign currency with no rate to convert it: 40001 on `rate`, naming the rate that is
   * missing so that a client can say which one and offer to add it.
   */
  missingRate: (currency: string, base: string, date: string) => {
    const message = `is needed: there is no ${currency} to ${base} rate on or before ${date}; give one or add it to your rates`;
    return new AppError(400, 40001, `rate ${message}`, [{ field: 'rate', message }], {
      missing_rate: { currency, base, date },
    });
  },
  unauthorized: (message = 'access token missing or invalid') => new AppError(401, 40101, message),
  badRefresh: (message = 'refresh token invalid, expired or already used') => new AppError(401, 40102, message),
  providerRefused: (message = 'the identity provider rejected the login code') => new AppError(401, 40103, message),
  accountBlocked: (message = 'account deleted or disabled') => new AppError(401, 40104, message),
  badCredentials: () => new AppError(401, 40105, 'username or password is wrong'),
  passkeyRejected: (message = 'the passkey was not accepted') => new AppError(401, 40106, message),
  /** a second-factor code (authenticator or recovery code) that is wrong, already used or out of its window */
  badSecondFactor: () => new AppError(401, 40107, 'the second-factor code is wrong or already used'),
  /** the second-factor ticket of a password sign-in is unknown, expired or no longer needed */
  badSecondFactorTicket: () => new AppError(401, 40108, 'sign-in ticket invalid or expired; sign in again'),
  adminRequired: () => new AppError(403, 40301, 'administrator required'),
  forbidden: (message: string) => new AppError(403, 40301, message),
  /** REQUIRE_ADMIN_TOTP: an administrator without a confirmed second factor, on an administrator route */
  secondFactorRequired: () =>
    new AppError(403, 40303, 'administrators must set up a second factor (TOTP) first: POST /api/me/totp/setup'),
  groupForbidden: (message = 'not a member of that group') => new AppError(403, 40302, message),
  notFound: (what = 'resource') => new AppError(404, 40401, `${what} not found`),
  /** a feature this server's configuration leaves off: not found, since no retry can reach it */
  featureOff: (message: string) => new AppError(404, 40401, message),
  /** answered with an `Allow` header listing the path's methods */
  methodNotAllowed: (method: string, allowed: string[]) =>
    new AppError(405, 40501, `method ${method} is not allowed here; allowed: ${allowed.join(', ')}`, undefined, {
      allow: allowed,
    }),
  conflict: (message: string) => new AppError(409, 40901, message),
  dissolved: () => new AppError(409, 40902, 'the group is dissolved'),
  idempotencyInProgress: () => new AppError(409, 40903, 'a request with this Idempotency-Key is still in progress'),
  tooLarge: (message = 'body or file too large') => new AppError(413, 41301, message),
  unsupportedMedia: (message = 'unsupported media type') => new AppError(415, 41501, message),
  rule: (message: string) => new AppError(422, 42201, message),
  idempotencyMismatch: () => new AppError(422, 42202, 'Idempotency-Key reused with a different body'),
  importRejected: (errors: { row: number; message: string }[]) =>
    new AppError(422, 42203, `import refused: ${errors.length} invalid row(s)`, undefined, { errors }),
  rateLimited: (message = 'too many requests') => new AppError(429, 42901, message),
  /** answered with a Retry-After header of `retryAfterS` */
  locked: (retryAfterS: number) =>
    new AppError(429, 42901, `too many failed sign-ins, retry in ${retryAfterS} s`, undefined, {
      retry_after: retryAfterS,
    }),
  internal: () => new AppError(500, 50001, 'internal error'),
  inviteCollision: () => new AppError(500, 50002, 'could not allocate a unique invite code'),
  unavailable: (message = 'a dependency is unavailable') => new AppError(503, 50301, message),
};
