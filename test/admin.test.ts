import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { groups, refreshTokens, transactions, users } from '../src/db/schema/index.ts';
import { createAdminService } from '../src/modules/admin/admin.service.ts';
import {
  build,
  type Client,
  createAdmin,
  createFeedback,
  createGroup,
  createRefreshToken,
  createTransaction,
  createUser,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

async function liveTokens(t: TestApp, userId: number) {
  const rows = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, userId));
  return rows.filter((r) => !r.revokedAt).length;
}

describe('administration: dashboard and users', () => {
  let t: TestApp;
  let admin: UserRow;
  let chief: Client;

  before(async () => {
    t = await build();
    admin = await createAdmin(t.db, { nickname: 'Chief' });
    chief = t.as(admin);
  });
  after(async () => t.close());

  describe('dashboard', () => {
    it('counts users, transactions, groups and pending feedback, and caches the figures for a minute', async () => {
      const first = await chief.get('/api/admin/dashboard');
      assert.equal(first.statusCode, 200, first.body);
      const base = first.json();
      assert.ok(!Number.isNaN(Date.parse(base.generated_at)));

      // these changes are not seen while the cached figures are fresh
      const u1 = await createUser(t.db);
      await createUser(t.db, { status: 'disabled' });
      await createUser(t.db, { deletedAt: new Date() });
      await createUser(t.db, { createdAt: new Date(Date.now() - 3 * 86_400_000) });
      await createTransaction(t.db, u1.id);
      await createTransaction(t.db, u1.id, { createdAt: new Date(Date.now() - 3 * 86_400_000) });
      const g = await createGroup(t.db, u1.id);
      await createGroup(t.db, u1.id, { dissolvedAt: new Date() });
      await createFeedback(t.db, u1.id, { content: 'a' });
      await createFeedback(t.db, u1.id, { content: 'b', status: 'closed' });
      const cached = await chief.get('/api/admin/dashboard');
      assert.deepEqual(cached.json(), base);

      // a fresh app instance (its own cache) computes the figures again
      const other = await build({}, { database: t.testDb });
      try {
        const res = await other.as(admin).get('/api/admin/dashboard');
        const d = res.json();
        assert.equal(d.users.total, base.users.total + 4);
        assert.equal(d.users.active, base.users.active + 2);
        assert.equal(d.users.disabled, base.users.disabled + 1);
        assert.equal(d.users.deleted, base.users.deleted + 1);
        assert.equal(d.users.new_today, base.users.new_today + 3);
        assert.equal(d.users.total, d.users.active + d.users.disabled + d.users.deleted);
        assert.equal(d.transactions.total, base.transactions.total + 2);
        assert.equal(d.transactions.today, base.transactions.today + 1);
        assert.equal(d.groups.total, base.groups.total + 2);
        assert.equal(d.groups.live, base.groups.live + 1);
        assert.equal(d.feedback.pending, base.feedback.pending + 1);
        assert.ok(g.id > 0);
      } finally {
        await other.close();
      }
    });

    it('expires the cache after 60 seconds and takes "today" in APP_TIMEZONE', async () => {
      // 2001-03-01T12:00Z is already 2 March in Kiritimati (UTC+14)
      let clock = Date.parse('2001-03-01T12:00:00.000Z');
      const service = createAdminService({
        db: t.db,
        config: { appTimezone: 'Pacific/Kiritimati' },
        onUserChanged: () => {},
        clock: { now: () => new Date(clock) },
      });
      await createUser(t.db, { createdAt: new Date('2001-03-01T10:30:00.000Z') }); // 00:30 on 2 March local
      await createUser(t.db, { createdAt: new Date('2001-03-01T09:30:00.000Z') }); // 23:30 on 1 March local
      const a = await service.dashboard();
      assert.equal(a.users.new_today, 1);
      assert.equal(a.generated_at, '2001-03-01T12:00:00.000Z');
      await createUser(t.db, { createdAt: new Date('2001-03-01T11:00:00.000Z') });
      clock += 59_999;
      assert.equal((await service.dashboard()).users.new_today, 1);
      clock += 1;
      const b = await service.dashboard();
      assert.equal(b.users.new_today, 2);
      assert.equal(b.generated_at, '2001-03-01T12:01:00.000Z');
      const utc = createAdminService({
        db: t.db,
        config: { appTimezone: 'UTC' },
        onUserChanged: () => {},
        clock: { now: () => new Date(clock) },
      });
      assert.equal((await utc.dashboard()).users.new_today, 3);
    });
  });

  describe('user list', () => {
    let alice: UserRow;
    before(async () => {
      alice = await createUser(t.db, { nickname: 'Alice Wonder', slogan: 'hi', avatarUrl: '/api/avatars/x.png' });
      await createUser(t.db, { nickname: 'ALICE two', status: 'disabled' });
      await createUser(t.db, { nickname: 'alice gone', deletedAt: new Date() });
      await createUser(t.db, { nickname: '100%_real' });
      await createUser(t.db, { nickname: '100 percent real' });
    });

    it('lists users newest first with their fields', async () => {
      const res = await chief.get('/api/admin/users?pageSize=100');
      assert.equal(res.statusCode, 200, res.body);
      const { list, total } = res.json();
      assert.ok(total >= 6);
      const row = list.find((u: { id: number }) => u.id === alice.id);
      assert.deepEqual(row, {
        id: alice.id,
        nickname: 'Alice Wonder',
        avatar_url: '/api/avatars/x.png',
        slogan: 'hi',
        role: 'user',
        status: 'active',
        is_demo: false,
        created_at: alice.createdAt.toISOString(),
        deleted_at: null,
      });
      const times = list.map((u: { created_at: string }) => Date.parse(u.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a: number, b: number) => b - a),
      );
    });

    it('filters by keyword (case-insensitive, wildcards literal, or exact id) and status', async () => {
      const names = async (qs: string) =>
        ((await chief.get(`/api/admin/users?${qs}`)).json().list as { nickname: string }[])
          .map((u) => u.nickname)
          .sort();
      assert.deepEqual(await names('keyword=alice'), ['ALICE two', 'Alice Wonder', 'alice gone']);
      assert.deepEqual(await names('keyword=alice&status=active'), ['Alice Wonder']);
      assert.deepEqual(await names('keyword=alice&status=disabled'), ['ALICE two']);
      assert.deepEqual(await names('keyword=alice&status=deleted'), ['alice gone']);
      assert.deepEqual(await names('keyword=alice&status=all'), ['ALICE two', 'Alice Wonder', 'alice gone']);
      assert.deepEqual(await names(`keyword=${encodeURIComponent('0%_')}`), ['100%_real']);
      assert.deepEqual(await names('keyword=_'), ['100%_real']);
      const byId = (await chief.get(`/api/admin/users?keyword=${alice.id}&pageSize=100`)).json().list as {
        id: number;
        nickname: string;
      }[];
      assert.ok(byId.some((u) => u.id === alice.id));
      for (const u of byId) assert.ok(u.id === alice.id || u.nickname.includes(String(alice.id)));
      const res = await chief.get('/api/admin/users?keyword=alice&pageSize=2&page=2');
      assert.equal(res.json().total, 3);
      assert.equal(res.json().list.length, 1);
    });

    it('validates the query', async () => {
      for (const qs of ['status=gone', 'page=0', 'pageSize=101', 'pageSize=x', `keyword=${'k'.repeat(101)}`]) {
        const res = await chief.get(`/api/admin/users?${qs}`);
        assert.equal(res.statusCode, 400, qs);
        assert.equal(res.json().code, 40001, qs);
      }
    });
  });

  describe('soft delete and restore', () => {
    it('needs the exact nickname, revokes refresh tokens and blocks the access token at once', async () => {
      const victim = await createUser(t.db, { nickname: 'Bob Smith' });
      const victimApi = t.as(victim);
      await createRefreshToken(t.db, victim.id);
      await createRefreshToken(t.db, victim.id);
      assert.equal((await victimApi.get('/api/me')).statusCode, 200);

      for (const confirmName of ['bob smith', 'Bob Smith ', 'Bob']) {
        const res = await chief.delete(`/api/admin/users/${victim.id}`, { confirmName });
        assert.equal(res.statusCode, 422, confirmName);
        assert.equal(res.json().code, 42201);
      }
      const missing = await chief.delete(`/api/admin/users/${victim.id}`, {});
      assert.equal(missing.json().code, 40001);
      const wrongType = await chief.delete(`/api/admin/users/${victim.id}`, { confirmName: 5 });
      assert.equal(wrongType.json().code, 40001);
      assert.equal((await t.db.select().from(users).where(eq(users.id, victim.id)))[0]!.deletedAt, null);

      const ok = await chief.delete(`/api/admin/users/${victim.id}`, { confirmName: 'Bob Smith' });
      assert.equal(ok.statusCode, 204, ok.body);
      assert.equal(ok.body, '');
      const [row] = await t.db.select().from(users).where(eq(users.id, victim.id));
      assert.ok(row!.deletedAt instanceof Date);
      assert.equal(await liveTokens(t, victim.id), 0);
      const me = await victimApi.get('/api/me');
      assert.equal(me.statusCode, 401);
      assert.equal(me.json().code, 40104);

      const again = await chief.delete(`/api/admin/users/${victim.id}`, { confirmName: 'Bob Smith' });
      assert.equal(again.statusCode, 404);
      assert.equal(again.json().code, 40401);
      const none = await chief.delete('/api/admin/users/999999', { confirmName: 'x' });
      assert.equal(none.json().code, 40401);

      const restored = await chief.post(`/api/admin/users/${victim.id}/restore`);
      assert.equal(restored.statusCode, 200, restored.body);
      assert.equal(restored.json().deleted_at, null);
      assert.equal(restored.json().nickname, 'Bob Smith');
      assert.equal((await victimApi.get('/api/me')).statusCode, 200);

      const notDeleted = await chief.post(`/api/admin/users/${victim.id}/restore`);
      assert.equal(notDeleted.statusCode, 404);
      assert.equal(notDeleted.json().code, 40401);
      assert.equal((await chief.post('/api/admin/users/999999/restore')).json().code, 40401);
      assert.equal((await chief.post('/api/admin/users/abc/restore')).json().code, 40001);
    });

    it('works end to end with a real session: the refresh token dies with the account', async () => {
      const login = (await t.anon.post('/api/auth/demo-login')).json();
      const del = await chief.delete(`/api/admin/users/${login.user.id}`, { confirmName: login.user.nickname });
      assert.equal(del.statusCode, 204, del.body);
      const refresh = await t.anon.post('/api/auth/refresh', { refresh_token: login.refresh_token });
      assert.equal(refresh.statusCode, 401);
      const deletedList = (await chief.get(`/api/admin/users?status=deleted&keyword=${login.user.id}`)).json();
      // the keyword also matches other users whose nickname holds those digits
      assert.ok(
        deletedList.list.some((u: { id: number }) => u.id === login.user.id),
        JSON.stringify(deletedList),
      );
    });
  });

  describe('status and role', () => {
    it('disables (revoking refresh tokens, blocking at once) and enables an account', async () => {
      const u = await createUser(t.db, { nickname: 'Carol' });
      const userApi = t.as(u);
      await createRefreshToken(t.db, u.id);
      const off = await chief.put(`/api/admin/users/${u.id}/status`, { status: 'disabled' });
      assert.equal(off.statusCode, 200, off.body);
      assert.equal(off.json().status, 'disabled');
      assert.equal(off.json().id, u.id);
      assert.equal(await liveTokens(t, u.id), 0);
      assert.equal((await userApi.get('/api/me')).json().code, 40104);
      const on = await chief.put(`/api/admin/users/${u.id}/status`, { status: 'active' });
      assert.equal(on.json().status, 'active');
      assert.equal((await userApi.get('/api/me')).statusCode, 200);
    });

    it('answers 40401 for deleted or missing users and 40001 for bad values', async () => {
      const gone = await createUser(t.db, { deletedAt: new Date() });
      for (const [url, body] of [
        [`/api/admin/users/${gone.id}/status`, { status: 'disabled' }],
        [`/api/admin/users/${gone.id}/role`, { role: 'admin' }],
        ['/api/admin/users/999999/status', { status: 'active' }],
        ['/api/admin/users/999999/role', { role: 'user' }],
      ] as const) {
        const res = await chief.put(url, body);
        assert.equal(res.statusCode, 404, url);
        assert.equal(res.json().code, 40401, url);
      }
      const [row] = await t.db.select().from(users).where(eq(users.id, gone.id));
      assert.equal(row!.role, 'user');
      assert.equal(row!.status, 'active');
      const u = await createUser(t.db);
      for (const [url, body] of [
        [`/api/admin/users/${u.id}/status`, { status: 'deleted' }],
        [`/api/admin/users/${u.id}/status`, {}],
        [`/api/admin/users/${u.id}/role`, { role: 'root' }],
        [`/api/admin/users/${u.id}/role`, { role: ['admin'] }],
        ['/api/admin/users/0/role', { role: 'admin' }],
      ] as const) {
        const res = await chief.put(url, body);
        assert.equal(res.statusCode, 400, `${url} ${JSON.stringify(body)}`);
        assert.equal(res.json().code, 40001);
      }
    });

    it('promotes and demotes, taking effect at once', async () => {
      const u = await createUser(t.db, { nickname: 'Dave' });
      const userApi = t.as(u);
      assert.equal((await userApi.get('/api/admin/dashboard')).json().code, 40301);
      const up = await chief.put(`/api/admin/users/${u.id}/role`, { role: 'admin' });
      assert.equal(up.statusCode, 200, up.body);
      assert.equal(up.json().role, 'admin');
      assert.equal((await userApi.get('/api/admin/users')).statusCode, 200);
      const down = await chief.put(`/api/admin/users/${u.id}/role`, { role: 'user' });
      assert.equal(down.json().role, 'user');
      assert.equal((await userApi.get('/api/admin/users')).json().code, 40301);
    });
  });

  it('keeps at least one active administrator', async () => {
    const solo = await build();
    try {
      const boss = await createAdmin(solo.db, { nickname: 'Boss' });
      const api = solo.as(boss);
      const refusals = [
        await api.delete(`/api/admin/users/${boss.id}`, { confirmName: 'Boss' }),
        await api.put(`/api/admin/users/${boss.id}/status`, { status: 'disabled' }),
        await api.put(`/api/admin/users/${boss.id}/role`, { role: 'user' }),
      ];
      for (const res of refusals) {
        assert.equal(res.statusCode, 422, res.body);
        assert.equal(res.json().code, 42201);
      }
      // a disabled administrator does not count as one who can act
      const sleeper = await createAdmin(solo.db, { nickname: 'Sleeper', status: 'disabled' });
      assert.equal((await api.put(`/api/admin/users/${boss.id}/role`, { role: 'user' })).json().code, 42201);
      // demoting or deleting a disabled administrator is fine
      assert.equal((await api.put(`/api/admin/users/${sleeper.id}/role`, { role: 'user' })).statusCode, 200);
      const deputy = await createAdmin(solo.db, { nickname: 'Deputy' });
      assert.equal((await api.put(`/api/admin/users/${boss.id}/role`, { role: 'user' })).statusCode, 200);
      // now the deputy is the last one
      const self = await solo.as(deputy).delete(`/api/admin/users/${deputy.id}`, { confirmName: 'Deputy' });
      assert.equal(self.json().code, 42201);
      const [still] = await solo.db.select().from(users).where(eq(users.id, deputy.id));
      assert.equal(still!.deletedAt, null);
      assert.equal(still!.role, 'admin');
    } finally {
      await solo.close();
    }
  });

  it('counts only rows that exist: unrelated tables untouched by user changes', async () => {
    const u = await createUser(t.db, { nickname: 'Eve' });
    const tx = await createTransaction(t.db, u.id);
    const g = await createGroup(t.db, u.id);
    assert.equal((await chief.delete(`/api/admin/users/${u.id}`, { confirmName: 'Eve' })).statusCode, 204);
    // a soft delete keeps the user's data
    assert.equal((await t.db.select().from(transactions).where(eq(transactions.id, tx.id))).length, 1);
    assert.equal((await t.db.select().from(groups).where(eq(groups.id, g.id))).length, 1);
  });
});
