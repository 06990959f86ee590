import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { users, webauthnChallenges } from '../src/db/schema/index.ts';
import { register, signedIn, type SignedIn } from './helpers/accounts.ts';
import { build, type TestApp } from './helpers/index.ts';
import { assertError } from './helpers/index.ts';
import { SoftAuthenticator } from './helpers/webauthn.ts';

const ORIGIN = 'http://localhost:3200';

describe('passkeys', () => {
  let t: TestApp;
  before(async () => {
    t = await build({ publicUrl: ORIGIN });
  });
  after(async () => t.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });

  async function addPasskey(me: SignedIn, auth = new SoftAuthenticator(ORIGIN), name?: string) {
    const options = await me.api.post('/api/auth/passkeys/register/options');
    assert.equal(options.statusCode, 200, options.body);
    const res = await me.api.post('/api/auth/passkeys/register/verify', {
      credential: auth.create(options.json()),
      ...(name ? { name } : {}),
    });
    assert.equal(res.statusCode, 201, res.body);
    return { auth, passkey: res.json() as { id: number; name: string } };
  }

  async function loginOptions() {
    const res = await post('/api/auth/passkeys/login/options', undefined);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { challenge: string; rpId: string; allowCredentials?: unknown[] };
  }

  it('registers a passkey for a signed-in user and signs in with it, without a username', async () => {
    const me = await register(t.app);
    const options = await me.api.post('/api/auth/passkeys/register/options');
    assert.equal(options.statusCode, 200, options.body);
    const o = options.json();
    assert.equal(o.rp.id, 'localhost');
    assert.equal(o.authenticatorSelection.residentKey, 'required');
    assert.equal(o.attestation, 'none');
    const auth = new SoftAuthenticator(ORIGIN);
    const created = await me.api.post('/api/auth/passkeys/register/verify', {
      credential: auth.create(o),
      name: 'Laptop',
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().name, 'Laptop');
    const list = (await me.api.get('/api/me/passkeys')).json().list;
    assert.deepEqual(
      list.map((p: { name: string }) => p.name),
      ['Laptop'],
    );
    assert.deepEqual((await me.api.get('/api/me')).json().auth_methods, ['password', 'passkey']);

    const lo = await loginOptions();
    assert.equal(lo.rpId, 'localhost');
    assert.ok(!lo.allowCredentials?.length, 'discoverable: no credentials listed');
    const res = await post(
      '/api/auth/passkeys/login/verify',
      { credential: auth.get(lo) },
      { 'user-agent': 'passkey-browser' },
    );
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.user.id, me.user.id);
    assert.equal(body.token_type, 'Bearer');
    const profile = await signedIn(t.app, body).api.get('/api/me');
    assert.equal(profile.json().id, me.user.id);
    const again = await post('/api/auth/refresh', { refresh_token: body.refresh_token });
    assert.equal(again.statusCode, 200, again.body);
    assert.ok((await me.api.get('/api/me/passkeys')).json().list[0].last_used_at);
  });

  it('refuses a replayed sign-in answer: the challenge is single-use, also when both arrive at once', async () => {
    const me = await register(t.app);
    const { auth } = await addPasskey(me);
    const assertion = auth.get(await loginOptions());
    assert.equal((await post('/api/auth/passkeys/login/verify', { credential: assertion })).statusCode, 200);
    assertError(await post('/api/auth/passkeys/login/verify', { credential: assertion }), 401, 40106, 'replay');

    const twice = auth.get(await loginOptions());
    const results = await Promise.all(
      [0, 1, 2].map(() => post('/api/auth/passkeys/login/verify', { credential: twice })),
    );
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 401, 401], results.map((r) => r.body).join('\n'));
  });

  it('refuses a replayed registration answer and a registration answer presented for sign-in', async () => {
    const me = await register(t.app);
    const options = (await me.api.post('/api/auth/passkeys/register/options')).json();
    const auth = new SoftAuthenticator(ORIGIN);
    const credential = auth.create(options);
    assert.equal((await me.api.post('/api/auth/passkeys/register/verify', { credential })).statusCode, 201);
    assertError(
      await me.api.post('/api/auth/passkeys/register/verify', { credential }),
      400,
      40001,
      'registration replay',
    );

    // a registration challenge is not a sign-in challenge
    const regOptions = (await me.api.post('/api/auth/passkeys/register/options')).json();
    assertError(
      await post('/api/auth/passkeys/login/verify', { credential: auth.get(regOptions) }),
      401,
      40106,
      'purpose',
    );
    // nor is another user's registration challenge one's own
    const other = await register(t.app);
    const theirs = (await other.api.post('/api/auth/passkeys/register/options')).json();
    assertError(
      await me.api.post('/api/auth/passkeys/register/verify', {
        credential: new SoftAuthenticator(ORIGIN).create(theirs),
      }),
      400,
      40001,
      'foreign challenge',
    );
  });

  it('refuses an expired challenge, another origin or relying party, a bad signature and an unknown passkey', async () => {
    const me = await register(t.app);
    const { auth } = await addPasskey(me);

    const stale = await loginOptions();
    await t.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, stale.challenge));
    assertError(await post('/api/auth/passkeys/login/verify', { credential: auth.get(stale) }), 401, 40106, 'expired');

    assertError(
      await post('/api/auth/passkeys/login/verify', {
        credential: auth.get(await loginOptions(), { origin: 'https://evil.example' }),
      }),
      401,
      40106,
      'origin',
    );
    assertError(
      await post('/api/auth/passkeys/login/verify', {
        credential: auth.get(await loginOptions(), { rpId: 'evil.example' }),
      }),
      401,
      40106,
      'rp id',
    );

    const forged = auth.get(await loginOptions());
    const sig = Buffer.from(forged.response.signature, 'base64url');
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 0xff, sig.length - 1);
    forged.response.signature = sig.toString('base64url');
    assertError(await post('/api/auth/passkeys/login/verify', { credential: forged }), 401, 40106, 'signature');

    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.userHandle = Buffer.from(String(me.user.id)).toString('base64url');
    assertError(
      await post('/api/auth/passkeys/login/verify', { credential: stranger.get(await loginOptions()) }),
      401,
      40106,
      'unknown passkey',
    );

    const wrongHandle = auth.get(await loginOptions(), { userHandle: Buffer.from('999999').toString('base64url') });
    assertError(
      await post('/api/auth/passkeys/login/verify', { credential: wrongHandle }),
      401,
      40106,
      'user handle of someone else',
    );

    const badOrigin = (await me.api.post('/api/auth/passkeys/register/options')).json();
    assertError(
      await me.api.post('/api/auth/passkeys/register/verify', {
        credential: new SoftAuthenticator(ORIGIN).create(badOrigin, { origin: 'https://evil.example' }),
      }),
      400,
      40001,
      'registration origin',
    );

    assertError(
      await post('/api/auth/passkeys/login/verify', {
        credential: { id: 'x', rawId: 'x', type: 'public-key', response: {} },
      }),
      400,
      40001,
      'shape',
    );
    // still works after all that
    assert.equal(
      (await post('/api/auth/passkeys/login/verify', { credential: auth.get(await loginOptions()) })).statusCode,
      200,
    );
  });

  it('renames and removes passkeys, but never the last way to sign in; a disabled account cannot use one', async () => {
    const me = await register(t.app);
    const { passkey, auth } = await addPasskey(me, undefined, 'Phone');
    const renamed = await me.api.put(`/api/me/passkeys/${passkey.id}`, { name: '  Old phone ' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().name, 'Old phone');
    assertError(await me.api.put(`/api/me/passkeys/${passkey.id}`, { name: '   ' }), 400, 40001, 'blank name');
    assertError(
      await me.api.post('/api/auth/passkeys/register/verify', {
        credential: auth.create((await me.api.post('/api/auth/passkeys/register/options')).json()),
      }),
      409,
      40901,
      'same credential twice',
    );

    // a demo account whose only way in is a passkey keeps it
    const demo = signedIn(t.app, (await post('/api/auth/demo-login', undefined)).json());
    const { passkey: only } = await addPasskey(demo);
    const [row] = await t.db.select().from(users).where(eq(users.id, demo.user.id));
    assert.equal(row!.isDemo, false, 'a demo account with a passkey is kept');
    assertError(await demo.api.delete(`/api/me/passkeys/${only.id}`), 422, 42201, 'last method');
    assert.equal((await demo.api.get('/api/me/passkeys')).json().list.length, 1);

    // with a password left, the passkey may go
    assert.equal((await me.api.delete(`/api/me/passkeys/${passkey.id}`)).statusCode, 204);
    assertError(await me.api.delete(`/api/me/passkeys/${passkey.id}`), 404, 40401, 'gone');
    assertError(
      await post('/api/auth/passkeys/login/verify', { credential: auth.get(await loginOptions()) }),
      401,
      40106,
      'removed passkey',
    );

    const { auth: demoKey } = { auth: new SoftAuthenticator(ORIGIN) };
    await addPasskey(demo, demoKey);
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, demo.user.id));
    assertError(
      await post('/api/auth/passkeys/login/verify', { credential: demoKey.get(await loginOptions()) }),
      401,
      40104,
      'disabled',
    );
  });

  it('is not offered without PUBLIC_URL', async () => {
    const off = await build({ publicUrl: null }, { database: t.testDb });
    try {
      assertError(await off.app.inject({ method: 'POST', url: '/api/auth/passkeys/login/options' }), 404, 40401, 'off');
      assert.ok(!(await off.app.inject({ url: '/api/config' })).json().auth_methods.includes('passkey'));
    } finally {
      await off.app.close();
    }
    assert.ok((await t.app.inject({ url: '/api/config' })).json().auth_methods.includes('passkey'));
  });
});
