import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build, createGroup, createUser, firstCategory, type TestApp } from './helpers/index.ts';

/**
 * A caller outside a group learns nothing of whether it exists: every route taking a group id
 * answers a group they are not in exactly as one that does not exist (40302, the first contract's
 * answer for a non-member).
 */
describe('a group id the caller is not in answers as a missing one', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(() => t.close());

  it('answers the same for an existing group and a missing one on every route', async () => {
    const owner = await createUser(t.db);
    const group = await createGroup(t.db, owner.id);
    const stranger = await createUser(t.db);
    const category = await firstCategory(t.db, stranger.id);
    const c = t.as(stranger);
    const missing = group.id + 100_000;
    type Call = [method: 'GET' | 'PUT' | 'POST', url: (id: number) => string, body?: (id: number) => unknown];
    const calls: Call[] = [
      ['GET', (id) => `/api/groups/${id}`],
      ['PUT', (id) => `/api/groups/${id}`, () => ({ name: 'renamed' })],
      ['POST', (id) => `/api/groups/${id}/leave`],
      ['POST', (id) => `/api/groups/${id}/dissolve`],
      ['POST', (id) => `/api/groups/${id}/refresh-code`],
      ['GET', (id) => `/api/groups/${id}/members`],
      ['POST', (id) => `/api/groups/${id}/remove-member`, () => ({ user_id: owner.id })],
      ['GET', (id) => `/api/groups/${id}/balances`],
      ['GET', (id) => `/api/groups/${id}/settlements`],
      ['GET', (id) => `/api/groups/${id}/settlements/suggested`],
      ['POST', (id) => `/api/groups/${id}/settlements`, () => ({ from: stranger.id, to: owner.id, amount: 1 })],
      ['GET', (id) => `/api/transactions?group_id=${id}`],
      [
        'POST',
        () => '/api/transactions',
        (id) => ({ kind: 'expense', amount: 1, category_id: category.id, date: '2026-11-02', group_id: id }),
      ],
      ['GET', (id) => `/api/stats/overview?group_id=${id}`],
      ['GET', (id) => `/api/stats/summary?group_id=${id}`],
      ['GET', (id) => `/api/budget?group_id=${id}`],
      ['PUT', () => '/api/budget', (id) => ({ month: '2026-11', amount: 1, group_id: id })],
      ['PUT', () => '/api/budget/mine', (id) => ({ month: '2026-11', amount: 1, group_id: id })],
      [
        'POST',
        () => '/api/notifications',
        (id) => ({ scope: 'group', group_id: id, title: 'hello', content: 'hello' }),
      ],
    ];
    for (const [method, url, body] of calls) {
      const label = `${method} ${url(0)}`;
      const existing = await c.request(method, url(group.id), body?.(group.id));
      const absent = await c.request(method, url(missing), body?.(missing));
      assert.equal(existing.statusCode, absent.statusCode, `${label}: ${existing.body} vs ${absent.body}`);
      assert.equal(existing.json().code, absent.json().code, `${label}: ${existing.body} vs ${absent.body}`);
      assert.equal(existing.statusCode, 403, `${label}: ${existing.body}`);
      assert.equal(existing.json().code, 40302, label);
    }
  });
});
