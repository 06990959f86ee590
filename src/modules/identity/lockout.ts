import { Redis } from 'ioredis';
import type { BruteForceConfig, LockoutPolicy } from '../../config.ts';
import { Errors } from '../../lib/errors.ts';

/** Failure counters with expiry; shared through Redis when it is configured. */
export interface CounterStore {
  /** adds one failure to `key` (the window starts with the first) and answers the count */
  increment(key: string, windowMs: number): Promise<number>;
  /** locks `key` for `ms` */
  lock(key: string, ms: number): Promise<void>;
  /** milliseconds left of a lock, 0 when not locked */
  lockedFor(key: string): Promise<number>;
  /** takes one back from `key` (an attempt that turned out to succeed) */
  decrement(key: string): Promise<void>;
  /** forgets the failures and the lock of `key` */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryCounterStore(now: () => number = Date.now, maxKeys = 100_000): CounterStore {
  const counts = new Map<string, { n: number; until: number }>();
  const locks = new Map<string, number>();
  const sweep = () => {
    if (counts.size + locks.size < maxKeys) return;
    const t = now();
    for (const [k, v] of counts) if (v.until <= t) counts.delete(k);
    for (const [k, v] of locks) if (v <= t) locks.delete(k);
  };
  return {
    async increment(key, windowMs) {
      sweep();
      const t = now();
      const hit = counts.get(key);
      const entry = hit && hit.until > t ? { n: hit.n + 1, until: hit.until } : { n: 1, until: t + windowMs };
      counts.set(key, entry);
      return entry.n;
    },
    async decrement(key) {
      const hit = counts.get(key);
      if (hit && hit.n > 0) hit.n -= 1;
    },
    async lock(key, ms) {
      locks.set(key, now() + ms);
    },
    async lockedFor(key) {
      const until = locks.get(key) ?? 0;
      return Math.max(0, until - now());
    },
    async reset(key) {
      counts.delete(key);
      locks.delete(key);
    },
    async close() {},
  };
}

/**
 * Counters in Redis, so that every process sees the same failures. When Redis cannot answer, the
 * process counts on its own (the in-memory store) rather than failing the sign-in.
 */
export function createRedisCounterStore(url: string, namespace: string, onError: (err: Error) => void): CounterStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 });
  redis.on('error', onError);
  const fallback = createMemoryCounterStore();
  const k = (key: string) => `${namespace}:bf:${key}`;
  const l = (key: string) => `${namespace}:bf-lock:${key}`;
  async function guarded<T>(work: () => Promise<T>, otherwise: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      onError(err as Error);
      return otherwise();
    }
  }
  return {
    increment: (key, windowMs) =>
      guarded(
        async () => {
          const res = await redis.multi().set(k(key), '0', 'PX', windowMs, 'NX').incr(k(key)).exec();
          const n = res?.[1]?.[1];
          if (typeof n !== 'number') throw new Error('unexpected answer from Redis');
          return n;
        },
        () => fallback.increment(key, windowMs),
      ),
    decrement: (key) =>
      guarded(
        async () => {
          // only an existing counter: DECR on a missing key would create one without expiry
          await redis.eval(
            "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0",
            1,
            k(key),
          );
        },
        () => fallback.decrement(key),
      ),
    lock: (key, ms) =>
      guarded(
        async () => {
          await redis.set(l(key), '1', 'PX', ms);
        },
        () => fallback.lock(key, ms),
      ),
    lockedFor: (key) =>
      guarded(
        async () => Math.max(0, await redis.pttl(l(key))),
        () => fallback.lockedFor(key),
      ),
    reset: (key) =>
      guarded(
        async () => {
          await redis.del(k(key), l(key));
        },
        () => fallback.reset(key),
      ),
    async close() {
      redis.disconnect();
    },
  };
}

export interface SignInGuard {
  /** throws 42901 (with Retry-After) while the username or the address is locked */
  assertOpen(username: string, ip: string): Promise<void>;
  /**
   * Counts an attempt before its password is checked, so that concurrent attempts cannot all slip
   * under the limit: each increment is atomic, and an attempt past `lockAfter` is refused (42901)
   * without being checked. Answers how long to hold a failed answer back (slowing a guesser down).
   */
  attempt(username: string, ip: string): Promise<number>;
  /** counts a failure after the fact (a password change's current password) */
  failed(username: string, ip: string): Promise<number>;
  /** a success forgets the username's failures and gives the address its attempt back */
  succeeded(username: string, ip?: string): Promise<void>;
}

function delayFor(policy: LockoutPolicy, failures: number): number {
  if (failures <= policy.slowAfter) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - policy.slowAfter - 1));
}

/**
 * Brute-force protection of password sign-in, per username and per client address: failures past
 * `slowAfter` are answered ever more slowly, and at `lockAfter` the key is locked for `lockMs`.
 * Unknown usernames count exactly like known ones, so a lock tells nothing about who exists.
 */
export function createSignInGuard(store: CounterStore, config: BruteForceConfig): SignInGuard {
  const userKey = (username: string) => `u:${username.normalize('NFKC').toLowerCase()}`;
  const ipKey = (ip: string) => `ip:${ip}`;
  const keys = (username: string, ip: string) =>
    [
      [userKey(username), config.username],
      [ipKey(ip), config.ip],
    ] as const;
  async function count(username: string, ip: string, refuseBeyond: boolean): Promise<number> {
    let delay = 0;
    let refused = 0;
    for (const [key, policy] of keys(username, ip)) {
      const n = await store.increment(key, policy.windowMs);
      if (n >= policy.lockAfter) await store.lock(key, policy.lockMs);
      if (refuseBeyond && n > policy.lockAfter) refused = Math.max(refused, policy.lockMs);
      delay = Math.max(delay, delayFor(policy, n));
    }
    if (refused) throw Errors.locked(Math.ceil(refused / 1000));
    return delay;
  }
  return {
    async assertOpen(username, ip) {
      const ms = Math.max(await store.lockedFor(userKey(username)), await store.lockedFor(ipKey(ip)));
      if (ms > 0) throw Errors.locked(Math.ceil(ms / 1000));
    },
    attempt: (username, ip) => count(username, ip, true),
    failed: (username, ip) => count(username, ip, false),
    async succeeded(username, ip) {
      await store.reset(userKey(username));
      if (ip !== undefined) await store.decrement(ipKey(ip));
    },
  };
}
