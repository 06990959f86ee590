import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isValidDate } from '../src/lib/dates.ts';
import {
  assertError,
  build,
  createAdmin,
  createGroup,
  createTransaction,
  createUser,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe('hostile input', () => {
  let t: TestApp;
  let admin: UserRow;
  let user: UserRow;
  before(async () => {
    t = await build();
    admin = await createAdmin(t.db);
    user = await createUser(t.db);
  });
  after(async () => {
    await t.close();
  });

  it('answers text holding a NUL character with 40001, in bodies and query strings', async () => {
    const g = await createGroup(t.db, user.id);
    const tx = await createTransaction(t.db, user.id);
    const nul = 'a\u0000b';
    const cases: [UserRow, Method, string, unknown?][] = [
      [user, 'POST', '/api/groups', { name: nul }],
      [user, 'POST', '/api/feedback', { content: nul }],
      [user, 'POST', '/api/feedback', { content: 'ok', contact: nul }],
      [admin, 'POST', '/api/notifications', { scope: 'system', title: nul, content: 'x' }],
      [admin, 'POST', '/api/notifications', { scope: 'system', title: 'x', content: nul }],
      [user, 'POST', '/api/notifications', { scope: 'group', group_id: g.id, title: 'x', content: nul }],
      [
        user,
        'POST',
        '/api/transactions',
        { kind: 'expense', amount: 1, category_id: tx.categoryId, date: '2026-11-01', note: nul },
      ],
      [user, 'PUT', `/api/transactions/${tx.id}`, { note: nul }],
      [user, 'GET', '/api/transactions?keyword=a%00b'],
      [admin, 'GET', '/api/admin/users?keyword=a%00b'],
    ];
    for (const [who, method, url, body] of cases)
      assertError(await t.as(who).request(method, url, body), 400, 40001, `${method} ${url} ${JSON.stringify(body)}`);
    const [row] = (await t.as(user).get('/api/transactions')).json().list;
    assert.equal(row.note, '', 'nothing was written');
  });

  it('refuses a JSON body that is not valid UTF-8 with 40001 and writes nothing', async () => {
    const token = await t.tokenFor(user);
    const before = (await t.as(user).get('/api/groups')).json();
    // a lone surrogate (ED A0 80), a byte-order mark of UTF-16 (FF FE) and a cut sequence (E6 97)
    for (const bad of [
      [0xed, 0xa0, 0x80],
      [0xff, 0xfe],
      [0xe6, 0x97],
    ]) {
      const payload = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bad), Buffer.from('"}')]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/groups',
        payload,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      assertError(res, 400, 40001, bad.map((b) => b.toString(16)).join(' '));
      assert.match(res.json().message, /UTF-8/);
    }
    assert.deepEqual((await t.as(user).get('/api/groups')).json(), before, 'nothing was written');
    // the same body in valid UTF-8 is taken
    const ok = await t.as(user).post('/api/groups', { name: '室友' });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().name, '室友');
  });

  it('keeps the contract order around the NUL check: unknown route 404, administrator role 40301', async () => {
    assertError(await t.as(user).get('/api/no-such-route?x=%00'), 404, 40401, 'unknown route');
    assertError(
      await t.as(user).post('/api/notifications', { scope: 'system', title: 'a\u0000', content: 'x' }),
      403,
      40301,
      'non-admin',
    );
  });

  it('refuses the year 0 in transaction dates and stats anchors that reach outside the years 1 to 9999', async () => {
    assert.equal(isValidDate('0000-01-01'), false);
    assert.equal(isValidDate('0001-01-01'), true);
    const tx = await createTransaction(t.db, user.id);
    const api = t.as(user);
    assertError(
      await api.post('/api/transactions', {
        kind: 'expense',
        amount: 1,
        category_id: tx.categoryId,
        date: '0000-01-01',
      }),
      400,
      40001,
      'create',
    );
    assertError(await api.put(`/api/transactions/${tx.id}`, { date: '0000-01-01' }), 400, 40001, 'update');
    assertError(
      await api.get('/api/transactions', { query: { startDate: '0000-01-01', endDate: '0000-01-01' } }),
      400,
      40001,
      'list',
    );
    const stats = ['overview', 'category-share', 'trend', 'max', 'compare', 'summary'];
    for (const period of ['week', 'month', 'year']) {
      for (const s of stats) {
        for (const date of ['0000-01-01', '0001-06-15', '9999-12-31', '9999-01-01']) {
          assertError(
            await api.get(`/api/stats/${s}`, { query: { period, date } }),
            400,
            40001,
            `${s} ${period} ${date}`,
          );
        }
        for (const date of ['0002-01-01', '9998-12-31']) {
          const res = await api.get(`/api/stats/${s}`, { query: { period, date } });
          assert.equal(res.statusCode, 200, `${s} ${period} ${date}: ${res.body}`);
        }
      }
    }
  });
});
