import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createDatabase, query, type Database } from '../../src/db/client.ts';
import { describeTables } from '../../src/modules/backups/backups.archive.ts';
import { runCli } from '../helpers/cli.ts';
import {
  BASE_PORT,
  call,
  createPgDatabase,
  demoSession,
  JWT_SECRET,
  jsonBody,
  multipart,
  pgAnswers,
  startServer,
  stopServer,
  type OwnDatabase,
} from './helpers.ts';

const PORT = BASE_PORT + 50;

/** every table's row count and, for each numeric column, its sum: what a faithful copy must keep */
async function fingerprint(database: Database): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of await describeTables(database.db)) {
    const numeric = t.columns.filter((c) => ['int2', 'int4', 'int8', 'numeric', 'float4', 'float8'].includes(c.type));
    const sums = numeric.map((c) => sql`coalesce(sum(${sql.identifier(c.name)}), 0)::text`);
    const [row] = await query<{ r: string }>(
      database.db,
      sql`select concat_ws(' ', count(*)::text, ${sql.join([sql`''`, ...sums], sql`, `)}) as r from ${sql.identifier(t.name)}`,
    );
    out[t.name] = row!.r;
  }
  return out;
}

function cli(args: string[], env: Record<string, string>): string {
  const res = runCli(args, { JWT_SECRET, ...env });
  assert.equal(res.status, 0, `${args.join(' ')}: ${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

describe('backup from the embedded database restored into PostgreSQL', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-backup-move-'));
  let db: OwnDatabase | undefined;
  after(async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps every table's row count and sums", async (t) => {
    if (!(await pgAnswers())) return t.skip('no PostgreSQL server answers');
    // real use on the embedded database: demo users, an import, a group, a filter, feedback
    const server = await startServer({ port: PORT, dataDir });
    try {
      for (let i = 0; i < 3; i++) {
        const s = await demoSession(PORT);
        const rows = [
          'date,kind,amount,category,note,tags',
          ...Array.from(
            { length: 500 },
            (_, n) =>
              `2025-0${1 + (n % 9)}-1${n % 9},${n % 5 ? 'expense' : 'income'},${n + 0.37},Moved ${n % 7},note ${n},a|b`,
          ),
        ];
        assert.equal((await call(PORT, '/api/import', multipart('m.csv', rows.join('\n'), s.auth))).status, 200);
        assert.equal((await call(PORT, '/api/groups', jsonBody({ name: `g${i}` }, s.auth))).status, 201);
        assert.equal(
          (
            await call(
              PORT,
              '/api/filters',
              jsonBody({ name: `f${i}`, criteria: { kind: 'expense', min_amount: 1.5 } }, s.auth),
            )
          ).status,
          201,
        );
        assert.equal((await call(PORT, '/api/feedback', jsonBody({ content: `hello ${i}` }, s.auth))).status, 201);
      }
    } finally {
      server.kill('SIGTERM');
      await server.exited;
      await stopServer(server);
    }
    const file = path.join(dataDir, 'moved.json.gz');
    cli(['backup:create', file], { DATA_DIR: dataDir });
    db = await createPgDatabase('backup_move');
    cli(['backup:restore', file], { DATA_DIR: path.join(dataDir, 'other'), DATABASE_URL: db.url });

    const embedded = await createDatabase({ databaseUrl: null, embeddedDbDir: path.join(dataDir, 'db') });
    const pg = await createDatabase({ databaseUrl: db.url, embeddedDbDir: null, poolSize: 2 });
    try {
      const before = await fingerprint(embedded);
      const moved = await fingerprint(pg);
      assert.ok(Number(before.transactions!.split(' ')[0]) >= 1500, `transactions: ${before.transactions}`);
      assert.deepEqual(moved, before);
    } finally {
      await embedded.close();
      await pg.close();
    }
  });
});
