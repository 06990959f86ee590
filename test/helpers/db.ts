import { randomBytes } from 'node:crypto';
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
    const database = await createDatabase({ databaseUrl: null, embeddedDbDir: null });
    await runMigrations(database);
    return { database, url: null, drop: () => database.close() };
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

/** A blank database (no tables at all) on PG_SERVER, and how to drop it. */
export async function blankPgDatabase(prefix = 'ledger_blank'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
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
async function clonePgTemplate(template: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ledger_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  try {
    // the same lock for every file of this run: one migrates the template, the others wait for it
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    try {
      const { rows } = await admin.query<{ ready: boolean }>('select datistemplate as ready from pg_database where datname = $1', [template]);
      if (!rows[0]?.ready) {
        // a template left half-migrated by a file that died is made again
        if (rows.length) await admin.query(`drop database "${template}" with (force)`);
        await admin.query(`create database "${template}"`);
        const database = await createDatabase({ databaseUrl: pgDatabaseUrl(template), embeddedDbDir: null, poolSize: 1 });
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
  return {
    url: pgDatabaseUrl(name),
    async drop() {
      const c = new pg.Client({ connectionString: PG_SERVER });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
