import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { UserStateCache } from './auth.ts';

/**
 * With REDIS_URL set, a change of a user's deletion, status or role made through one process
 * reaches every process at once: the invalidation is published, and each process drops its cached
 * lookup of that user. Without Redis (or while it is down) other processes follow within the
 * cache's lifetime, as before.
 */
async function shareUserInvalidation(app: FastifyInstance): Promise<void> {
  const url = app.config.redisUrl;
  if (!url) return;
  const channel = `${app.config.rateLimit.namespace ?? 'ledger'}:user-invalidate`;
  const options = { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 };
  const pub = new Redis(url, options);
  const sub = new Redis(url, { ...options, enableOfflineQueue: true });
  for (const r of [pub, sub]) r.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
  const local: UserStateCache = app.userState;
  const shared: UserStateCache = {
    get: (id) => local.get(id),
    clear: () => local.clear(),
    invalidate(id) {
      local.invalidate(id);
      pub
        .publish(channel, String(id))
        .catch((err: Error) => app.log.warn({ err: err.message }, 'could not publish a user invalidation'));
    },
  };
  sub.on('message', (ch: string, message: string) => {
    if (ch === channel && /^\d+$/.test(message)) local.invalidate(Number(message));
  });
  try {
    await sub.subscribe(channel);
  } catch (err) {
    app.log.warn(
      { err: (err as Error).message },
      'could not subscribe to user invalidations; other processes follow within the cache lifetime',
    );
  }
  app.userState = shared;
  app.addHook('onClose', async () => {
    pub.disconnect();
    sub.disconnect();
  });
}

export default fp(shareUserInvalidation, { name: 'shared-invalidation', fastify: '5.x', dependencies: ['identity'] });
