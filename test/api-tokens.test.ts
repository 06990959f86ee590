import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { apiTokens, users } from '../src/db/schema/index.ts';
import { generateToken, isWellFormedToken } from '../src/modules/identity/index.ts';
import { register, type SignedIn } from './helpers/accounts.ts';
import { build, type TestApp } from './helpers/index.ts';
import { assertError } from './helpers/index.ts';
import { createAdmin, loginAs, type Client } from './helpers/index.ts';

interface Operation {
  method: string;
  path: string;
  auth: string;
  sessionOnly: boolean;
  perOperation: boolean;
}

const NONEXISTENT = 2147480000;

describe('personal API tokens', () => {
  let t: TestApp;
  let me: SignedIn;
  before(async () => {
    t = await build();
    me = await register(t.app);
  });
  after(async () => t.close());

  const as = (token: string) => t.withToken(token);
  async function create(owner: SignedIn | Client, scopes: string[], extra: Record<string, unknown> = {}) {
    const api = 'api' in owner ? owner.api : owner;
    const res = await api.post('/api/me/tokens', { name: `script ${scopes.join('+')}`, scopes, ...extra });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as {
      id: number;
      token: string;
      prefix: string;
      scopes: string[];
      expires_at: string;
      last_used_at: string | null;
    };
  }

  it('have a recognisable prefix and a CRC32 checksum, so a mistyped token is told apart from a real one', () => {
    const token = generateToken();
    assert.match(token, /^lgr_[0-9A-Za-z]{36}$/);
    assert.ok(isWellFormedToken(token));
    const flipped = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    assert.ok(!isWellFormedToken(flipped));
    assert.ok(!isWellFormedToken(token.slice(0, -1)));
    assert.ok(!isWellFormedToken(`ghp_${token.slice(4)}`));
    assert.notEqual(generateToken(), generateToken());
  });

  it('shows the secret once, stores only its hash, and tells when it was last used', async () => {
    const made = await create(me, ['read']);
    assert.equal(made.prefix, made.token.slice(0, 8));
    assert.equal(made.last_used_at, null);
    const days = (Date.parse(made.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 89.9 && days <= 90, `default 90 days, got ${days}`);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
    assert.equal(row!.tokenHash, createHash('sha256').update(made.token).digest('hex'));
    assert.ok(!JSON.stringify(row).includes(made.token.slice(8)), 'the secret is not stored');

    const list = (await me.api.get('/api/me/tokens')).json().list as Record<string, unknown>[];
    const listed = list.find((x) => x.id === made.id)!;
    assert.deepEqual(Object.keys(listed).sort(), [
      'created_at',
      'expires_at',
      'id',
      'last_used_at',
      'name',
      'prefix',
      'scopes',
    ]);

    const profile = await as(made.token).get('/api/me');
    assert.equal(profile.statusCode, 200, profile.body);
    assert.equal(profile.json().id, me.user.id);
    const used = (await me.api.get('/api/me/tokens')).json().list.find((x: { id: number }) => x.id === made.id);
    assert.ok(used.last_used_at, 'last use recorded');

    const short = await create(me, ['write', 'read'], { expires_in_days: 7 });
    assert.deepEqual(short.scopes, ['read', 'write']);
    assertError(await me.api.post('/api/me/tokens', { name: 'x', scopes: ['admin'] }), 400, 40001, 'unknown scope');
    assertError(await me.api.post('/api/me/tokens', { name: 'x', scopes: [] }), 400, 40001, 'no scope');
    assertError(
      await me.api.post('/api/me/tokens', { name: 'x', scopes: ['read'], expires_in_days: 366 }),
      400,
      40001,
      'too long',
    );
    assertError(await me.api.post('/api/me/tokens', { name: '   ', scopes: ['read'] }), 400, 40001, 'blank name');
  });

  it('read tokens read, write tokens write, and neither manages credentials', async () => {
    const read = as((await create(me, ['read'])).token);
    const write = as((await create(me, ['write'])).token);
    assert.equal((await read.get('/api/tags')).statusCode, 200);
    assertError(await read.post('/api/tags', { name: 'from read' }), 403, 40301, 'read cannot write');
    assert.equal((await write.post('/api/tags', { name: 'from write' })).statusCode, 201);
    assert.equal((await write.get('/api/tags')).statusCode, 200);
    for (const api of [read, write]) {
      assertError(await api.get('/api/me/tokens'), 403, 40301, 'token list');
      assertError(
        await api.post('/api/me/tokens', { name: 'child', scopes: ['write'] }),
        403,
        40301,
        'token from a token',
      );
      assertError(await api.put('/api/me/password', { new_password: 'taken over now' }), 403, 40301, 'password');
      assertError(await api.get('/api/me/sessions'), 403, 40301, 'sessions');
    }
    const download = await read.get('/api/export?startDate=2020-01-01&endDate=2030-12-31');
    assert.equal(download.statusCode, 200, 'export download with a read token');
  });

  it('is refused once revoked or expired, and for a disabled account', async () => {
    const revoked = await create(me, ['read']);
    assert.equal((await me.api.delete(`/api/me/tokens/${revoked.id}`)).statusCode, 204);
    assertError(await as(revoked.token).get('/api/me'), 401, 40101, 'revoked');
    assertError(await me.api.delete(`/api/me/tokens/${revoked.id}`), 404, 40401, 'already revoked');

    const expired = await create(me, ['read'], { expires_in_days: 1 });
    assert.equal((await as(expired.token).get('/api/me')).statusCode, 200);
    await t.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.id));
    assertError(await as(expired.token).get('/api/me'), 401, 40101, 'expired');

    assertError(await as(generateToken()).get('/api/me'), 401, 40101, 'well formed, unknown');
    assertError(await as('lgr_notatoken').get('/api/me'), 401, 40101, 'malformed');

    const other = await register(t.app);
    const theirs = await create(other, ['read']);
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, other.user.id));
    assertError(await as(theirs.token).get('/api/me'), 401, 40104, 'disabled owner');
  });

  it('holds scopes on every route of the OpenAPI document: read only GET, write every user route, never administrator or session-only ones', async () => {
    const admin = await createAdmin(t.db);
    const adminApi = t.as(admin);
    const read = (await create(adminApi, ['read'])).token;
    const write = (await create(adminApi, ['read', 'write'])).token;
    const doc = t.app.swagger() as {
      paths: Record<
        string,
        Record<string, { 'x-auth'?: string; 'x-session-only'?: boolean; 'x-scope-per-operation'?: boolean }>
      >;
    };
    const ops: Operation[] = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.entries(methods)
        .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map(([m, op]) => ({
          method: m.toUpperCase(),
          path: p,
          auth: op['x-auth'] ?? '',
          sessionOnly: op['x-session-only'] === true,
          perOperation: op['x-scope-per-operation'] === true,
        })),
    );
    assert.ok(ops.length > 60, `${ops.length} operations`);
    const sessionOnly = ops.filter((o) => o.sessionOnly).map((o) => `${o.method} ${o.path}`);
    for (const known of [
      'GET /api/me/tokens',
      'PUT /api/me/password',
      'DELETE /api/me/sessions',
      'POST /api/auth/passkeys/register/options',
      'DELETE /api/me/passkeys/{id}',
    ]) {
      assert.ok(sessionOnly.includes(known), `${known} is session-only`);
    }

    const call = (o: Operation, token: string) =>
      t.app.inject({
        method: o.method as 'GET',
        url: o.path.replace(/\{[^}]+\}/g, String(NONEXISTENT)),
        headers: {
          authorization: `Bearer ${token}`,
          ...(o.method === 'GET' ? {} : { 'content-type': 'application/json' }),
        },
        ...(o.method === 'GET' ? {} : { payload: '{}' }),
      });
    // refused for being a token (the route's own checks may refuse a plain user too, with other words)
    const refused = (status: number, body: string) =>
      status === 403 && JSON.parse(body).code === 40301 && /^API token/.test(JSON.parse(body).message);
    let checked = 0;
    for (const o of ops) {
      if (o.auth === 'public' || o.auth === 'token') continue;
      const label = `${o.method} ${o.path}`;
      // a route that applies the scope to each operation it carries is open to a read token (its own test checks
      // the rest)
      const reads = o.method === 'GET' || o.perOperation;
      for (const [name, token, allowed] of [
        ['read', read, o.auth === 'user' && !o.sessionOnly && reads],
        ['write', write, o.auth === 'user' && !o.sessionOnly],
      ] as const) {
        const res = await call(o, token);
        assert.notEqual(res.statusCode, 401, `${label} with a ${name} token: ${res.body}`);
        assert.notEqual(res.statusCode, 500, `${label} with a ${name} token: ${res.body}`);
        if (allowed)
          assert.ok(!refused(res.statusCode, res.body), `${label} should be open to a ${name} token: ${res.body}`);
        else
          assert.ok(
            refused(res.statusCode, res.body),
            `${label} should refuse a ${name} token: ${res.statusCode} ${res.body}`,
          );
        checked++;
      }
      // the same administrator's access token passes every one of those checks
      if (o.auth === 'admin') {
        const res = await call(o, (await loginAs(t.app, admin)).authorization.slice('Bearer '.length));
        assert.ok(
          res.statusCode !== 403 && res.statusCode !== 401,
          `${label} with the administrator's access token: ${res.body}`,
        );
      }
    }
    assert.ok(checked > 100, `${checked} checks`);
  });
});
