import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import type { AppError } from './lib/errors.ts';
import type { LogFileHealth } from './lib/logger.ts';

export type AuthMode = 'public' | 'user' | 'admin' | 'token';

export interface AuthUser {
  id: number;
  role: 'user' | 'admin';
  /** the session (refresh-token family) of the access token, when it names one */
  sessionId?: number | null;
  /** set when the request carries a personal API token instead of an access token */
  apiToken?: { id: number; scopes: ApiTokenScope[] };
}

export type ApiTokenScope = 'read' | 'write';

declare module 'fastify' {
  interface FastifyInstance {
    config: Readonly<Config>;
    database: Database;
    db: Db;
    clock: Clock;
    /** whether the log file can be written (a failing one falls back to stdout) */
    logHealth: () => LogFileHealth;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** why authentication refused the request; answered after the rate limiter counted it */
    authError: AppError | null;
  }
  interface FastifyContextConfig {
    /** who may call the route; default `user` */
    auth?: AuthMode;
    /** only from a signed-in session: a personal API token is refused (40301) */
    session?: boolean;
    /**
     * the route applies an API token's scope to each operation it carries itself (the assistant
     * endpoint: one POST that reads or writes), instead of by its HTTP method
     */
    scopePerOperation?: boolean;
  }
}
