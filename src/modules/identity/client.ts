import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from './auth.service.ts';

/** Where a sign-in comes from: shown in the sessions list. */
export function clientOf(req: FastifyRequest): ClientInfo {
  const ua = req.headers['user-agent'];
  return { userAgent: typeof ua === 'string' && ua ? ua : null, ip: req.ip };
}
