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
  const name = `ledger_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await createDatabase({ databaseUrl: url.toString(), embeddedDbDir: null, poolSize: 30 });
  await runMigrations(database);
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
