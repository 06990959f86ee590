import fp from 'fastify-plugin';
import { createDatabase, runMigrations, type Database } from '../db/client.ts';
import { systemClock, type Clock } from '../lib/clock.ts';

export interface DatabasePluginOptions {
  /** an open database shared with other app instances (tests); the app then neither migrates nor closes it */
  database?: Database;
  clock?: Clock;
}

/**
 * The database handle (`app.database`, `app.db`) and the clock every service is built with. An app
 * that opens its own database applies the committed migrations first and closes it on close.
 */
export default fp<DatabasePluginOptions>(
  async (app, opts) => {
    const owns = !opts.database;
    const database =
      opts.database ??
      (await createDatabase({
        databaseUrl: app.config.databaseUrl,
        embeddedDbDir: app.config.embeddedDbDir,
        // a connection lost outside a request (restart, failover): the pool replaces it
        onConnectionError: (err) => app.log.warn({ err: err.message }, 'database connection lost'),
      }));
    if (owns) {
      try {
        await runMigrations(database, { defaultCurrency: app.config.defaultCurrency });
      } catch (err) {
        await database.close().catch(() => {});
        throw err;
      }
      app.addHook('onClose', async () => database.close());
    }
    app.decorate('database', database);
    app.decorate('db', database.db);
    app.decorate('clock', opts.clock ?? systemClock);
  },
  { name: 'database', fastify: '5.x' },
);
