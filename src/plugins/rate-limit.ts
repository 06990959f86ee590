import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { Errors } from '../lib/errors.ts';

/**
 * One limiter with bucketed keys, so that the Redis store (shared by every process) and the
 * in-memory store count the same way: all of /api/auth/* shares one bucket per IP, demo login has
 * its own, and everything else counts per user (per IP when signed out).
 */
export function bucketOf(request: FastifyRequest): string {
  const url = request.routeOptions.url ?? request.url;
  if (url === '/api/auth/demo-login') return `demo:${request.ip}`;
  if (url.startsWith('/api/auth/')) return `auth:${request.ip}`;
  if (request.user) return `user:${request.user.id}`;
  return `ip:${request.ip}`;
}

async function registerRateLimit(app: FastifyInstance): Promise<void> {
  const limits = app.config.rateLimit;
  if (!limits.enabled) return;
  let redis: Redis | null = null;
  if (app.config.redisUrl) {
    redis = new Redis(app.config.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2000,
      lazyConnect: false,
    });
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
    app.addHook('onClose', async () => {
      redis?.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: limits.windowMs ?? 60_000,
    redis: redis ?? undefined,
    nameSpace: `${limits.namespace ?? 'ledger'}-rl-`,
    skipOnError: true,
    keyGenerator: bucketOf,
    max: (_request, key) =>
      key.startsWith('demo:') ? limits.demo : key.startsWith('auth:') ? limits.auth : limits.global,
    errorResponseBuilder: (_request, context) => {
      const err = Errors.rateLimited(`rate limit exceeded, retry in ${Math.ceil(context.ttl / 1000)} s`);
      return Object.assign(err, { statusCode: 429 });
    },
  });
}

/** Counts requests per bucket; after `auth`, whose hook sets the user a bucket may be keyed by. */
export default fp(registerRateLimit, { name: 'rate-limit', fastify: '5.x', dependencies: ['auth', 'errors'] });
