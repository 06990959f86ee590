import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BruteForceConfig } from '../src/config.ts';
import { createAuthService } from '../src/modules/identity/index.ts';
// the repository is the service's own dependency: recorded here to compare the statements of two paths
import * as authRepo from '../src/modules/identity/auth.repo.ts';
import { freshUsername, GOOD_PASSWORD, passwordLogin, register, signIn } from './helpers/accounts.ts';
import { assertError, build, type TestApp } from './helpers/index.ts';

const LIMIT = 10;
/** the username locks at its tenth failure; nothing slows the answers down */
const POLICY: BruteForceConfig = {
  username: { windowMs: 60_000, slowAfter: 1000, baseDelayMs: 1, maxDelayMs: 1, lockAfter: LIMIT, lockMs: 60_000 },
  ip: { windowMs: 60_000, slowAfter: 1000, baseDelayMs: 1, maxDelayMs: 1, lockAfter: 1000, lockMs: 60_000 },
};

// one app for the whole file: building one is the slow part
let t: TestApp;
before(async () => {
  t = await build({ bruteForce: POLICY });
});
after(async () => t.close());

describe('identity: sign-in lockout under concurrency', () => {
  it('checks at most the limit of 28 concurrent wrong passwords for one username; the rest are locked out (42901)', async () => {
    const username = freshUsername('race');
    await register(t.app, username);
    const answers = await Promise.all(
      Array.from({ length: 28 }, (_, i) => passwordLogin(t.app, username, `wrong password ${i}`)),
    );
    const codes = answers.map((r) => (r.json() as { code: number }).code);
    const checked = codes.filter((c) => c === 40105).length;
    const locked = codes.filter((c) => c === 42901).length;
    assert.equal(checked + locked, 28, `only 40105 and 42901: ${codes.join(',')}`);
    assert.ok(checked <= LIMIT, `${checked} wrong passwords were checked; the limit is ${LIMIT}`);
    assert.ok(locked >= 28 - LIMIT, `${locked} answered 42901`);
    assertError(
      await passwordLogin(t.app, username, GOOD_PASSWORD),
      429,
      42901,
      'locked, even with the right password',
    );
  });

  it('gives the address its attempt back after a success, so that sign-ins do not lock it', async () => {
    const strict: BruteForceConfig = { ...POLICY, ip: { ...POLICY.ip, lockAfter: 3 } };
    const t2 = await build({ bruteForce: strict }, { database: t.testDb });
    try {
      const username = freshUsername('ipok');
      await register(t2.app, username);
      for (let i = 0; i < 5; i++) await signIn(t2.app, username);
    } finally {
      await t2.close();
    }
  });
});

describe('identity: a wrong password and an unknown username do the same work', () => {
  it('runs the same repository statements, and the failure is counted for a known user only', async () => {
    const username = freshUsername('same');
    const me = await register(t.app, username);
    const calls: string[] = [];
    const recorded = new Proxy(authRepo, {
      get(target, prop: string) {
        const value = (target as Record<string, unknown>)[prop];
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(prop);
          return (value as (...a: unknown[]) => unknown)(...args);
        };
      },
    }) as typeof authRepo;
    const service = createAuthService({
      db: t.db,
      tokens: t.app.tokens,
      provider: { resolve: async () => assert.fail('not used') },
      hasher: {
        hash: async () => 'x',
        verify: async () => false,
        verifyNothing: async () => false,
        needsRehash: () => false,
      } as never,
      guard: { assertOpen: async () => {}, attempt: async () => 0, failed: async () => 0, succeeded: async () => {} },
      config: t.app.config,
      onUserChanged: () => {},
      clock: t.app.clock,
      repo: recorded,
    });
    const client = { userAgent: null, ip: '10.1.1.1' };
    const statementsOf = async (name: string) => {
      calls.length = 0;
      await assert.rejects(
        service.passwordLogin({ username: name, password: 'wrong password' }, client),
        (err: { code?: number }) => err.code === 40105,
      );
      return [...calls];
    };
    const known = await statementsOf(username);
    const unknown = await statementsOf(`${username}_nobody`);
    assert.deepEqual(unknown, known);
    assert.ok(known.includes('countFailedSignIn'), `the failure is written: ${known.join(', ')}`);
    // the known user's counter moved (twice: once here, the unknown name changed nothing)
    await statementsOf(username.toUpperCase());
    const profile = (await me.api.get('/api/me')).json() as { failed_sign_ins: number };
    assert.equal(profile.failed_sign_ins, 2);
  });
});

describe('identity: blank passwords', () => {
  const BLANKS = [' '.repeat(8), '\t'.repeat(10), '\u3000'.repeat(9), ' \u00a0 \u2003 \n  '];

  it('refuses a password of white space only at registration (42201 on password)', async () => {
    for (const password of BLANKS) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { username: freshUsername('blank'), password },
      });
      assertError(res, 422, 42201, JSON.stringify(password));
      assert.equal(res.json().details?.[0]?.field, 'password');
      assert.equal(res.json().reason, 'too_short');
    }
  });

  it('refuses it as a new password (42201 on new_password)', async () => {
    const me = await register(t.app, freshUsername('blank'));
    for (const password of BLANKS) {
      const res = await me.api.put('/api/me/password', { current_password: GOOD_PASSWORD, new_password: password });
      assertError(res, 422, 42201, JSON.stringify(password));
      assert.equal(res.json().details?.[0]?.field, 'new_password');
    }
  });

  it('still accepts a passphrase with spaces in it', async () => {
    await register(t.app, freshUsername('spaced'), '  a long   passphrase  ');
  });
});

describe('identity: sign out everywhere', () => {
  it('a password change signs the other sessions out but keeps API tokens', async () => {
    const username = freshUsername('keep');
    const me = await register(t.app, username);
    const other = await signIn(t.app, username);
    const token = (await me.api.post('/api/me/tokens', { name: 'script', scopes: ['read'] })).json().token as string;
    assert.equal(
      (
        await me.api.put('/api/me/password', {
          current_password: GOOD_PASSWORD,
          new_password: 'another good passphrase',
        })
      ).statusCode,
      204,
    );
    assertError(await other.api.get('/api/me'), 401, 40101, 'the other session ended');
    assert.equal((await me.api.get('/api/me')).statusCode, 200, 'the current session goes on');
    const byToken = await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    assert.equal(byToken.statusCode, 200, 'the API token still works');
  });

  it('DELETE /api/me/sessions?everywhere=true ends every session, the current one too, and revokes every API token', async () => {
    const username = freshUsername('everywhere');
    const me = await register(t.app, username);
    const other = await signIn(t.app, username);
    const tokens = [];
    for (const name of ['one', 'two'])
      tokens.push((await me.api.post('/api/me/tokens', { name, scopes: ['read', 'write'] })).json().token as string);
    const bystander = await register(t.app, freshUsername('bystander'));
    const theirs = (await bystander.api.post('/api/me/tokens', { name: 'kept', scopes: ['read'] })).json()
      .token as string;

    const res = await me.api.delete('/api/me/sessions?everywhere=true');
    assert.equal(res.statusCode, 204, res.body);

    assertError(await me.api.get('/api/me'), 401, 40101, 'the current session ended');
    assertError(await other.api.get('/api/me'), 401, 40101, 'the other session ended');
    for (const token of tokens)
      assertError(
        await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } }),
        401,
        40101,
        'token revoked',
      );
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: me.refresh_token },
    });
    assert.equal(refresh.statusCode, 401, 'the refresh token is dead');
    assert.equal(
      (await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${theirs}` } })).statusCode,
      200,
      "another user's token is untouched",
    );
    assert.equal((await bystander.api.get('/api/me')).statusCode, 200);

    // signing in again works, with nothing left of before
    const again = await signIn(t.app, username);
    assert.deepEqual((await again.api.get('/api/me/tokens')).json().list, []);
    assert.equal((await again.api.get('/api/me/sessions')).json().list.length, 1);
  });

  it('without everywhere, keeps the current session and the tokens (as before)', async () => {
    const username = freshUsername('others');
    const me = await register(t.app, username);
    const other = await signIn(t.app, username);
    const token = (await me.api.post('/api/me/tokens', { name: 'script', scopes: ['read'] })).json().token as string;
    assert.equal((await me.api.delete('/api/me/sessions?everywhere=false')).statusCode, 204);
    assert.equal((await me.api.get('/api/me')).statusCode, 200);
    assertError(await other.api.get('/api/me'), 401, 40101);
    assert.equal(
      (await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode,
      200,
    );
  });

  it('refuses an API token calling it (40301) and a bad everywhere value (40001)', async () => {
    const me = await register(t.app, freshUsername('guard'));
    const token = (await me.api.post('/api/me/tokens', { name: 'script', scopes: ['read', 'write'] })).json()
      .token as string;
    assertError(
      await t.app.inject({
        method: 'DELETE',
        url: '/api/me/sessions?everywhere=true',
        headers: { authorization: `Bearer ${token}` },
      }),
      403,
      40301,
    );
    assertError(await me.api.delete('/api/me/sessions?everywhere=maybe'), 400, 40001);
  });
});

describe('identity: OpenAPI declares every 401', () => {
  it('declares 401 with the error schema on the public routes that answer it', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    for (const path of [
      '/api/auth/password-login',
      '/api/auth/passkeys/login/verify',
      '/api/auth/login',
      '/api/auth/refresh',
      '/api/auth/logout',
    ]) {
      const r401 = doc.paths[path]?.post?.responses['401'];
      assert.ok(r401, `${path} declares 401`);
      assert.ok(r401.content, `${path}: 401 has a body schema`);
    }
    assert.ok(doc.paths['/api/me/password']?.put?.responses['401'], 'a signed-in route declares 401');
    const everywhere = doc.paths['/api/me/sessions']?.delete as unknown as {
      parameters?: { name: string }[];
      description?: string;
    };
    assert.ok(everywhere.parameters?.some((p) => p.name === 'everywhere'));
    assert.match(everywhere.description ?? '', /API token/);
  });
});
