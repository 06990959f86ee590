import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { query, type Db, type Executor } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import { Errors } from '../../lib/errors.ts';

/**
 * Retry safety for POST operations that create things (`Idempotency-Key` header).
 *
 * A key is per user and scope and lives 24 hours. The claim of the key, the operation's writes and
 * its stored 2xx answer are one database transaction: a crash or a lost connection at any point
 * leaves either all of them or none, so a retry either replays the answer or runs the operation
 * for the first time, never twice. While the first request runs, the key is held by a transaction
 * advisory lock (seen by every process on the database) and by this process's own table of
 * running keys: a repeat then answers 40903 at once (42202 when its body differs and this process
 * knows it). A repeat after completion with the same body replays the stored answer; with another
 * body it is 42202. A first attempt that fails (throws, or answers non-2xx) stores nothing.
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

type KeyRow = {
  requestHash: string;
  status: 'pending' | 'done';
  responseStatus: number | null;
  responseBody: unknown;
  expired: boolean;
  stale: boolean;
};

async function find(db: Executor, userId: number, scope: string, key: string): Promise<KeyRow | undefined> {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.status,
      responseStatus: idempotencyKeys.responseStatus,
      responseBody: idempotencyKeys.responseBody,
      expired: sql<boolean>`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
      stale: sql<boolean>`${idempotencyKeys.createdAt} < now() - make_interval(mins => ${IDEMPOTENCY_STALE_PENDING_MINUTES})`,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  return row;
}

/** Records the answer; replaces an expired or abandoned row of the same key. */
async function record(
  db: Executor,
  userId: number,
  scope: string,
  key: string,
  hash: string,
  status: number,
  body: unknown,
): Promise<void> {
  const values = {
    requestHash: hash,
    status: 'done' as const,
    responseStatus: status,
    responseBody: body,
    createdAt: sql`now()`,
  };
  await db
    .insert(idempotencyKeys)
    .values({ userId, scope, key, ...values })
    .onConflictDoUpdate({ target: [idempotencyKeys.userId, idempotencyKeys.scope, idempotencyKeys.key], set: values });
}

/** keys running in this process: `user scope key` to request hash */
const running = new Map<string, string>();

/**
 * Runs `run` at most once per (user, scope, key) within 24 hours and answers repeats from storage.
 * With a key, `run` gets the open transaction that also claims the key and records the answer
 * (`inTransaction` true): every write of the operation must go through it so that they commit (or
 * vanish) together. Without a key it gets the database handle (`inTransaction` false), so that the
 * operation may take its usual path (creates are then batched with others).
 *
 * const out = await withIdempotency(app.db, { userId, scope: 'transactions.create', key:
 * req.headers['idempotency-key'], body: req.body }, async (ex, inTx) => ({ status: 201, body: await
 * service.create(userId, req.body, inTx ? ex : undefined) })); return reply.code(out.status).send(out.body);
 */
export async function withIdempotency<T>(
  db: Db,
  req: IdempotencyRequest,
  run: (ex: Executor, inTransaction: boolean) => Promise<IdempotentResponse<T>>,
): Promise<IdempotentOutcome<T>> {
  const key = parseIdempotencyKey(req.key);
  if (key === undefined) return { ...(await run(db, false)), replayed: false };
  const { userId, scope } = req;
  const hash = requestHash(req.body);
  const local = `${userId} ${scope} ${key}`;
  const runningHash = running.get(local);
  if (runningHash !== undefined)
    throw runningHash === hash ? Errors.idempotencyInProgress() : Errors.idempotencyMismatch();
  running.set(local, hash);
  try {
    return await db.transaction(async (tx) => {
      // held until commit or rollback; another process's attempt at the same key fails it at once
      const [lock] = await query<{ ok: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${userId}::int, hashtext(${`${scope}\n${key}`})) as ok`,
      );
      if (!lock?.ok) throw Errors.idempotencyInProgress();
      const row = await find(tx, userId, scope, key);
      if (row && !row.expired) {
        if (row.status === 'done' && row.responseStatus !== null) {
          if (row.requestHash !== hash) throw Errors.idempotencyMismatch();
          return { status: row.responseStatus, body: row.responseBody as T, replayed: true };
        }
        // a pending claim left by an earlier version of the service, which committed claims on their own
        if (!row.stale) throw row.requestHash === hash ? Errors.idempotencyInProgress() : Errors.idempotencyMismatch();
      }
      await purgeExpiredFor(tx, userId);
      const result = await run(tx, true);
      if (result.status >= 200 && result.status < 300) {
        // the stored body is what a replay answers, so it goes through JSON exactly like the first answer
        const stored = result.body === undefined ? null : JSON.parse(JSON.stringify(result.body));
        await record(tx, userId, scope, key, hash, result.status, stored);
      }
      return { ...result, replayed: false };
    });
  } finally {
    running.delete(local);
  }
}

/** Keeps the table small without a scheduler: a user's own expired keys go when they claim a new one. */
async function purgeExpiredFor(db: Executor, userId: number): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
      ),
    );
}

/** Deletes keys older than 24 hours (all users); answers how many went. */
export async function purgeExpiredIdempotencyKeys(db: Executor, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3_600_000);
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, cutoff))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
