import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { routePattern } from '../src/plugins/errors.ts';
import { assertError, build, createUser, type TestApp } from './helpers/index.ts';

/** one request over a real socket, whatever its method (inject refuses methods it does not know) */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('methods a path does not answer', () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await build();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it('QUERY is 405 with Allow on a path that exists, 404 on one that does not, never 500, signed in or not', async () => {
    const user = t.as(await createUser(t.db));
    for (const client of [t.anon, user]) {
      const known = await client.request('QUERY' as 'GET', '/api/transactions');
      assertError(known, 405, 40501);
      assert.equal(known.headers.allow, 'GET, HEAD, POST');
      const withType = await client.request('QUERY' as 'GET', '/api/transactions', '{', {
        headers: { 'content-type': 'application/json' },
      });
      assertError(withType, 405, 40501);
      assertError(await client.request('QUERY' as 'GET', '/api/nothing-here'), 404, 40401);
    }
  });

  it('TRACE and other methods the router knows are 405 with Allow where the path exists', async () => {
    for (const method of ['TRACE', 'OPTIONS', 'PROPFIND', 'PATCH']) {
      const res = await t.anon.request(method as 'GET', '/api/transactions/12');
      assertError(res, 405, 40501);
      assert.equal(res.headers.allow, 'DELETE, GET, HEAD, PUT', method);
      assert.deepEqual(res.json().allow, ['DELETE', 'GET', 'HEAD', 'PUT']);
    }
    const health = await t.anon.request('DELETE', '/api/health');
    assertError(health, 405, 40501);
    assert.equal(health.headers.allow, 'GET, HEAD');
    // a path that does not exist stays 404, without Allow
    const missing = await t.anon.request('TRACE' as 'GET', '/api/transactions/12/nothing');
    assertError(missing, 404, 40401);
    assert.equal(missing.headers.allow, undefined);
    // the methods a path does answer are unchanged
    assertError(await t.anon.get('/api/transactions'), 401, 40101);
    assert.equal((await t.anon.get('/api/health')).statusCode, 200);
  });

  it('over a real socket: TRACE and QUERY are 405, a method no HTTP parser knows is 400, all in the envelope', async () => {
    for (const method of ['TRACE', 'QUERY']) {
      const res = await send(port, method, '/api/me');
      assert.equal(res.status, 405, method);
      assert.match(String(res.headers.allow), /GET/);
      assert.equal(JSON.parse(res.body).code, 40501);
    }
    const nonsense = await send(port, 'FROBNICATE', '/api/me');
    assert.equal(nonsense.status, 400);
    assert.equal(JSON.parse(nonsense.body).code, 40001);
  });

  it('matches route paths as the router does', () => {
    assert.ok(routePattern('/api/transactions/:id').test('/api/transactions/12'));
    assert.ok(routePattern('/api/transactions/:id').test('/api/transactions/12/'));
    assert.ok(!routePattern('/api/transactions/:id').test('/api/transactions/12/x'));
    assert.ok(!routePattern('/api/transactions/:id').test('/api/transactions'));
    assert.ok(routePattern('/api/a.b/:x-:y').test('/api/a.b/1-2'));
    assert.ok(!routePattern('/api/a.b').test('/api/aXb'));
    assert.ok(routePattern('/files/*').test('/files/a/b/c'));
  });
});
