// A benchmark server process: the real app plus one bare route that does no database work, so
// both are measured in the same process and run. Prints "READY <json>" when listening.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase, runMigrations } from '../src/db/client.ts';

const base = loadConfig();
const config = Object.freeze({
  ...base,
  rateLimit: { ...base.rateLimit, enabled: false },
  scheduler: false,
  logLevel: 'silent',
});
const database = await createDatabase({
  databaseUrl: config.databaseUrl,
  embeddedDbDir: config.embeddedDbDir,
  poolSize: 60,
});
await runMigrations(database);
const app = await buildApp(config, { database });
app.get('/api/bench/bare', { config: { auth: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));
await app.listen({ port: config.port, host: '127.0.0.1' });
const demo = await app.inject({ method: 'POST', url: '/api/auth/demo-login' });
console.log(
  'READY ' + JSON.stringify({ port: config.port, token: demo.json().access_token, userId: demo.json().user.id }),
);
process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
