import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import type { TokenService } from './lib/tokens.ts';
import type { UserStateCache } from './plugins/auth.ts';

export type AuthMode = 'public' | 'user' | 'admin' | 'token';

export interface AuthUser {
  id: number;
  role: 'user' | 'admin';
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Readonly<Config>;
    database: Database;
    db: Db;
    clock: Clock;
    tokens: TokenService;
    userState: UserStateCache;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** who may call the route; default `user` */
    auth?: AuthMode;
  }
}
