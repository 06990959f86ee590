import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshUsername, register, signedIn, signIn, type SignedIn } from './helpers/accounts.ts';
import { build, type TestApp } from './helpers/index.ts';
import { assertError } from './helpers/index.ts';

interface SessionItem {
  id: number;
  created_at: string;
  last_used_at: string;
  user_agent: string | null;
  ip: string | null;
  current: boolean;
}

describe('sessions', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  const refresh = (token: string, ua = 'refresher') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: token },
      headers: { 'user-agent': ua },
    });
  const sessionsOf = async (me: SignedIn) => {
    const res = await me.api.get('/api/me/sessions');
    assert.equal(res.statusCode, 200, res.body);
    return res.json().list as SessionItem[];
  };

  it('lists one session per sign-in, the current one marked, and follows refreshes within a family', async () => {
    const username = freshUsername('sess');
    const first = await register(t.app, username, undefined, { 'user-agent': 'Laptop Firefox' });
    const phone = await signIn(t.app, username, undefined, { 'user-agent': 'Phone Safari' });
    let list = await sessionsOf(first);
    assert.equal(list.length, 2);
    const mine = list.find((s) => s.current)!;
    assert.equal(mine.user_agent, 'Laptop Firefox');
    assert.equal(mine.ip, '127.0.0.1');
    assert.deepEqual(
      list.filter((s) => !s.current).map((s) => s.user_agent),
      ['Phone Safari'],
    );
    assert.deepEqual(Object.keys(mine).sort(), ['created_at', 'current', 'id', 'ip', 'last_used_at', 'user_agent']);

    // rotation keeps the family: still two sessions, the phone's last use moves on
    const rotated = await refresh(phone.refresh_token, 'Phone Safari 2');
    assert.equal(rotated.statusCode, 200, rotated.body);
    list = await sessionsOf(first);
    assert.equal(list.length, 2);
    const phoneRow = list.find((s) => !s.current)!;
    assert.equal(phoneRow.user_agent, 'Phone Safari 2');
    assert.ok(phoneRow.last_used_at >= phoneRow.created_at);
    // the new access token is of the same session
    const phone2 = signedIn(t.app, { ...rotated.json(), user: phone.user });
    assert.equal((await sessionsOf(phone2)).find((s) => s.current)!.id, phoneRow.id);
  });

  it('signs one session out: its refresh and access tokens stop working at once', async () => {
    const username = freshUsername('end');
    const me = await register(t.app, username);
    const other = await signIn(t.app, username);
    const target = (await sessionsOf(me)).find((s) => !s.current)!;
    assert.equal((await other.api.get('/api/me')).statusCode, 200);
    assert.equal((await me.api.delete(`/api/me/sessions/${target.id}`)).statusCode, 204);
    assertError(await other.api.get('/api/me'), 401, 40101, 'access token of the ended session');
    assertError(await refresh(other.refresh_token), 401, 40102, 'refresh token of the ended session');
    assertError(await me.api.delete(`/api/me/sessions/${target.id}`), 404, 40401, 'already ended');
    assert.deepEqual(
      (await sessionsOf(me)).map((s) => s.current),
      [true],
    );
    assert.equal((await me.api.get('/api/me')).statusCode, 200);
  });

  it('signs out every other session, keeping the current one', async () => {
    const username = freshUsername('others');
    const me = await register(t.app, username);
    const others = [await signIn(t.app, username), await signIn(t.app, username), await signIn(t.app, username)];
    assert.equal((await sessionsOf(me)).length, 4);
    assert.equal((await me.api.delete('/api/me/sessions')).statusCode, 204);
    for (const o of others) {
      assertError(await o.api.get('/api/me'), 401, 40101, 'other access token');
      assertError(await refresh(o.refresh_token), 401, 40102, 'other refresh token');
    }
    const left = await sessionsOf(me);
    assert.equal(left.length, 1);
    assert.ok(left[0]!.current);
    assert.equal((await refresh(me.refresh_token)).statusCode, 200);
  });

  it('ends a session at logout and drops the oldest beyond five', async () => {
    const username = freshUsername('cap');
    const me = await register(t.app, username);
    const leaving = await signIn(t.app, username);
    assert.equal(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          payload: { refresh_token: leaving.refresh_token },
        })
      ).statusCode,
      204,
    );
    assertError(await leaving.api.get('/api/me'), 401, 40101, 'signed out');
    assert.equal((await sessionsOf(me)).length, 1);
    for (let i = 0; i < 5; i++) await signIn(t.app, username);
    const list = await sessionsOf(await signIn(t.app, username));
    assert.equal(list.length, 5, 'at most five live sessions');
    assertError(await me.api.get('/api/me'), 401, 40101, 'the oldest session was dropped');
  });
});
