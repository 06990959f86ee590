import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  BASE_PORT,
  call,
  createPgDatabase,
  demoSession,
  jsonBody,
  multipart,
  pgAnswers,
  sleep,
  sqlOn,
  startServer,
  stopServer,
  type OwnDatabase,
  type ServerProcess,
  type Session,
} from './helpers.ts';

const IMPORT_ROWS = 50_000;

function importFile(marker: string): string {
  const lines = ['date,kind,amount,category,note'];
  for (let i = 0; i < IMPORT_ROWS; i++)
    lines.push(
      `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},expense,${(i % 500) + 1}.25,Crash test,${marker} ${i}`,
    );
  return lines.join('\n') + '\n';
}

/** how many of the user's transactions carry the marker in their note */
async function countMarked(port: number, s: Session, marker: string): Promise<number> {
  const res = await call(port, `/api/transactions?keyword=${encodeURIComponent(marker)}&pageSize=1`, {
    headers: s.auth,
  });
  assert.equal(res.status, 200, res.body);
  return res.json().total;
}

for (const engine of ['embedded', 'postgres'] as const) {
  describe(`kill -9 of the server (${engine} database)`, () => {
    const port = BASE_PORT + (engine === 'embedded' ? 0 : 1);
    const dataDir = mkdtempSync(path.join(tmpdir(), `ledger-crash-${engine}-`));
    let db: OwnDatabase | undefined;
    let server: ServerProcess | undefined;
    let skip: string | false = false;

    const start = async () => {
      if (engine === 'postgres' && !db) {
        if (!(await pgAnswers())) {
          skip = 'no PostgreSQL server answers';
          return;
        }
        db = await createPgDatabase('crash');
      }
      server = await startServer({ port, dataDir, databaseUrl: db?.url });
    };
    after(async () => {
      await stopServer(server);
      await db?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('leaves no partial import when killed in the middle of a 50,000-row import, and starts again at once', async (t) => {
      await start();
      if (skip) return t.skip(skip);
      const s = await demoSession(port);
      const marker = `imp${Date.now()}`;
      const upload = call(port, '/api/import', {
        ...multipart('crash.csv', importFile(marker), s.auth),
        timeoutMs: 120_000,
      }).then(
        (r) => ({ answered: r.status }),
        (err: Error) => ({ cut: err.message }),
      );
      // kill while the rows are being written: on PostgreSQL seen in pg_stat_activity, on the
      // embedded database once the upload is in and the import is under way
      if (db) {
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline) {
          const [row] = await sqlOn<{ n: number }>(
            db.url,
            `select count(*)::int as n from pg_stat_activity where datname = $1 and state = 'active' and query ilike 'insert into%transactions%'`,
            [db.name],
          );
          if (row!.n > 0) break;
          await sleep(20);
        }
      } else {
        await sleep(1500);
      }
      server!.kill('SIGKILL');
      await server!.exited;
      const outcome = await upload;
      assert.ok(
        'cut' in outcome,
        `the import was answered before the kill (${JSON.stringify(outcome)}); the test did not kill it mid-way`,
      );

      // the embedded database opens again without repair, and the dead process's lock on the data
      // folder is taken over at once instead of refusing the start
      server = await startServer({ port, dataDir, databaseUrl: db?.url });
      assert.doesNotMatch(server.output(), /in use by another running instance/);
      const n = await countMarked(port, s, marker);
      assert.equal(n, 0, `a partial import of ${n} rows survived`);
      // the same import now runs whole
      const again = await call(port, '/api/import', {
        ...multipart('crash.csv', importFile(marker), s.auth),
        timeoutMs: 120_000,
      });
      assert.equal(again.status, 200, again.body);
      assert.equal(await countMarked(port, s, marker), IMPORT_ROWS);
    });

    it('keeps every create answered 201 when killed in the middle of a stream of creates, and a retry with the same key runs once', async (t) => {
      if (skip) return t.skip(skip);
      if (!server) await start();
      const s = await demoSession(port);
      const marker = `str${Date.now()}`;
      const answered = new Map<number, number>();
      const unanswered: number[] = [];
      let next = 0;
      let killed = false;
      const body = (i: number) => ({
        kind: 'expense',
        amount: '1.50',
        category_id: s.categoryId,
        date: '2026-01-15',
        note: `${marker} ${i}`,
      });
      const worker = async () => {
        while (!killed && next < 400) {
          const i = next++;
          try {
            const res = await call(
              port,
              '/api/transactions',
              jsonBody(body(i), { ...s.auth, 'idempotency-key': `${marker}-${i}` }),
            );
            if (res.status === 201) answered.set(i, res.json().id);
            else unanswered.push(i);
          } catch {
            unanswered.push(i);
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      while (answered.size < 60) await sleep(10);
      server!.kill('SIGKILL');
      killed = true;
      await server!.exited;
      await Promise.all(workers);
      assert.ok(unanswered.length > 0 || answered.size > 0);

      server = await startServer({ port, dataDir, databaseUrl: db?.url });
      for (const [i, id] of answered) {
        const res = await call(port, `/api/transactions/${id}`, { headers: s.auth });
        assert.equal(res.status, 200, `create ${i} answered 201 with id ${id} but is gone`);
        assert.equal(res.json().note, `${marker} ${i}`);
      }
      // the requests cut by the kill are retried with their keys: each lands exactly once
      for (const i of unanswered) {
        const res = await call(
          port,
          '/api/transactions',
          jsonBody(body(i), { ...s.auth, 'idempotency-key': `${marker}-${i}` }),
        );
        assert.equal(res.status, 201, res.body);
      }
      const all = [...answered.keys(), ...unanswered];
      assert.equal(await countMarked(port, s, marker), all.length, 'each create exactly once');
    });
  });
}
