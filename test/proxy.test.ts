import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, parseTimeouts, parseTrustProxy } from '../src/config.ts';
import { createTestApp, type TestContext } from './helpers/app.ts';

describe('TRUST_PROXY and server timeouts (configuration)', () => {
  it('reads a hop count or a list of addresses, and refuses to trust everyone', () => {
    assert.equal(parseTrustProxy(undefined), false);
    assert.equal(parseTrustProxy(''), false);
    assert.equal(parseTrustProxy('false'), false);
    assert.equal(parseTrustProxy('0'), false);
    assert.equal(parseTrustProxy('1'), 1);
    assert.deepEqual(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1'), ['10.0.0.0/8', '127.0.0.1', '::1']);
    for (const bad of ['true', 'TRUE', 'proxy.example', '10.0.0.0/33', '1.2.3', '10.0.0.1/8/2', '::1/129']) {
      assert.throws(() => parseTrustProxy(bad), ConfigError, bad);
    }
  });

  it('reads the timeouts with their defaults and refuses contradictions', () => {
    assert.deepEqual(parseTimeouts({}), { requestMs: 60_000, headersMs: 10_000, keepAliveMs: 72_000, connectionMs: 120_000 });
    assert.equal(parseTimeouts({ REQUEST_TIMEOUT_MS: '0' }).requestMs, 0);
    for (const env of [{ HEADERS_TIMEOUT_MS: '0' }, { HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' }, { KEEP_ALIVE_TIMEOUT_MS: '5s' }, { CONNECTION_TIMEOUT_MS: '10' }]) {
      assert.throws(() => parseTimeouts(env), ConfigError, JSON.stringify(env));
    }
  });
});

describe('client address behind a proxy', () => {
  let plain: TestContext;
  let proxied: TestContext;
  const limits = { enabled: true, global: 100, auth: 2, demo: 100 };

  before(async () => {
    plain = await createTestApp({ rateLimit: { ...limits, namespace: `plain-${process.pid}` } });
    proxied = await createTestApp({ rateLimit: { ...limits, namespace: `proxied-${process.pid}` }, trustProxy: 1 }, plain.testDb);
  });
  after(async () => {
    await proxied.close();
    await plain.close();
  });

  // two clients behind the same proxy (10.0.0.1): only X-Forwarded-For tells them apart
  const call = (t: TestContext, client: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: 'x' }, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': client } });

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
