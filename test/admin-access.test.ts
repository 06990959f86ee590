import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build, type Client, createAdmin, createUser, type TestApp } from './helpers/index.ts';

interface Operation {
  method: string;
  path: string;
  auth: string | undefined;
}

/** Paths that belong to administrators whatever a route declares (the download is authorized by its own token). */
const ADMIN_AREA = /^\/api\/(admin\/|backup(\/|$)|logs\/)/;
const TOKEN_ROUTES = new Set(['GET /api/backup/{id}/download']);

/**
 * Walks every operation of the whole app, as the served OpenAPI document lists them with the auth
 * mode each route declares (x-auth), so routes added by any feature are checked without listing them here.
 */
describe('administrator operations', () => {
  let t: TestApp;
  let dataDir: string;
  let ops: Operation[];
  let adminOps: Operation[];
  let asUser: Client;
  let asAdmin: Client;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-access-'));
    t = await build({ dataDir, logDir: path.join(dataDir, 'logs') });
    asUser = t.as(await createUser(t.db));
    asAdmin = t.as(await createAdmin(t.db));
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { 'x-auth'?: string }>> };
    ops = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.entries(methods)
        .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map(([m, op]) => ({ method: m.toUpperCase(), path: p, auth: op['x-auth'] })),
    );
    adminOps = ops.filter(
      (o) => o.auth === 'admin' || (ADMIN_AREA.test(o.path) && !TOKEN_ROUTES.has(`${o.method} ${o.path}`)),
    );
  });
  after(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const urlOf = (p: string) => p.replace(/\{[^}]+\}/g, '1');
  /** Any operation, with an empty JSON object as the body where it takes one. */
  const call = (o: Operation, api: Client) =>
    o.method === 'GET'
      ? api.get(urlOf(o.path))
      : api.request(o.method as 'POST', urlOf(o.path), '{}', { headers: { 'content-type': 'application/json' } });

  it('finds every operation with its declared auth mode, the known administrator ones among them', () => {
    assert.ok(ops.length > 20, `only ${ops.length} operations found`);
    for (const o of ops)
      assert.ok(
        ['public', 'user', 'admin', 'token'].includes(o.auth ?? ''),
        `${o.method} ${o.path} declares no auth mode`,
      );
    const names = new Set(adminOps.map((o) => `${o.method} ${o.path}`));
    for (const known of [
      'GET /api/admin/dashboard',
      'GET /api/admin/users',
      'DELETE /api/admin/users/{id}',
      'POST /api/admin/users/{id}/restore',
      'PUT /api/admin/users/{id}/status',
      'PUT /api/admin/users/{id}/role',
      'PUT /api/admin/config',
      'GET /api/backup',
      'POST /api/backup',
      'DELETE /api/backup/{id}',
      'GET /api/logs/files',
      'GET /api/logs/stats',
      'GET /api/logs/query',
      'GET /api/logs/track/stats',
      'GET /api/logs/track/list',
    ]) {
      assert.ok(names.has(known), `${known} is not among the administrator operations`);
    }
  });

  it('declares every route under /api/admin, /api/backup and /api/logs as admin (the download as token)', () => {
    for (const o of ops.filter((x) => ADMIN_AREA.test(x.path))) {
      const expected = TOKEN_ROUTES.has(`${o.method} ${o.path}`) ? 'token' : 'admin';
      assert.equal(o.auth, expected, `${o.method} ${o.path}`);
    }
  });

  it('refuses a signed-in non-administrator with 403 / 40301 on every administrator operation', async () => {
    for (const o of adminOps) {
      const res = await call(o, asUser);
      assert.equal(res.statusCode, 403, `${o.method} ${o.path}: ${res.body}`);
      assert.equal(res.json().code, 40301, `${o.method} ${o.path}`);
    }
  });

  it('refuses an anonymous caller with 401 / 40101 on every administrator operation', async () => {
    for (const o of adminOps) {
      const res = await call(o, t.anon);
      assert.equal(res.statusCode, 401, `${o.method} ${o.path}: ${res.body}`);
      assert.equal(res.json().code, 40101, `${o.method} ${o.path}`);
      const forged = await call(o, t.withHeaders({ authorization: 'Bearer not.a.token' }));
      assert.equal(forged.json().code, 40101, `${o.method} ${o.path}`);
    }
  });

  it('lets an administrator past the check on every one of them', async () => {
    for (const o of adminOps) {
      const res = await call(o, asAdmin);
      assert.ok(
        ![401, 403].includes(res.statusCode),
        `${o.method} ${o.path} answered ${res.statusCode} to an administrator: ${res.body}`,
      );
    }
  });

  it('authorizes token routes by their token alone', async () => {
    for (const key of TOKEN_ROUTES) {
      const [method, p] = key.split(' ') as [string, string];
      const o = { method, path: p, auth: 'token' };
      for (const api of [t.anon, asUser, asAdmin]) {
        const res = await call(o, api);
        assert.equal(res.statusCode, 401, `${key}: ${res.body}`);
        assert.equal(res.json().code, 40101);
      }
    }
  });
});
