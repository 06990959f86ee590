import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { build, type Client, createAdmin, createUser, expectOk, type TestApp, testConfig } from './helpers/index.ts';

describe('errors, headers, health and config', () => {
  let t: TestApp;
  let asUser: Client;
  let asAdmin: Client;

  before(async () => {
    t = await build();
    asUser = t.as(await createUser(t.db));
    asAdmin = t.as(await createAdmin(t.db));
  });
  after(() => t.close());

  it('answers unknown /api routes with the error body, with or without a token', async () => {
    for (const api of [t.anon, asUser]) {
      const res = await api.get('/api/no-such-thing');
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 40401);
      assert.equal(typeof res.json().message, 'string');
    }
    const post = await t.anon.post('/api/transactions/1/nope', {});
    assert.equal(post.statusCode, 404);
  });

  it('answers malformed JSON with 40001 and too large bodies with 41301', async () => {
    const bad = await asUser.put('/api/me', '{"nickname": ', { headers: { 'content-type': 'application/json' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 40001);
    const big = await asUser.put('/api/me', JSON.stringify({ nickname: 'x', slogan: 'y'.repeat(1024 * 1024 + 10) }), {
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().code, 41301);
  });

  it('reports validation failures as 40001 with details', async () => {
    const res = await asUser.put('/api/me', { nickname: 42 });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 40001);
    assert.deepEqual(body.details[0].field, 'nickname');
  });

  it('checks in the contract order: authentication, then administrator role, then size, then validation', async () => {
    const huge = 'z'.repeat(2 * 1024 * 1024);
    const anon = await t.anon.put('/api/admin/config', huge, { headers: { 'content-type': 'application/json' } });
    assert.equal(anon.json().code, 40101);
    const nonAdmin = await asUser.put('/api/admin/config', huge, { headers: { 'content-type': 'application/json' } });
    assert.equal(nonAdmin.json().code, 40301);
    const invalidNonAdmin = await asUser.put('/api/admin/config', { tagline: 123 });
    assert.equal(invalidNonAdmin.json().code, 40301);
    const adminHuge = await asAdmin.put('/api/admin/config', huge, { headers: { 'content-type': 'application/json' } });
    assert.equal(adminHuge.json().code, 41301);
    const adminInvalid = await asAdmin.put('/api/admin/config', { tagline: 123 });
    assert.equal(adminInvalid.json().code, 40001);
  });

  it('answers unexpected errors with 50001 and nothing internal', async () => {
    const app = await buildApp(testConfig(), { database: t.database });
    app.get('/api/test-explode', { config: { auth: 'public' } }, async () => {
      throw new Error('secret detail at /srv/app/db.ts: relation "users" violates');
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/api/test-explode' });
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { code: 50001, message: 'internal error' });
      assert.ok(!res.body.includes('secret') && !res.body.includes('/srv'));
      assert.ok(res.headers['x-request-id']);
    } finally {
      await app.close();
    }
  });

  it('sets security and version headers on every response', async () => {
    for (const url of ['/api/health', '/api/nope', '/api/config']) {
      const res = await t.anon.get(url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(res.headers['x-app-version'], '1.0.0-test', url);
    }
  });

  it('health answers ok, and 503 when the database does not answer', async () => {
    const res = await t.anon.get('/api/health');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.status, 'ok');
    assert.equal(body.db, 'ok');
    assert.equal(body.version, '1.0.0-test');
    assert.ok(Number.isInteger(body.uptime_s));
    assert.ok(!Number.isNaN(Date.parse(body.time)));
    const broken: Database = { ...t.database, ping: async () => Promise.reject(new Error('connection refused')) };
    const app = await buildApp(testConfig(), { database: broken });
    try {
      const down = await app.inject({ method: 'GET', url: '/api/health' });
      assert.equal(down.statusCode, 503);
      assert.equal(down.json().status, 'degraded');
      assert.equal(down.json().db, 'error');
    } finally {
      await app.close();
    }
  });

  it('serves the public config seeded with the build version, editable by administrators only', async () => {
    const res = await t.anon.get('/api/config');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().app_version, '1.0.0-test');
    assert.equal(typeof res.json().tagline, 'string');
    assert.equal(typeof res.json().description, 'string');
    const denied = await asUser.put('/api/admin/config', { tagline: 'x' });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().code, 40301);
    const ok = await asAdmin.put('/api/admin/config', { tagline: 'Books together', app_version: '2.0' });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json().tagline, 'Books together');
    assert.equal((await t.anon.get('/api/config')).json().app_version, '2.0');
    const empty = await asAdmin.put('/api/admin/config', {});
    assert.equal(empty.json().code, 40001);
    // the header keeps the build version whatever the display string says
    assert.equal(ok.headers['x-app-version'], '1.0.0-test');
  });

  it('tells the client its currency and the sign-in methods on offer', async () => {
    const body = expectOk(await t.anon.get('/api/config'));
    assert.equal(body.default_currency, 'CNY');
    assert.deepEqual(body.auth_methods, ['password', 'passkey', 'wechat', 'demo']);
    assert.equal(body.registration, 'open');
    const other = await build(
      {
        wechat: { appId: null, secret: null, apiBase: 'http://127.0.0.1:9' },
        demoLogin: false,
        defaultCurrency: 'USD',
      },
      { database: t.testDb },
    );
    try {
      const res = expectOk(await other.anon.get('/api/config'));
      assert.equal(res.default_currency, 'USD');
      assert.deepEqual(res.auth_methods, ['password', 'passkey']);
    } finally {
      await other.close();
    }
  });

  it('answers cross-origin requests only for configured origins', async () => {
    const none = await t.anon.request('OPTIONS', '/api/health', undefined, {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(none.headers['access-control-allow-origin'], undefined);
    const cors = await build({ corsOrigins: ['https://app.example'] }, { database: t.testDb });
    try {
      const ok = await cors.anon.get('/api/health', { headers: { origin: 'https://app.example' } });
      assert.equal(ok.headers['access-control-allow-origin'], 'https://app.example');
      const other = await cors.anon.get('/api/health', { headers: { origin: 'https://evil.example' } });
      assert.equal(other.headers['access-control-allow-origin'], undefined);
    } finally {
      await cors.close();
    }
  });

  it('serves the OpenAPI 3.1 document and the docs page publicly', async () => {
    const res = await t.anon.get('/api/openapi.json');
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    const me = doc.paths['/api/me'].get;
    assert.ok(me.responses['200'] && me.responses['401'] && me.responses['500']);
    assert.deepEqual(me.security, [{ bearerAuth: [] }]);
    const docs = await t.anon.get('/api/docs');
    assert.ok([200, 302].includes(docs.statusCode));
  });
});
