import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BASE_PORT,
  call,
  demoSession,
  sleep,
  startServer,
  stopServer,
  type ServerProcess,
  type Session,
} from './helpers.ts';

const PORT = BASE_PORT + 30;
const MB = 1024 * 1024;

/**
 * Sends a request whose body is `size` bytes of junk, as fast as the server takes it; answers what came back and how
 * much went out.
 */
function sendHuge(
  port: number,
  head: string,
  size: number,
  opts: { chunked?: boolean; prefix?: string } = {},
): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const data = Buffer.alloc(64 * 1024, 0x61);
    const chunk = opts.chunked
      ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')])
      : data;
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        sent += data.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      if (opts.chunked && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    socket.on('connect', () => {
      socket.write(head);
      if (opts.prefix)
        socket.write(
          opts.chunked ? `${Buffer.byteLength(opts.prefix).toString(16)}\r\n${opts.prefix}\r\n` : opts.prefix,
        );
      pump();
    });
    socket.on('data', (c) => (answer += c.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4), sent });
    });
  });
}

describe('abusive clients', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-abuse-'));
  let server: ServerProcess;
  let s: Session;
  before(async () => {
    server = await startServer({ port: PORT, dataDir });
    s = await demoSession(PORT);
  });
  after(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves a normal client within a second while 200 slow connections (slowloris) hold sockets open', async () => {
    const slow: Socket[] = [];
    for (let i = 0; i < 200; i++) {
      const sock = connect(PORT, '127.0.0.1');
      sock.on('error', () => {});
      sock.on('connect', () => sock.write(`GET /api/health HTTP/1.1\r\nHost: x\r\n`));
      slow.push(sock);
    }
    // one more header line now and then: never the end of the headers
    const drip = setInterval(
      () => slow.forEach((sock) => sock.writable && sock.write(`X-${Math.random().toString(36).slice(2)}: 1\r\n`)),
      300,
    );
    try {
      await sleep(500);
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        const res = await call(PORT, '/api/transactions?pageSize=5', { headers: s.auth, timeoutMs: 5000 });
        const ms = Date.now() - started;
        assert.equal(res.status, 200);
        assert.ok(ms < 1000, `a normal request took ${ms} ms`);
        await sleep(100);
      }
    } finally {
      clearInterval(drip);
      slow.forEach((sock) => sock.destroy());
    }
  });

  it('refuses a 100 MB body, 10,000 query parameters and a deep JSON body cheaply, and its memory comes back', async () => {
    const baseline = server.rss();
    // a declared 100 MB JSON body: refused from its Content-Length, without reading it
    const json = await sendHuge(
      PORT,
      `POST /api/transactions HTTP/1.1\r\nHost: x\r\nAuthorization: ${s.auth.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${100 * MB}\r\n\r\n`,
      100 * MB,
    );
    assert.equal(json.status, 413);
    assert.equal(JSON.parse(json.body).code, 41301);
    assert.ok(json.sent < 100 * MB, 'the connection closed before the whole body went out');
    // 100 MB of multipart sent chunked (no length to judge by): cut at the upload limit
    const upload = await sendHuge(
      PORT,
      `POST /api/import HTTP/1.1\r\nHost: x\r\nAuthorization: ${s.auth.authorization}\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n`,
      100 * MB,
      {
        chunked: true,
        prefix:
          '--b\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n',
      },
    );
    assert.equal(upload.status, 413, upload.body);
    assert.equal(JSON.parse(upload.body).code, 41301);
    assert.ok(upload.sent < 60 * MB, `read ${Math.round(upload.sent / MB)} MB before refusing`);
    // 10,000 query parameters
    const params = Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&');
    const many = await call(PORT, `/api/transactions?${params}`, { headers: s.auth });
    assert.ok(
      many.status === 200 || many.status === 400 || many.status === 414 || many.status === 431,
      `many params: ${many.status}`,
    );
    if (many.status >= 400) assert.ok(Number.isInteger(many.json().code));
    // a body nested 100,000 levels deep, before and after sign-in
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const headers of [{}, s.auth]) {
      const res = await call(PORT, '/api/transactions', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: deep,
      });
      assert.ok(res.status === 400 || res.status === 401, `deep: ${res.status} ${res.body.slice(0, 200)}`);
      assert.ok(Number.isInteger(res.json().code));
    }
    // still serving, and the memory used for all this is given back
    assert.equal((await call(PORT, '/api/health')).status, 200);
    let rss = server.rss();
    for (let i = 0; i < 20 && rss - baseline > 50 * MB; i++) {
      await sleep(250);
      rss = server.rss();
    }
    assert.ok(rss - baseline <= 50 * MB, `memory grew by ${Math.round((rss - baseline) / MB)} MB`);
  });
});
