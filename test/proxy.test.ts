import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build, type TestApp } from './helpers/index.ts';

describe('client address behind a proxy', () => {
  let plain: TestApp;
  let proxied: TestApp;
  const limits = { enabled: true, global: 100, auth: 2, demo: 100 };

  before(async () => {
    plain = await build({ rateLimit: { ...limits, namespace: `plain-${process.pid}` } });
    proxied = await build({ rateLimit: { ...limits, namespace: `proxied-${process.pid}` }, trustProxy: 1 }, { database: plain.testDb });
  });
  after(async () => {
    await proxied.close();
    await plain.close();
  });

  // two clients behind the same proxy (10.0.0.1): only X-Forwarded-For tells them apart
  const call = (t: TestApp, client: string) => t.anon.post('/api/auth/refresh', { refresh_token: 'x' }, { remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': client } });

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
