import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createDatabase, runMigrations, type Database } from '../../src/db/client.ts';

/** PostgreSQL server URL for the suite, or undefined for the embedded database. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const onPostgres = Boolean(TEST_DATABASE_URL);

export interface TestDatabase {
  database: Database;
  /** the URL of this test's own database (PostgreSQL only), for a second process or pool */
  url: string | null;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or on PostgreSQL a database of
 * its own created on the TEST_DATABASE_URL server and dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const database = await takeEmbedded();
    await runMigrations(database);
    let dropped = false;
    return {
      database,
      url: null,
      async drop() {
        if (dropped) return;
        dropped = true;
        await giveBackEmbedded(database);
      },
    };
  }
  const template = process.env.TEST_PG_TEMPLATE;
  const blank = template ? await clonePgTemplate(template) : await blankPgDatabase('ledger_test');
  const database = await createDatabase({ databaseUrl: blank.url, embeddedDbDir: null, poolSize: 30 });
  if (!template) await runMigrations(database);
  return {
    database,
    url: blank.url,
    async drop() {
      await database.close();
      await blank.drop();
    },
  };
}

/** A PostgreSQL server for tests that need one even on the embedded suite: the suite's own, else the local one. */
export const PG_SERVER = TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** PG_SERVER without its credentials, for skip messages. */
export const pgServerLabel = (): string => PG_SERVER.replace(/\/\/[^@]*@/, '//');

/** Whether PG_SERVER answers within three seconds. */
export async function pgServerAnswers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_SERVER, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** A database of its own on PG_SERVER: its name, its URL, and how to drop it (connections or not). */
export interface PgDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A blank database (no tables at all) on PG_SERVER, named `<prefix>_<pid>_<random>`. */
export async function blankPgDatabase(prefix = 'ledger_blank'): Promise<PgDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  return pgDatabase(name);
}

function pgDatabase(name: string): PgDatabase {
  return {
    name,
    url: pgDatabaseUrl(name),
    async drop() {
      const c = new pg.Client({ connectionString: PG_SERVER });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

/** the URL of database `name` on PG_SERVER */
function pgDatabaseUrl(name: string): string {
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A migrated database cloned from the run's template `template` (named by scripts/test.mjs in
 * TEST_PG_TEMPLATE, dropped by it at the end): the first file to need it migrates it, under an
 * advisory lock, and every test database is then a file copy of it instead of a run of all
 * migrations. Commits of test databases do not wait for the disk (nothing here survives a crash).
 */
async function clonePgTemplate(template: string): Promise<PgDatabase> {
  const name = `ledger_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  try {
    // the same lock for every file of this run: one migrates the template, the others wait for it
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    try {
      const { rows } = await admin.query<{ ready: boolean }>(
        'select datistemplate as ready from pg_database where datname = $1',
        [template],
      );
      if (!rows[0]?.ready) {
        // a template left half-migrated by a file that died is made again
        if (rows.length) await admin.query(`drop database "${template}" with (force)`);
        await admin.query(`create database "${template}"`);
        const database = await createDatabase({
          databaseUrl: pgDatabaseUrl(template),
          embeddedDbDir: null,
          poolSize: 1,
        });
        try {
          await runMigrations(database);
        } finally {
          await database.close();
        }
        // marks it finished; cloning needs no other connection to it, and none stays open
        await admin.query(`alter database "${template}" with is_template true`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [template]);
    }
    await admin.query(`create database "${name}" template "${template}"`);
    await admin.query(`alter database "${name}" set synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  return pgDatabase(name);
}

/**
 * Embedded test databases are reused within a process: opening a PGlite from the template costs
 * seconds of CPU under WebAssembly, emptying one costs a fraction of that. A database given back is
 * emptied (every table of the schema truncated, its sequences restarted, settings reset) and kept
 * for the next file, unless it was closed or its schema is no longer the template's: then it is
 * closed and the next one is opened from the template again. TEST_FRESH_DB=1 opens one every time.
 */
const spare: Database[] = [];
const MAX_SPARE = 2;
const closedByTest = new WeakSet<Database>();
let templateShape: string | undefined;

/** every relation, column, constraint, index, function and trigger outside the system schemas */
const SHAPE = sql`select md5(coalesce(string_agg(x, '|' order by x), '')) as shape from (
    select format('%s.%s:%s', n.nspname, c.relname, c.relkind) as x from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'
    union all select format('%s.%s.%s:%s:%s:%s', n.nspname, c.relname, a.attname, a.atttypid, a.attnotnull, pg_get_expr(d.adbin, d.adrelid))
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped
    union all select format('%s:%s', conname, pg_get_constraintdef(oid)) from pg_constraint where connamespace = 'public'::regnamespace
    union all select format('%s:%s', p.proname, md5(p.prosrc)) from pg_proc p where p.pronamespace = 'public'::regnamespace
    union all select format('%s:%s', tgname, tgrelid::regclass) from pg_trigger where not tgisinternal
    union all select format('migrations:%s', count(*)) from drizzle.__drizzle_migrations
  ) parts`;

async function shapeOf(database: Database): Promise<string> {
  const res = (await database.db.execute(SHAPE)) as unknown as { rows: { shape: string }[] };
  return res.rows[0]!.shape;
}

async function takeEmbedded(): Promise<Database> {
  const reused = spare.pop();
  if (reused) return reused;
  const database = await createDatabase({ databaseUrl: null, embeddedDbDir: null });
  const close = database.close.bind(database);
  database.close = async () => {
    closedByTest.add(database);
    await close();
  };
  // without an installed template the database starts empty (migrated later by the app): its shape
  // then matches nothing, so no database is reused
  templateShape ??= await shapeOf(database).catch(() => 'no template');
  return database;
}

async function giveBackEmbedded(database: Database): Promise<void> {
  if (closedByTest.has(database)) return;
  const reusable =
    process.env.TEST_FRESH_DB !== '1' && spare.length < MAX_SPARE && (await emptied(database).catch(() => false));
  if (reusable) spare.push(database);
  else await database.close();
}

/** empties a database back to the template's state; false when it cannot be (the schema changed) */
async function emptied(database: Database): Promise<boolean> {
  const { db } = database;
  // a transaction a test left open (or aborted) is ended first
  await db.execute(sql`rollback`).catch(() => {});
  if ((await shapeOf(database).catch(() => 'unknown')) !== templateShape) return false;
  // every table truncated (their identities restarted) and every other sequence restarted, in one statement
  await db.execute(
    sql.raw(`do $$
    declare
      tables text;
      seq record;
    begin
      select string_agg(format('%I.%I', n.nspname, c.relname), ', ') into tables from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p');
      if tables is not null then execute 'truncate table ' || tables || ' restart identity cascade'; end if;
      for seq in select n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'S' loop
        execute format('alter sequence %I.%I restart', seq.nspname, seq.relname);
      end loop;
    end $$`),
  );
  // the session as a new one finds it: settings, session locks and temporary tables
  await db.execute(sql`reset all`);
  await db.execute(sql`select pg_advisory_unlock_all()`);
  await db.execute(sql`discard temp`);
  await db.execute(sql`set time zone 'UTC'`);
  return true;
}
