import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { build } from './helpers/index.ts';

describe('the OpenAPI document', () => {
  it('declares JSON errors on binary routes, the 401 of refresh and logout, 413/415 only with a body, and named shared schemas', async () => {
    const t = await build();
    try {
      const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
      const op = (p: string, m: string) => doc.paths[p][m];
      for (const [p, m] of [
        ['/api/avatars/{key}', 'get'],
        ['/api/backup/{id}/download', 'get'],
        ['/api/export', 'get'],
      ] as const) {
        for (const [status, r] of Object.entries(
          op(p, m).responses as Record<string, { content?: Record<string, unknown> }>,
        )) {
          if (Number(status) >= 400)
            assert.deepEqual(Object.keys(r.content ?? {}), ['application/json'], `${p} ${status}`);
        }
      }
      for (const p of ['/api/auth/refresh', '/api/auth/logout', '/api/auth/login'])
        assert.ok(op(p, 'post').responses['401'], `${p} 401`);
      const del = op('/api/transactions/{id}', 'delete').responses;
      assert.equal(del['413'], undefined);
      assert.equal(del['415'], undefined);
      assert.ok(op('/api/transactions', 'post').responses['413']);
      assert.ok(op('/api/import', 'post').responses['415']);
      for (const status of ['503', '431']) assert.ok(op('/api/transactions', 'get').responses[status], status);
      for (const name of ['Error', 'Transaction', 'Category', 'SavedFilter'])
        assert.ok(doc.components.schemas[name], name);
      assert.equal(
        op('/api/transactions', 'post').responses['201'].content['application/json'].schema.$ref,
        '#/components/schemas/Transaction',
      );
    } finally {
      await t.close();
    }
  });
});
