import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:net';
import { build, type TestApp } from './helpers/index.ts';

describe('client address behind a proxy', () => {
  let plain: TestApp;
  let proxied: TestApp;
  const limits = { enabled: true, global: 100, auth: 2, demo: 100 };

  before(async () => {
    plain = await build({ rateLimit: { ...limits, namespace: `plain-${process.pid}` } });
    proxied = await build(
      { rateLimit: { ...limits, namespace: `proxied-${process.pid}` }, trustProxy: 1 },
      { database: plain.testDb },
    );
  });
  after(async () => {
    await proxied.close();
    await plain.close();
  });

  // two clients behind the same proxy (10.0.0.1): only X-Forwarded-For tells them apart
  const call = (t: TestApp, client: string) =>
    t.anon.post(
      '/api/auth/refresh',
      { refresh_token: 'x' },
      { remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': client } },
    );

  it('without TRUST_PROXY, X-Forwarded-For is ignored: every client behind the proxy shares one per-IP budget', async () => {
    assert.notEqual((await call(plain, '203.0.113.1')).statusCode, 429);
    assert.notEqual((await call(plain, '203.0.113.1')).statusCode, 429);
    const third = await call(plain, '203.0.113.2');
    assert.equal(third.statusCode, 429);
    assert.equal(third.json().code, 42901);
  });

  it('with TRUST_PROXY=1, each client behind the proxy has its own budget', async () => {
    assert.notEqual((await call(proxied, '203.0.113.1')).statusCode, 429);
    assert.notEqual((await call(proxied, '203.0.113.1')).statusCode, 429);
    assert.equal((await call(proxied, '203.0.113.1')).statusCode, 429);
    assert.notEqual((await call(proxied, '203.0.113.2')).statusCode, 429);
  });

  it('sets the configured header timeout on the HTTP server', () => {
    assert.equal(plain.app.server.headersTimeout, 10_000);
    assert.equal(plain.app.server.keepAliveTimeout, 72_000);
    assert.equal(plain.app.server.requestTimeout, 60_000);
  });
});

describe('a client that sends its headers slowly', () => {
  let t: TestApp;
  before(async () => {
    t = await build({ timeouts: { requestMs: 5_000, headersMs: 1_000, keepAliveMs: 5_000, connectionMs: 0 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => t.close());

  it("is cut soon after HEADERS_TIMEOUT_MS, not at Node's 30-second check", async () => {
    const { port } = t.app.server.address() as import('node:net').AddressInfo;
    const started = Date.now();
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n'));
      // one more header line now and then, never the blank line that ends them
      const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 200);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(Date.now() - started);
      });
      socket.on('error', () => {});
      setTimeout(() => reject(new Error('still open after 10 s')), 10_000).unref();
    });
    assert.ok(closedAfter >= 900 && closedAfter < 4_000, `closed after ${closedAfter} ms`);
  });
});
