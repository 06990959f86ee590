// Writes the OpenAPI document exactly as GET /api/openapi.json serves it.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { createDatabase, runMigrations } from '../src/db/client.ts';
import { testConfig } from '../test/helpers/app.ts';

const database = await createDatabase({ databaseUrl: null, embeddedDbDir: null });
await runMigrations(database);
const app = await buildApp(testConfig({ version: process.env.npm_package_version ?? '0.0.0' }), { database });
const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
writeFileSync(process.argv[2] ?? 'openapi.json', res.body);
await app.close();
await database.close();
