// Webhooks across a kill -9: a record is written while the delivery worker is idle, the server is
// killed before it sends anything, and once it starts again the event is delivered with the very
// webhook-id the outbox gave it in the transaction of the change.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  BASE_PORT,
  call,
  createPgDatabase,
  demoSession,
  jsonBody,
  pgAnswers,
  sleep,
  startServer,
  stopServer,
  type OwnDatabase,
  type ServerProcess,
} from './helpers.ts';

for (const engine of ['embedded', 'postgres'] as const) {
  describe(`webhooks across a kill -9 of the server (${engine} database)`, () => {
    const port = BASE_PORT + (engine === 'embedded' ? 70 : 71);
    const dataDir = mkdtempSync(path.join(tmpdir(), `ledger-webhooks-${engine}-`));
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    let db: OwnDatabase | undefined;
    let server: ServerProcess | undefined;

    before(async () => {
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    });
    after(async () => {
      await stopServer(server);
      await db?.drop();
      receiver.closeAllConnections();
      await new Promise<void>((r) => receiver.close(() => r()));
      rmSync(dataDir, { recursive: true, force: true });
    });

    // a start from the sources on a busy machine can take a while
    const start = (pollMs: number) =>
      startServer(
        {
          port,
          dataDir,
          databaseUrl: db?.url,
          env: { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOKS_POLL_MS: String(pollMs) },
        },
        180_000,
      );

    it('delivers the event written before the kill, with the same webhook-id, once the server is back', async (t) => {
      if (engine === 'postgres') {
        if (!(await pgAnswers())) return t.skip('no PostgreSQL server answers');
        db = await createPgDatabase('webhooks');
      }
      // the worker passes once at start-up and then not for ten minutes: nothing is sent before the kill
      server = await start(600_000);
      const s = await demoSession(port);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const made = await call(port, '/api/webhooks', jsonBody({ url, events: ['transaction.created'] }, s.auth));
      assert.equal(made.status, 201, made.body);
      const { id: endpointId, secret } = made.json();
      const tx = await call(
        port,
        '/api/transactions',
        jsonBody({ kind: 'expense', amount: '8.80', category_id: s.categoryId, date: '2026-03-01' }, s.auth),
      );
      assert.equal(tx.status, 201, tx.body);
      const log = await call(port, `/api/webhooks/${endpointId}/deliveries`, { headers: s.auth });
      const [pending] = log.json().list;
      assert.equal(pending.status, 'pending');
      assert.equal(pending.attempts, 0);

      server.kill('SIGKILL');
      await server.exited;
      assert.equal(received.length, 0, 'nothing was sent before the kill');

      server = await start(200);
      for (let i = 0; i < 150 && received.length === 0; i++) await sleep(100);
      await sleep(500);
      assert.equal(received.length, 1, `one delivery after the restart:\n${server.output().slice(-2000)}`);
      const [got] = received;
      assert.equal(got!.headers['webhook-id'], pending.message_id);
      const body = new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>) as {
        type: string;
        data: { id: number; amount_minor: number };
      };
      assert.equal(body.type, 'transaction.created');
      assert.equal(body.data.id, tx.json().id);
      assert.equal(body.data.amount_minor, 880);
      const after = (await call(port, `/api/webhooks/${endpointId}/deliveries`, { headers: s.auth })).json().list;
      assert.equal(after.length, 1);
      assert.equal(after[0].status, 'delivered');
      assert.equal(after[0].message_id, pending.message_id);
    });
  });
}
