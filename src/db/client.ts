import { constants as fsConstants, existsSync, mkdirSync } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { copyTemplateInto, loadBlankTemplate, loadTemplate } from './embedded-template.ts';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** a database handle or an open transaction: repositories accept either */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'pg';
  /** PostgreSQL only: the pool, for work that needs a dedicated connection */
  pool: pg.Pool | null;
  /** a real read: fails while the database is unreachable or its files cannot be read */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** connections now: open, idle, and requests waiting for one (the embedded database has one connection) */
  usage(): ConnectionUsage;
  /**
   * Calls `listener` with the seconds each checkout of a pooled connection took (waiting for a free
   * one or opening a new one; PostgreSQL only). Answers the function that removes the listener.
   */
  onConnectionWait(listener: (seconds: number) => void): () => void;
}

export interface ConnectionUsage {
  total: number;
  idle: number;
  inUse: number;
  waiting: number;
}

export const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));

// Calendar dates stay strings and bigint sums stay exact: no implicit Date or float conversion.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 1082) return (v: string) => v;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export interface DbOptions {
  databaseUrl: string | null;
  /** embedded database folder; null keeps it in memory */
  embeddedDbDir: string | null;
  poolSize?: number;
  /** how long a request waits for a pooled connection before the database counts as unavailable (default 5 s) */
  connectTimeoutMs?: number;
  /** how long an idle pooled connection is kept open (default 5 minutes) */
  idleTimeoutMs?: number;
  /** embedded only: a new database without any table (not from the migrated template) */
  blank?: boolean;
  /** where failures of idle or checked-out connections are reported (they must never end the process) */
  onConnectionError?: (err: Error) => void;
}

export async function createDatabase(opts: DbOptions): Promise<Database> {
  if (opts.databaseUrl) {
    // Statistics group a period's rows in memory; PostgreSQL's default 4 MB of work_mem makes a year
    // of a busy user's rows spill to disk. A URL that sets its own options keeps them.
    const ownOptions = new URL(opts.databaseUrl).searchParams.has('options');
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      types: pgTypes,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      // node-postgres closes a connection idle for 10 s by default: a service in use then opens new
      // ones at every burst of its traffic, and a new backend's first statements wait on its start
      // and its empty caches (a few requests in a hundred waited 80 to 300 ms instead of 5 at 200 a
      // second). Kept for minutes, the connections a burst opened serve the next ones; a process
      // whose only remaining work is idle connections (the CLI) may still exit.
      idleTimeoutMillis: opts.idleTimeoutMs ?? 300_000,
      allowExitOnIdle: true,
      ...(ownOptions ? {} : { options: '-c work_mem=32MB' }),
    });
    // A connection lost while idle in the pool, or while checked out for a transaction between two
    // statements (a restart, a failover, pg_terminate_backend), emits 'error' on the pool or on the
    // client: without a listener that ends the process. The statement in progress fails on its
    // own (503); the pool discards the broken client and opens a new one on the next checkout.
    const onError = (err: Error) => opts.onConnectionError?.(err);
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', onError));
    const waitListeners = timeCheckouts(pool);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'pg',
      pool,
      async ping() {
        await pool.query('select 1 from pg_catalog.pg_class limit 1');
      },
      async close() {
        await pool.end();
      },
      usage: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        inUse: pool.totalCount - pool.idleCount,
        waiting: pool.waitingCount,
      }),
      onConnectionWait(listener) {
        waitListeners.add(listener);
        return () => void waitListeners.delete(listener);
      },
    };
  }
  if (opts.embeddedDbDir) mkdirSync(opts.embeddedDbDir, { recursive: true });
  // a new database (an empty folder, or in memory) starts from the installation's migrated template
  const fresh = !opts.embeddedDbDir || !existsSync(path.join(opts.embeddedDbDir, 'PG_VERSION'));
  // a new data folder is a copy of the template folder (then simply opened); in memory, the tar
  const copied = fresh && !opts.blank && opts.embeddedDbDir !== null && copyTemplateInto(opts.embeddedDbDir);
  // a blank one (no migrations) from the installation's initialised cluster, when there is one
  const template = fresh && !copied ? (opts.blank ? loadBlankTemplate() : loadTemplate()) : null;
  const options = template ? { loadDataDir: template } : {};
  const client = opts.embeddedDbDir ? new PGlite(opts.embeddedDbDir, options) : new PGlite(options);
  await client.waitReady;
  await client.exec("set time zone 'UTC'");
  const busy = countCalls(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pool: null,
    async ping() {
      // the database answers from memory even when its folder is gone or unreadable: check the files too
      if (opts.embeddedDbDir) {
        await access(opts.embeddedDbDir, fsConstants.R_OK | fsConstants.W_OK);
        await readFile(path.join(opts.embeddedDbDir, 'PG_VERSION'));
      }
      await client.query('select 1 from pg_catalog.pg_class limit 1');
    },
    async close() {
      await client.close();
    },
    usage() {
      const inUse = busy.pending > 0 ? 1 : 0;
      return { total: 1, idle: 1 - inUse, inUse, waiting: Math.max(0, busy.pending - 1) };
    },
    onConnectionWait: () => () => {},
  };
}

/**
 * Times every checkout of the pool: `pool.query` (drizzle's statements outside a transaction) and
 * `pool.connect` (transactions, migrations) both go through `connect`.
 */
function timeCheckouts(pool: pg.Pool): Set<(seconds: number) => void> {
  const listeners = new Set<(seconds: number) => void>();
  const connect = pool.connect.bind(pool) as (
    cb?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ) => Promise<pg.PoolClient> | void;
  const report = (started: number) => {
    if (!listeners.size) return;
    const seconds = (performance.now() - started) / 1000;
    for (const listener of listeners) listener(seconds);
  };
  pool.connect = ((
    cb?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ) => {
    const started = performance.now();
    if (cb) {
      return connect((err, client, done) => {
        report(started);
        cb(err, client, done);
      });
    }
    return (connect() as Promise<pg.PoolClient>).finally(() => report(started));
  }) as typeof pool.connect;
  return listeners;
}

/**
 * The embedded database runs one statement or transaction at a time and queues the others: counts
 * the calls begun and not yet finished (statements inside a transaction run on its own handle and
 * are not counted again).
 */
function countCalls(client: PGlite): { pending: number } {
  const state = { pending: 0 };
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      state.pending++;
      try {
        return await fn(...args);
      } finally {
        state.pending--;
      }
    };
  client.query = wrap(client.query.bind(client)) as typeof client.query;
  client.exec = wrap(client.exec.bind(client)) as typeof client.exec;
  client.transaction = wrap(client.transaction.bind(client)) as typeof client.transaction;
  return state;
}

/**
 * Applies the committed migrations; on PostgreSQL under an advisory lock so that processes starting
 * together take turns. `defaultCurrency` (DEFAULT_CURRENCY) is what a migration that gives existing
 * users money accounts puts them in.
 */
export async function runMigrations(database: Database, opts: { defaultCurrency?: string } = {}): Promise<void> {
  // without one (a new empty database, a restore target), the migration's own default (CNY) applies
  const currency = (opts.defaultCurrency ?? '').trim().toUpperCase();
  const setting = sql`select set_config('ledger.default_currency', ${/^[A-Z]{3}$/.test(currency) ? currency : ''}, false)`;
  if (database.kind === 'pglite') {
    await database.db.execute(setting);
    await migratePglite(database.db as never, { migrationsFolder });
    return;
  }
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock(727274001)');
    try {
      const db = drizzlePg(client);
      await db.execute(setting);
      await migratePg(db, { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(727274001)');
    }
  } finally {
    client.release();
  }
}

/** Runs raw SQL and returns its rows, the same on both drivers. */
export async function query<T>(db: Executor, statement: SQL): Promise<T[]> {
  const res = (await db.execute(statement)) as unknown as { rows: T[] };
  return res.rows;
}

export async function tableExists(db: Executor, name: string): Promise<boolean> {
  const [row] = await query<{ ok: boolean }>(db, sql`select to_regclass(${'public.' + name}) is not null as ok`);
  return Boolean(row?.ok);
}
