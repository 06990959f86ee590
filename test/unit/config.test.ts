import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseRateLimits, parseTimeouts, parseTrustProxy } from '../../src/config.ts';

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
    assert.deepEqual(parseTimeouts({}), {
      requestMs: 60_000,
      headersMs: 10_000,
      keepAliveMs: 72_000,
      connectionMs: 120_000,
    });
    assert.equal(parseTimeouts({ REQUEST_TIMEOUT_MS: '0' }).requestMs, 0);
    for (const env of [
      { HEADERS_TIMEOUT_MS: '0' },
      { HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' },
      { KEEP_ALIVE_TIMEOUT_MS: '5s' },
      { CONNECTION_TIMEOUT_MS: '10' },
    ]) {
      assert.throws(() => parseTimeouts(env), ConfigError, JSON.stringify(env));
    }
  });

  it('reads the rate limits and their window, with the defaults of the contract', () => {
    assert.deepEqual(parseRateLimits({}), { enabled: true, global: 600, auth: 30, demo: 5, windowMs: 60_000 });
    assert.deepEqual(
      parseRateLimits({
        RATE_LIMIT: '1200',
        RATE_LIMIT_AUTH: '60',
        RATE_LIMIT_DEMO: '2',
        RATE_LIMIT_WINDOW_MS: '30000',
      }),
      {
        enabled: true,
        global: 1200,
        auth: 60,
        demo: 2,
        windowMs: 30_000,
      },
    );
    for (const env of [
      { RATE_LIMIT: '0' },
      { RATE_LIMIT: '-5' },
      { RATE_LIMIT_AUTH: '1e3' },
      { RATE_LIMIT_DEMO: 'many' },
      { RATE_LIMIT_WINDOW_MS: '0' },
      { RATE_LIMIT_WINDOW_MS: '10' },
    ]) {
      assert.throws(() => parseRateLimits(env), ConfigError, JSON.stringify(env));
    }
  });
});
