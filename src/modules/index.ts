import type { FastifyInstance } from 'fastify';
import authRoutes from './auth/auth.routes.ts';
import meRoutes from './me/me.routes.ts';
import systemRoutes from './system/system.routes.ts';

/** Every feature's routes, registered in this order by buildApp. */
export const modules: ((app: FastifyInstance) => Promise<void>)[] = [systemRoutes, authRoutes, meRoutes];
