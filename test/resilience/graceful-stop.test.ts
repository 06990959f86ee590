import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  BASE_PORT,
  call,
  demoSession,
  jsonBody,
  multipart,
  sleep,
  startServer,
  stopServer,
  type ServerProcess,
  type Session,
} from './helpers.ts';

const PORT = BASE_PORT + 20;
const ROWS = 30_000;

const csv = (marker: string, rows: number) =>
  [
    'date,kind,amount,category,note',
    ...Array.from(
      { length: rows },
      (_, i) => `2024-${String((i % 12) + 1).padStart(2, '0')}-10,expense,${(i % 90) + 1},Stop,${marker} ${i}`,
    ),
  ].join('\n');

/** Opens an export download and hands back the response without reading it. */
function openDownload(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: PORT, path: url, agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads a response to its end; rejects when the server cut it before the end. */
function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (body += c));
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('aborted')));
    res.on('end', () => (res.complete ? resolve(body) : reject(new Error('incomplete'))));
    res.resume();
  });
}

async function prepareExport(s: Session, format = 'csv'): Promise<string> {
  const res = await call(
    PORT,
    '/api/export/prepare',
    jsonBody({ startDate: '2024-01-01', endDate: '2024-12-31', format }, s.auth),
  );
  assert.equal(res.status, 200, res.body);
  return res.json().downloadUrl;
}

describe('graceful stop on SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-stop-'));
  let server: ServerProcess | undefined;
  let s: Session;
  after(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes an export download and 20 imports in flight, refuses new connections, and exits within the grace period', async () => {
    const grace = 20_000;
    server = await startServer({ port: PORT, dataDir, env: { SHUTDOWN_GRACE_MS: String(grace) } });
    s = await demoSession(PORT);
    const seed = await call(PORT, '/api/import', {
      ...multipart('seed.csv', csv('seed', ROWS), s.auth),
      timeoutMs: 120_000,
    });
    assert.equal(seed.status, 200, seed.body);

    // the download starts, and is read only after the signal
    const download = await openDownload(await prepareExport(s));
    assert.equal(download.statusCode, 200);
    download.pause();
    const imports = Array.from({ length: 20 }, (_, i) =>
      call(PORT, '/api/import', { ...multipart(`f${i}.csv`, csv(`stop-${i}-end`, 500), s.auth), timeoutMs: 60_000 }),
    );
    await sleep(300);

    const signalled = Date.now();
    server.kill('SIGTERM');
    // every request sent before the signal is answered, though the process was busy when it came
    const answers = await Promise.all(imports);
    for (const a of answers) assert.equal(a.status, 200, a.body);
    // the download is still going; a new connection is refused meanwhile
    await assert.rejects(call(PORT, '/api/health', { timeoutMs: 3000 }), /ECONNREFUSED/);
    assert.equal(server.child.exitCode, null, 'still serving the download');

    const body = await readAll(download);
    const { code } = await server.exited;
    const tookMs = Date.now() - signalled;
    assert.equal(code, 0, server.output().slice(-2000));
    assert.ok(tookMs < grace, `stopped after ${tookMs} ms`);
    // header plus every seeded row
    assert.equal(body.trimEnd().split('\n').length, ROWS + 1);

    // every import answered 200 is there after a restart
    server = await startServer({ port: PORT, dataDir });
    for (let i = 0; i < 20; i++) {
      const res = await call(PORT, `/api/transactions?keyword=stop-${i}-end&pageSize=1`, { headers: s.auth });
      assert.equal(res.json().total, 500, `import ${i}`);
    }
  });

  it('cuts a download that cannot finish when the grace period ends, so the client sees it incomplete', async () => {
    await stopServer(server);
    const grace = 1500;
    server = await startServer({ port: PORT, dataDir, env: { SHUTDOWN_GRACE_MS: String(grace) } });
    // far more than the socket buffers between the two ends hold
    const more = await call(PORT, '/api/import', {
      ...multipart('more.csv', csv('more', 100_000), s.auth),
      timeoutMs: 180_000,
    });
    assert.equal(more.status, 200, more.body);
    const download = await openDownload(await prepareExport(s, 'json'));
    download.pause(); // a client that stopped reading
    await sleep(200);
    const signalled = Date.now();
    server.kill('SIGTERM');
    const { code } = await server.exited;
    const tookMs = Date.now() - signalled;
    assert.equal(code, 0, server.output().slice(-2000));
    assert.ok(tookMs >= grace - 100 && tookMs < grace + 3000, `stopped after ${tookMs} ms`);
    await assert.rejects(readAll(download), /aborted|incomplete|ECONNRESET/);
  });
});
