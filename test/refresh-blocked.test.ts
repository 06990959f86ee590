import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build, type Client, createAdmin, type TestApp } from './helpers/index.ts';

/**
 * Disabling or deleting an account revokes its refresh tokens; a refresh with one of them still
 * answers 40104 (account disabled or deleted), not 40102 (session expired), so that a client can
 * tell the person why they were signed out.
 */
describe('refresh of a disabled or deleted account', () => {
  let t: TestApp;
  let root: Client;

  before(async () => {
    t = await build();
    root = t.as(await createAdmin(t.db));
  });
  after(async () => t.close());

  const demo = async () => {
    const res = await t.anon.post('/api/auth/demo-login');
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { refresh_token: string; user: { id: number; nickname: string } };
  };

  it('answers 40104 after an administrator disabled the account, and works again once enabled', async () => {
    const pair = await demo();
    const off = await root.put(`/api/admin/users/${pair.user.id}/status`, { status: 'disabled' });
    assert.equal(off.statusCode, 200, off.body);
    const res = await t.anon.post('/api/auth/refresh', { refresh_token: pair.refresh_token });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 40104);
    await root.put(`/api/admin/users/${pair.user.id}/status`, { status: 'active' });
    // the token was revoked by the disabling: once enabled, it is an ended session
    assert.equal((await t.anon.post('/api/auth/refresh', { refresh_token: pair.refresh_token })).json().code, 40102);
  });

  it('answers 40104 after an administrator deleted the account', async () => {
    const pair = await demo();
    const del = await root.delete(`/api/admin/users/${pair.user.id}`, { confirmName: pair.user.nickname });
    assert.equal(del.statusCode, 204, del.body);
    const res = await t.anon.post('/api/auth/refresh', { refresh_token: pair.refresh_token });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 40104);
  });

  it('still answers 40102 for a revoked token of an active account', async () => {
    const pair = await demo();
    await t.anon.post('/api/auth/logout', { refresh_token: pair.refresh_token });
    assert.equal((await t.anon.post('/api/auth/refresh', { refresh_token: pair.refresh_token })).json().code, 40102);
  });
});
