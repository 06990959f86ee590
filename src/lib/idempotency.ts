import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { Errors } from './errors.ts';

/**
 * Retry safety for POST operations that create things (`Idempotency-Key` header).
 *
 * A key is per user and scope and lives 24 hours. The first request claims the key with one
 * INSERT ... ON CONFLICT statement, so two processes sharing the database can never both run it;
 * its 2xx answer is stored and replayed to every repeat carrying the same body. A repeat with another
 * body is 42202, a repeat while the first is still running is 40903. A first attempt that fails
 * (throws, or answers non-2xx) releases the key so that a retry runs for real.
 */

/** the header value: 1 to 64 visible ASCII characters */
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,64}$/;
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,64}$';
export const IDEMPOTENCY_TTL_HOURS = 24;
/**
 * A claim still pending after this long belongs to a process that died between running the
 * operation and recording its answer; a retry may then take the key over.
 */
export const IDEMPOTENCY_STALE_PENDING_MINUTES = 10;

export interface IdempotentResponse<T = unknown> {
  status: number;
  body: T;
}

export interface IdempotentOutcome<T = unknown> extends IdempotentResponse<T> {
  /** true when the stored answer of an earlier request was given again */
  replayed: boolean;
}

export interface IdempotencyRequest {
  userId: number;
  /** the operation, e.g. `transactions.create`; a key used on two operations is two keys */
  scope: string;
  /** the raw header value; undefined or null runs the operation without idempotency */
  key: string | string[] | null | undefined;
  /** what makes two requests "the same": the parsed body, plus anything else that matters (query, file bytes) */
  body: unknown;
}

/** Checks an `Idempotency-Key` header value; undefined when absent, 40001 when malformed. */
export function parseIdempotencyKey(value: string | string[] | null | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_RE.test(value)) {
    throw Errors.field('Idempotency-Key', 'must be 1 to 64 visible ASCII characters');
  }
  return value;
}

function canonical(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: createHash('sha256').update(value).digest('hex') };
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = canonical(v);
    }
    return out;
  }
  return value;
}

/** SHA-256 of a request body with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
export function requestHash(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)) ?? 'undefined')
    .digest('hex');
}

type KeyRow = { requestHash: string; status: 'pending' | 'done'; responseStatus: number | null; responseBody: unknown };

/** Claims the key: inserts a pending row, or takes over an expired (or abandoned) one. True when claimed. */
async function claim(db: Executor, userId: number, scope: string, key: string, hash: string): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ userId, scope, key, requestHash: hash, status: 'pending' })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.scope, idempotencyKeys.key],
      set: { requestHash: hash, status: 'pending', responseStatus: null, responseBody: null, createdAt: sql`now()` },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
        or (${idempotencyKeys.status} = 'pending' and ${idempotencyKeys.createdAt} < now() - make_interval(mins => ${IDEMPOTENCY_STALE_PENDING_MINUTES}))`,
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

async function find(db: Executor, userId: number, scope: string, key: string): Promise<KeyRow | undefined> {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.status,
      responseStatus: idempotencyKeys.responseStatus,
      responseBody: idempotencyKeys.responseBody,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  return row;
}

function where(userId: number, scope: string, key: string, hash: string) {
  return and(
    eq(idempotencyKeys.userId, userId),
    eq(idempotencyKeys.scope, scope),
    eq(idempotencyKeys.key, key),
    eq(idempotencyKeys.requestHash, hash),
    eq(idempotencyKeys.status, 'pending'),
  );
}

/**
 * Runs `run` at most once per (user, scope, key) within 24 hours and answers repeats from storage.
 * `run` must not use an open transaction of the caller: the claim is committed before it runs so
 * that other processes see it.
 *
 *     const out = await withIdempotency(app.db, { userId, scope: 'transactions.create', key: req.headers['idempotency-key'], body: req.body },
 *       async () => ({ status: 201, body: await service.create(userId, req.body) }));
 *     return reply.code(out.status).send(out.body);
 */
export async function withIdempotency<T>(db: Executor, req: IdempotencyRequest, run: () => Promise<IdempotentResponse<T>>): Promise<IdempotentOutcome<T>> {
  const key = parseIdempotencyKey(req.key);
  if (key === undefined) return { ...(await run()), replayed: false };
  const { userId, scope } = req;
  const hash = requestHash(req.body);

  // A row can vanish between the failed claim and the lookup (its first attempt failed and
  // released it): then claim again.
  for (let attempt = 0; ; attempt++) {
    if (await claim(db, userId, scope, key, hash)) {
      await purgeExpiredFor(db, userId);
      break;
    }
    const row = await find(db, userId, scope, key);
    if (!row) {
      if (attempt < 3) continue;
      throw Errors.idempotencyInProgress();
    }
    if (row.requestHash !== hash) throw Errors.idempotencyMismatch();
    if (row.status === 'pending' || row.responseStatus === null) throw Errors.idempotencyInProgress();
    return { status: row.responseStatus, body: row.responseBody as T, replayed: true };
  }

  let result: IdempotentResponse<T>;
  try {
    result = await run();
  } catch (err) {
    // the operation's own error is what the client must see; a key that could not be released
    // is taken over once it is stale
    await release(db, userId, scope, key, hash).catch(() => {});
    throw err;
  }
  if (result.status >= 200 && result.status < 300) {
    // the stored body is what a replay answers, so it goes through JSON exactly like the first answer
    const stored = result.body === undefined ? null : JSON.parse(JSON.stringify(result.body));
    await db
      .update(idempotencyKeys)
      .set({ status: 'done', responseStatus: result.status, responseBody: stored })
      .where(where(userId, scope, key, hash));
  } else {
    await release(db, userId, scope, key, hash);
  }
  return { ...result, replayed: false };
}

async function release(db: Executor, userId: number, scope: string, key: string, hash: string): Promise<void> {
  await db.delete(idempotencyKeys).where(where(userId, scope, key, hash));
}

/** Keeps the table small without a scheduler: a user's own expired keys go when they claim a new one. */
async function purgeExpiredFor(db: Executor, userId: number): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`));
}

/** Deletes keys older than 24 hours (all users); answers how many went. */
export async function purgeExpiredIdempotencyKeys(db: Executor, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3_600_000);
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).returning({ key: idempotencyKeys.key });
  return rows.length;
}
