// The public face of the idempotency module: `Idempotency-Key` handling for the routes that honour it.
export {
  IDEMPOTENCY_KEY_PATTERN,
  parseIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  requestHash,
  withIdempotency,
} from './idempotency.ts';
