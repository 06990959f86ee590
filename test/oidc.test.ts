import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { oidcFlows, oidcIdentities, users } from '../src/db/schema/index.ts';
import { sha256 } from '../src/lib/tokens.ts';
import { register, signedIn, type SignedIn } from './helpers/accounts.ts';
import { assertError, build, expectOk, onPostgres, type TestApp } from './helpers/index.ts';
import { authorizeAt, startOidcProvider, type TestProvider } from './helpers/oidc-provider.ts';

const PUBLIC_URL = 'http://localhost:3200';
const REDIRECT_URI = `${PUBLIC_URL}/signin/oidc`;

describe(`OpenID Connect sign-in (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let op: TestProvider;
  let t: TestApp;
  before(async () => {
    op = await startOidcProvider({ redirectUris: [REDIRECT_URI], emails: { twin: 'shared@example.test' } });
    t = await build({
      publicUrl: PUBLIC_URL,
      oidc: {
        issuer: op.issuer,
        clientId: op.clientId,
        clientSecret: op.clientSecret,
        buttonLabel: 'Company SSO',
        allowHttp: true,
      },
    });
  });
  after(async () => {
    await t.close();
    await op.close();
  });

  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, ...(payload ? { payload } : {}), headers });

  /** A sign-in started here and carried through the provider's pages: the callback's parameters. */
  async function atProvider(login: string, opts: { cancel?: boolean } = {}) {
    const start = expectOk<{ authorization_url: string; state: string; redirect_uri: string }>(
      await post('/api/auth/oidc/start'),
    );
    assert.equal(start.redirect_uri, REDIRECT_URI);
    const url = new URL(start.authorization_url);
    assert.equal(url.origin, op.issuer);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(url.searchParams.get('nonce'));
    assert.equal(url.searchParams.get('state'), start.state);
    const params = await authorizeAt(start.authorization_url, REDIRECT_URI, login, opts);
    return { state: start.state, params: Object.fromEntries(params) as Record<string, string> };
  }

  const finish = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    post('/api/auth/oidc/callback', params, headers);

  async function signInAs(login: string): Promise<SignedIn> {
    const { params } = await atProvider(login);
    return signedIn(t.app, expectOk(await finish(params, { 'accept-language': 'zh-CN' })));
  }

  async function identitiesOf(userId: number) {
    return t.db.select().from(oidcIdentities).where(eq(oidcIdentities.userId, userId));
  }

  it('offers the provider in /api/config with its button label', async () => {
    const config = expectOk((await t.anon.get('/api/config')) as never);
    assert.ok(config.auth_methods.includes('oidc'));
    assert.equal(config.oidc_button_label, 'Company SSO');
  });

  it('signs in: the first sign-in creates an account, the next one signs into the same account', async () => {
    const first = await signInAs('alice');
    const me = expectOk((await first.api.get('/api/me')) as never);
    assert.deepEqual(me.auth_methods, ['oidc']);
    assert.equal(me.nickname, 'alice');
    // the new-user set-up ran (default categories, named in the language asked for)
    const cats = expectOk((await first.api.get('/api/categories')) as never);
    assert.ok(Array.isArray(cats.list ?? cats) && (cats.list ?? cats).length > 0);
    const [identity] = await identitiesOf(first.user.id);
    assert.equal(identity!.issuer, op.issuer);
    assert.equal(identity!.subject, 'alice');
    assert.equal(identity!.email, 'alice@example.test');

    const again = await signInAs('alice');
    assert.equal(again.user.id, first.user.id);
    assert.equal((await identitiesOf(first.user.id)).length, 1);
    // the flows were used up
    assert.equal((await t.db.select().from(oidcFlows)).length, 0);
  });

  it('links the provider from a signed-in account, lists and unlinks it (not the last way in)', async () => {
    const me = await register(t.app);
    const start = expectOk<{ authorization_url: string; state: string }>(await me.api.post('/api/me/oidc/start'));
    const params = Object.fromEntries(await authorizeAt(start.authorization_url, REDIRECT_URI, 'bob'));
    // the link's answer is not a sign-in
    assertError(await finish(params), 400, 40001);
    const again = expectOk<{ authorization_url: string }>(await me.api.post('/api/me/oidc/start'));
    const linkParams = Object.fromEntries(await authorizeAt(again.authorization_url, REDIRECT_URI, 'bob'));
    const linked = expectOk(await me.api.post('/api/me/oidc/callback', linkParams), 201);
    assert.equal(linked.issuer, op.issuer);
    assert.equal(linked.email, 'bob@example.test');
    assert.deepEqual(expectOk((await me.api.get('/api/me')) as never).auth_methods, ['password', 'oidc']);
    assert.equal(expectOk((await me.api.get('/api/me/oidc')) as never).list.length, 1);

    // signing in at the provider as bob is now this account
    assert.equal((await signInAs('bob')).user.id, me.user.id);

    // linking the same provider account again, here or elsewhere: 409
    const twice = expectOk<{ authorization_url: string }>(await me.api.post('/api/me/oidc/start'));
    const twiceParams = Object.fromEntries(await authorizeAt(twice.authorization_url, REDIRECT_URI, 'bob'));
    assertError(await me.api.post('/api/me/oidc/callback', twiceParams), 409, 40901);

    // a link started by someone else is not this person's to finish
    const other = await register(t.app);
    const theirs = expectOk<{ authorization_url: string }>(await other.api.post('/api/me/oidc/start'));
    const theirParams = Object.fromEntries(await authorizeAt(theirs.authorization_url, REDIRECT_URI, 'carol'));
    assertError(await me.api.post('/api/me/oidc/callback', theirParams), 400, 40001);

    // unlinked while the password remains; afterwards bob at the provider is a new person
    assertError(await me.api.delete('/api/me/oidc/999999'), 404, 40401);
    assert.equal((await me.api.delete(`/api/me/oidc/${linked.id}`)).statusCode, 204);
    assert.deepEqual(expectOk((await me.api.get('/api/me')) as never).auth_methods, ['password']);
    assert.notEqual((await signInAs('bob')).user.id, me.user.id);
  });

  it('refuses to unlink the last way to sign in, and to remove the password when nothing else is left', async () => {
    const dave = await signInAs('dave');
    const [identity] = await identitiesOf(dave.user.id);
    assertError(await dave.api.delete(`/api/me/oidc/${identity!.id}`), 422, 42201);
    assert.equal((await identitiesOf(dave.user.id)).length, 1);
  });

  it('refuses a wrong, reused or expired state (400 on state), never a 500', async () => {
    const { params } = await atProvider('erin');
    const wrong = await finish({ ...params, state: 'not-the-state-that-was-sent' });
    assertError(wrong, 400, 40001);
    assert.equal(wrong.json().details[0].field, 'state');
    // the right state works once only
    expectOk(await finish(params));
    assertError(await finish(params), 400, 40001);
    // a state past its ten minutes
    const late = await atProvider('erin');
    await t.db
      .update(oidcFlows)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oidcFlows.stateHash, sha256(late.state)));
    assertError(await finish(late.params), 400, 40001);
    // a malformed body
    assertError(await finish({ code: 'x' } as never), 400, 40001);
  });

  it('refuses an ID token with another nonce than the flow sent', async () => {
    const { state, params } = await atProvider('frank');
    await t.db
      .update(oidcFlows)
      .set({ nonce: 'another-nonce' })
      .where(eq(oidcFlows.stateHash, sha256(state)));
    const res = await finish(params);
    assertError(res, 401, 40103);
    assert.match(res.json().message, /nonce/);
  });

  it('refuses an expired ID token, signed by the provider with its own key', async () => {
    const before = (await t.db.select().from(users)).length;
    op.tamper((c) => ({ ...c, iat: c.iat - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }));
    try {
      const { params } = await atProvider('grace');
      const res = await finish(params);
      assertError(res, 401, 40103);
      assert.match(res.json().message, /exp/);
    } finally {
      op.tamper(null);
    }
    assert.equal((await t.db.select().from(users)).length, before, 'no account is created');
  });

  it('refuses an ID token of another issuer, signed by the provider with its own key', async () => {
    op.tamper((c) => ({ ...c, iss: 'http://127.0.0.1:9/another-issuer' }));
    try {
      const { params } = await atProvider('heidi');
      const res = await finish(params);
      assertError(res, 401, 40103);
      assert.match(res.json().message, /iss/);
    } finally {
      op.tamper(null);
    }
  });

  it("refuses the provider's error answer (access_denied) with 40103", async () => {
    const { params } = await atProvider('ivan', { cancel: true });
    assert.equal(params.error, 'access_denied');
    const res = await finish(params);
    assertError(res, 401, 40103);
    assert.equal(res.json().reason, 'access_denied');
  });

  it('never links silently by e-mail address: a provider account with the same e-mail is a new person', async () => {
    // "shared@example.test" is the e-mail of the provider's account "twin"; an account linked to an
    // account with that same address already exists here
    const owner = await register(t.app);
    await t.db.insert(oidcIdentities).values({
      userId: owner.user.id,
      issuer: 'https://elsewhere.example',
      subject: 'someone',
      email: 'shared@example.test',
    });
    const twin = await signInAs('twin');
    assert.notEqual(twin.user.id, owner.user.id);
    assert.equal((await identitiesOf(owner.user.id)).length, 1);
    const [identity] = await identitiesOf(twin.user.id);
    assert.equal(identity!.email, 'shared@example.test');
  });

  it('refuses a disabled account (40104)', async () => {
    const judy = await signInAs('judy');
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, judy.user.id));
    t.app.userState.invalidate(judy.user.id);
    const { params } = await atProvider('judy');
    assertError(await finish(params), 401, 40104);
  });
});

describe('OpenID Connect without settings', () => {
  let t: TestApp;
  before(async () => {
    t = await build({ publicUrl: PUBLIC_URL, passwordSignIn: false });
  });
  after(async () => t.close());

  it('answers as for a feature left off (40401), and offers neither it nor passwords', async () => {
    assertError(await t.app.inject({ method: 'POST', url: '/api/auth/oidc/start' }), 404, 40401);
    assertError(
      await t.app.inject({ method: 'POST', url: '/api/auth/oidc/callback', payload: { state: 'x', code: 'y' } }),
      404,
      40401,
    );
    const config = (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
    assert.ok(!config.auth_methods.includes('oidc'));
    assert.ok(!config.auth_methods.includes('password'));
    assertError(
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/password-login',
        payload: { username: 'someone', password: 'whatever it is' },
      }),
      404,
      40401,
    );
  });
});
