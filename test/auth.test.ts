import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { categories, refreshTokens, users } from '../src/db/schema/index.ts';
import { build, createUser, startFakeWechat, TEST_SECRET, type TestApp } from './helpers/index.ts';

const key = new TextEncoder().encode(TEST_SECRET);

describe('authentication', () => {
  let t: TestApp;
  let wechat: Awaited<ReturnType<typeof startFakeWechat>>;

  before(async () => {
    wechat = await startFakeWechat();
    t = await build({
      wechat: { appId: 'wx-app', secret: 'wx-secret', apiBase: wechat.base },
      adminOpenids: ['boss-openid'],
    });
  });
  after(async () => {
    await t.close();
    await wechat.close();
  });

  it('logs in through the provider over HTTP, creating the user with default categories once', async () => {
    const res = await t.anon.post('/api/auth/login', { code: 'ok-alice-openid' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 7200);
    assert.equal(body.refresh_expires_in, 2592000);
    assert.equal(body.user.role, 'user');
    assert.ok(body.user.nickname);
    assert.equal(body.user.avatar_url, null);
    const call = wechat.calls.at(-1)!;
    assert.equal(call.get('appid'), 'wx-app');
    assert.equal(call.get('secret'), 'wx-secret');
    assert.equal(call.get('js_code'), 'ok-alice-openid');
    assert.equal(call.get('grant_type'), 'authorization_code');
    const cats = await t.db.select().from(categories).where(eq(categories.userId, body.user.id));
    assert.ok(cats.some((c) => c.kind === 'expense') && cats.some((c) => c.kind === 'income'));
    const again = await t.anon.post('/api/auth/login', { code: 'ok-alice-openid' });
    assert.equal(again.json().user.id, body.user.id);
    const cats2 = await t.db.select().from(categories).where(eq(categories.userId, body.user.id));
    assert.equal(cats2.length, cats.length);
    assert.equal((await t.withToken(body.access_token).get('/api/me')).statusCode, 200);
  });

  it('makes ADMIN_OPENIDS subjects administrators', async () => {
    const res = await t.anon.post('/api/auth/login', { code: 'ok-boss-openid' });
    assert.equal(res.json().user.role, 'admin');
  });

  it('rejects malformed login codes with 40001 before calling the provider', async () => {
    const before = wechat.calls.length;
    for (const code of ['', 'a'.repeat(129), 'has space', 'semi;colon', 'ünï', 12345, null]) {
      const res = await t.anon.post('/api/auth/login', { code });
      assert.equal(res.statusCode, 400, `code ${JSON.stringify(code)}`);
      assert.equal(res.json().code, 40001);
      assert.ok(Array.isArray(res.json().details));
    }
    const missing = await t.anon.post('/api/auth/login', {});
    assert.equal(missing.json().code, 40001);
    assert.equal(missing.json().details[0].field, 'code');
    assert.equal(wechat.calls.length, before);
  });

  it('answers 40103 when the provider refuses the code and 50301 when it is down or busy', async () => {
    const refused = await t.anon.post('/api/auth/login', { code: 'expired-code' });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().code, 40103);
    for (const code of ['boom', 'busy']) {
      const down = await t.anon.post('/api/auth/login', { code });
      assert.equal(down.statusCode, 503);
      assert.equal(down.json().code, 50301);
    }
    const unreachable = await build(
      { wechat: { appId: 'a', secret: 'b', apiBase: 'http://127.0.0.1:9' } },
      { database: t.testDb },
    );
    try {
      const res = await unreachable.anon.post('/api/auth/login', { code: 'ok-x' });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().code, 50301);
    } finally {
      await unreachable.close();
    }
  });

  it('demo login creates a fresh demo user with a token pair, and can be turned off', async () => {
    const a = await t.anon.post('/api/auth/demo-login');
    const b = await t.anon.post('/api/auth/demo-login');
    assert.equal(a.statusCode, 200);
    assert.notEqual(a.json().user.id, b.json().user.id);
    const profile = await t.withToken(a.json().access_token).get('/api/me');
    assert.equal(profile.json().is_demo, true);
    const off = await build({ demoLogin: false }, { database: t.testDb });
    try {
      const res = await off.anon.post('/api/auth/demo-login');
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 40401);
    } finally {
      await off.close();
    }
  });

  it('rotates refresh tokens and detects reuse', async () => {
    const first = (await t.anon.post('/api/auth/login', { code: 'ok-rotator' })).json();
    const r1 = await t.anon.post('/api/auth/refresh', { refresh_token: first.refresh_token });
    assert.equal(r1.statusCode, 200, r1.body);
    const second = r1.json();
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.expires_in, 7200);
    assert.equal((await t.withToken(second.access_token).get('/api/me')).statusCode, 200);
    // reuse within the grace window: refused, family kept
    const reuse = await t.anon.post('/api/auth/refresh', { refresh_token: first.refresh_token });
    assert.equal(reuse.statusCode, 401);
    assert.equal(reuse.json().code, 40102);
    const r2 = await t.anon.post('/api/auth/refresh', { refresh_token: second.refresh_token });
    assert.equal(r2.statusCode, 200);
    // reuse after the grace window revokes the whole family
    await t.db
      .update(refreshTokens)
      .set({ rotatedAt: new Date(Date.now() - 120_000) })
      .where(eq(refreshTokens.family, (await familyOf(second.refresh_token))!));
    const late = await t.anon.post('/api/auth/refresh', { refresh_token: first.refresh_token });
    assert.equal(late.json().code, 40102);
    const third = r2.json();
    const afterTheft = await t.anon.post('/api/auth/refresh', { refresh_token: third.refresh_token });
    assert.equal(afterTheft.statusCode, 401);
    assert.equal(afterTheft.json().code, 40102);
  });

  async function familyOf(token: string): Promise<string | undefined> {
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    return payload.fam;
  }

  it('keeps at most 5 refresh tokens per user, evicting the oldest', async () => {
    const pairs = [];
    for (let i = 0; i < 6; i++) pairs.push((await t.anon.post('/api/auth/login', { code: 'ok-many-devices' })).json());
    const oldest = await t.anon.post('/api/auth/refresh', { refresh_token: pairs[0].refresh_token });
    assert.equal(oldest.statusCode, 401);
    assert.equal(oldest.json().code, 40102);
    for (const p of pairs.slice(1))
      assert.equal((await t.anon.post('/api/auth/refresh', { refresh_token: p.refresh_token })).statusCode, 200);
    const userId = pairs[0].user.id;
    const live = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, userId));
    assert.equal(live.filter((r) => !r.revokedAt).length, 5);
  });

  it('logout revokes the family', async () => {
    const pair = (await t.anon.post('/api/auth/login', { code: 'ok-leaver' })).json();
    const out = await t.anon.post('/api/auth/logout', { refresh_token: pair.refresh_token });
    assert.equal(out.statusCode, 204);
    assert.equal((await t.anon.post('/api/auth/refresh', { refresh_token: pair.refresh_token })).json().code, 40102);
    const bad = await t.anon.post('/api/auth/logout', { refresh_token: 'nope' });
    assert.equal(bad.json().code, 40102);
  });

  it('refuses bad refresh tokens with 40102', async () => {
    const pair = (await t.anon.post('/api/auth/login', { code: 'ok-someone' })).json();
    for (const token of ['garbage', pair.access_token, pair.refresh_token.slice(0, -2) + 'xx']) {
      const res = await t.anon.post('/api/auth/refresh', { refresh_token: token });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 40102);
    }
    const missing = await t.anon.post('/api/auth/refresh', {});
    assert.equal(missing.json().code, 40001);
  });

  describe('access tokens', () => {
    let userId: number;
    before(async () => {
      userId = (await createUser(t.db)).id;
    });
    const craft = (payload: Record<string, unknown>, opts: { alg?: string; secret?: Uint8Array; exp?: number } = {}) =>
      new SignJWT({ typ: 'access', role: 'user', ...payload })
        .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
        .setSubject(String(userId))
        .setJti('j1')
        .setIssuedAt()
        .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 60)
        .sign(opts.secret ?? key);

    it('accepts a valid token', async () => {
      assert.equal((await t.withToken(await craft({})).get('/api/me')).statusCode, 200);
    });

    it('rejects missing, malformed, alg=none, foreign-key, expired and refresh tokens with 40101', async () => {
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const body = Buffer.from(
        JSON.stringify({ sub: String(userId), typ: 'access', role: 'admin', exp: 9999999999 }),
      ).toString('base64url');
      const cases: Record<string, string | undefined> = {
        missing: undefined,
        garbage: 'Bearer not-a-token',
        'wrong scheme': `Basic ${await craft({})}`,
        'alg none': `Bearer ${header}.${body}.`,
        'other key': `Bearer ${await craft({}, { secret: new TextEncoder().encode('another-secret-another-secret-123456') })}`,
        HS512: `Bearer ${await craft({}, { alg: 'HS512' })}`,
        expired: `Bearer ${await craft({}, { exp: Math.floor(Date.now() / 1000) - 10 })}`,
        'refresh typ': `Bearer ${await craft({ typ: 'refresh', fam: 'f' })}`,
        'no typ': `Bearer ${await craft({ typ: undefined })}`,
      };
      for (const [name, authorization] of Object.entries(cases)) {
        const res = await t.withHeaders(authorization ? { authorization } : {}).get('/api/me');
        assert.equal(res.statusCode, 401, name);
        assert.equal(res.json().code, 40101, name);
      }
    });

    it('uses the role from the database, not from the token', async () => {
      const res = await t.withToken(await craft({ role: 'admin' })).put('/api/admin/config', { tagline: 'x' });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 40301);
    });
  });

  it('rejects deleted and disabled users (40104), on refresh too, at once on this process', async () => {
    const pair = (await t.anon.post('/api/auth/login', { code: 'ok-doomed' })).json();
    assert.equal((await t.withToken(pair.access_token).get('/api/me')).statusCode, 200);
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, pair.user.id));
    // a change made outside this process is seen once the cache entry expires
    t.app.userState.invalidate(pair.user.id);
    const blocked = await t.withToken(pair.access_token).get('/api/me');
    assert.equal(blocked.statusCode, 401);
    assert.equal(blocked.json().code, 40104);
    assert.equal((await t.anon.post('/api/auth/refresh', { refresh_token: pair.refresh_token })).json().code, 40104);
    assert.equal((await t.anon.post('/api/auth/login', { code: 'ok-doomed' })).json().code, 40104);
    await t.db.update(users).set({ status: 'active', deletedAt: new Date() }).where(eq(users.id, pair.user.id));
    t.app.userState.invalidate(pair.user.id);
    assert.equal((await t.withToken(pair.access_token).get('/api/me')).json().code, 40104);
  });

  it('caches the user lookup for a bounded time', async () => {
    const cached = await build({ authCacheTtlMs: 50 }, { database: t.testDb });
    try {
      const user = await createUser(t.db);
      const api = cached.as(user);
      assert.equal((await api.get('/api/me')).statusCode, 200);
      await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, user.id));
      await new Promise((r) => setTimeout(r, 80));
      assert.equal((await api.get('/api/me')).json().code, 40104);
    } finally {
      await cached.close();
    }
  });
});
