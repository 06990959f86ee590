import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { Secret, TOTP, URI } from 'otpauth';
import { recoveryCodes, totpFactors, users } from '../src/db/schema/index.ts';
import { DEFAULT_BRUTE_FORCE } from '../src/config.ts';
import { cliCommands } from '../src/modules/cli-commands.ts';
import { freshUsername, GOOD_PASSWORD, passwordLogin, register, signedIn, type SignedIn } from './helpers/accounts.ts';
import { assertError, build, type TestApp } from './helpers/index.ts';
import { SoftAuthenticator } from './helpers/webauthn.ts';

const ORIGIN = 'http://localhost:3200';
const STEP_MS = 30_000;

/** the code an authenticator app shows for `secret`, `steps` steps away from now */
function codeOf(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * STEP_MS });
}

describe('TOTP second factor', () => {
  let t: TestApp;
  before(async () => {
    t = await build({
      publicUrl: ORIGIN,
      requireAdminTotp: true,
      // three wrong codes lock, without the slowed answers of the real policy
      bruteForce: {
        username: { windowMs: 60_000, slowAfter: 100, baseDelayMs: 1, maxDelayMs: 1, lockAfter: 3, lockMs: 60_000 },
        ip: DEFAULT_BRUTE_FORCE.ip,
      },
    });
  });
  after(async () => t.close());

  const post = (url: string, payload?: object) => t.app.inject({ method: 'POST', url, payload });

  /** waits for a fresh 30-second step when this one is nearly over: a test's codes stay of the steps it meant */
  async function freshStep(): Promise<void> {
    const left = STEP_MS - (Date.now() % STEP_MS);
    if (left < 8000) await new Promise((r) => setTimeout(r, left + 50));
  }

  async function person(): Promise<SignedIn & { username: string }> {
    const username = freshUsername('totp');
    return { ...(await register(t.app, username)), username };
  }

  /** sets the factor up and confirms it; answers the secret and the recovery codes */
  async function enable(me: SignedIn) {
    const setup = await me.api.post('/api/me/totp/setup');
    assert.equal(setup.statusCode, 200, setup.body);
    const { secret } = setup.json() as { secret: string };
    const confirmed = await me.api.post('/api/me/totp/confirm', { code: codeOf(secret, -1) });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    return { secret, recovery: confirmed.json().recovery_codes as string[] };
  }

  async function ticketFor(username: string): Promise<string> {
    const res = await passwordLogin(t.app, username);
    assert.equal(res.statusCode, 202, res.body);
    const body = res.json();
    assert.equal(body.second_factor, 'totp');
    assert.equal(body.access_token, undefined, 'no tokens before the code');
    return body.ticket;
  }

  it('sets up by QR code, stores the secret encrypted, and asks nothing until the first code confirms it', async () => {
    const me = await person();
    assert.deepEqual((await me.api.get('/api/me/totp')).json(), {
      enabled: false,
      pending: false,
      confirmed_at: null,
      recovery_codes_left: 0,
      required: false,
    });
    const setup = (await me.api.post('/api/me/totp/setup')).json();
    assert.match(setup.secret, /^[A-Z2-7]{32}$/);
    const parsed = URI.parse(setup.uri) as TOTP;
    assert.equal(parsed.secret.base32, setup.secret);
    assert.equal(parsed.issuer, 'Ledger');
    assert.equal(parsed.label, me.username);
    assert.match(setup.qr_image, /^data:image\/svg\+xml;base64,/);
    assert.match(Buffer.from(setup.qr_image.split(',')[1], 'base64').toString(), /<svg/);

    const [row] = await t.db.select().from(totpFactors).where(eq(totpFactors.userId, me.user.id));
    assert.match(row!.secret, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.ok(!row!.secret.includes(setup.secret), 'not stored in the clear');
    assert.equal(row!.confirmedAt, null);

    // pending: the password sign-in completes as before
    const before = await passwordLogin(t.app, me.username);
    assert.equal(before.statusCode, 200, before.body);
    assert.ok(before.json().access_token);
    assert.equal((await me.api.get('/api/me/totp')).json().pending, true);

    assertError(await me.api.post('/api/me/totp/confirm', { code: '000000' }), 422, 42201, 'a wrong first code');
    const confirmed = await me.api.post('/api/me/totp/confirm', { code: codeOf(setup.secret) });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    const codes = confirmed.json().recovery_codes as string[];
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const c of codes) assert.match(c, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.user.id));
    assert.equal(stored.length, 10);
    for (const r of stored) assert.ok(!codes.some((c) => r.codeHash.includes(c.replace('-', ''))), 'hashed');
    const status = (await me.api.get('/api/me/totp')).json();
    assert.equal(status.enabled, true);
    assert.equal(status.recovery_codes_left, 10);
    assertError(await me.api.post('/api/me/totp/setup'), 409, 40901, 'a confirmed factor is not replaced');
  });

  it('signs in with the password, then the ticket and a code, with the same answer a sign-in gives', async () => {
    const me = await person();
    const { secret } = await enable(me);
    const ticket = await ticketFor(me.username);
    assertError(await post('/api/auth/totp/verify', { ticket: 'not-a-ticket', code: codeOf(secret) }), 401, 40108);
    const res = await post('/api/auth/totp/verify', { ticket, code: codeOf(secret) });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.user.id, me.user.id);
    assert.equal(body.expires_in, 7200);
    assert.match(res.headers['set-cookie'] as string, /ledger_page=/);
    assert.equal((await signedIn(t.app, body).api.get('/api/me')).json().id, me.user.id);
    assert.equal((await post('/api/auth/refresh', { refresh_token: body.refresh_token })).statusCode, 200);
  });

  it('accepts a code one step off, and refuses an accepted code or an earlier one again', async () => {
    await freshStep();
    const me = await person();
    const { secret } = await enable(me);
    // the set-up's code was of the step before: the current step is still free, the earlier ones not
    const ticket = await ticketFor(me.username);
    assertError(await post('/api/auth/totp/verify', { ticket, code: codeOf(secret, -1) }), 401, 40107, 'replayed');
    assertError(await post('/api/auth/totp/verify', { ticket, code: codeOf(secret, -3) }), 401, 40107, 'too old');
    const ahead = codeOf(secret, 1);
    assert.equal((await post('/api/auth/totp/verify', { ticket, code: ahead })).statusCode, 200, 'a step ahead');
    const again = await post('/api/auth/totp/verify', { ticket: await ticketFor(me.username), code: ahead });
    assertError(again, 401, 40107, 'the same code twice');
    assertError(
      await post('/api/auth/totp/verify', { ticket, code: codeOf(secret) }),
      401,
      40107,
      'a step before the last accepted one',
    );
  });

  it('takes one code once also when two sign-ins send it at the same moment', async () => {
    await freshStep();
    const me = await person();
    const { secret } = await enable(me);
    const [a, b] = [await ticketFor(me.username), await ticketFor(me.username)];
    const code = codeOf(secret, 1);
    const answers = await Promise.all([
      post('/api/auth/totp/verify', { ticket: a, code }),
      post('/api/auth/totp/verify', { ticket: b, code }),
    ]);
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 401], answers.map((r) => r.body).join(' | '));
  });

  it('counts wrong codes with the lockout, which a correct password does not clear', async () => {
    const me = await person();
    const { secret } = await enable(me);
    for (let i = 0; i < 3; i++) {
      const ticket = await ticketFor(me.username);
      assertError(await post('/api/auth/totp/verify', { ticket, code: '000000' }), 401, 40107, `wrong code ${i}`);
    }
    const ticket = await ticketFor(me.username);
    const locked = await post('/api/auth/totp/verify', { ticket, code: codeOf(secret, 1) });
    assertError(locked, 429, 42901, 'locked: even a right code waits');
    assert.ok(Number(locked.headers['retry-after']) > 0);
    // the failures are shown to the owner like failed passwords
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    assert.ok(row!.failedSignIns >= 3);
  });

  it('takes each recovery code once, instead of a code; new codes replace the old', async () => {
    const me = await person();
    const { secret, recovery } = await enable(me);
    const first = await post('/api/auth/totp/verify', {
      ticket: await ticketFor(me.username),
      code: recovery[0]!.toUpperCase().replace('-', ' '),
    });
    assert.equal(first.statusCode, 200, first.body);
    const reused = await post('/api/auth/totp/verify', { ticket: await ticketFor(me.username), code: recovery[0]! });
    assertError(reused, 401, 40107, 'a recovery code works once');
    assert.equal((await me.api.get('/api/me/totp')).json().recovery_codes_left, 9);

    assertError(await me.api.post('/api/me/totp/recovery-codes', { code: '123456' }), 422, 42201);
    const fresh = await me.api.post('/api/me/totp/recovery-codes', { code: codeOf(secret) });
    assert.equal(fresh.statusCode, 200, fresh.body);
    const renewed = fresh.json().recovery_codes as string[];
    assert.equal(renewed.length, 10);
    assert.equal((await me.api.get('/api/me/totp')).json().recovery_codes_left, 10);
    const old = await post('/api/auth/totp/verify', { ticket: await ticketFor(me.username), code: recovery[1]! });
    assertError(old, 401, 40107, 'the old codes stop working');
    const ok = await post('/api/auth/totp/verify', { ticket: await ticketFor(me.username), code: renewed[3]! });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('turns off only with a current code; then the password signs in alone again', async () => {
    const me = await person();
    const { secret } = await enable(me);
    assertError(await me.api.post('/api/me/totp/disable', {}), 400, 40001, 'no code');
    assertError(await me.api.post('/api/me/totp/disable', { code: '999999' }), 422, 42201, 'a wrong code');
    const ticket = await ticketFor(me.username);
    const off = await me.api.post('/api/me/totp/disable', { code: codeOf(secret, 1) });
    assert.equal(off.statusCode, 204, off.body);
    assertError(await post('/api/auth/totp/verify', { ticket, code: codeOf(secret, 1) }), 401, 40108, 'no factor now');
    assert.equal((await passwordLogin(t.app, me.username, GOOD_PASSWORD)).statusCode, 200);
    assert.equal((await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.user.id))).length, 0);
  });

  it('lets the operator turn the factor off from the command line, for one who lost phone and codes', async () => {
    const me = await person();
    await enable(me);
    const reset = cliCommands.find((c) => c.name === 'user:totp-reset')!;
    const quiet = { log: console.log, error: console.error };
    console.log = console.error = () => {};
    try {
      assert.equal(await reset.run(t.database, ['x'], t.app.config), 1, 'not an id');
      assert.equal(await reset.run(t.database, ['2147483646'], t.app.config), 1, 'no such user');
      assert.equal(await reset.run(t.database, [String(me.user.id)], t.app.config), 0);
    } finally {
      Object.assign(console, quiet);
    }
    assert.equal((await passwordLogin(t.app, me.username)).statusCode, 200, 'the password alone signs in');
    assert.equal((await me.api.get('/api/me/totp')).json().enabled, false);
  });

  it('asks no code after a passkey sign-in: the passkey counts as both factors', async () => {
    const me = await person();
    await enable(me);
    const auth = new SoftAuthenticator(ORIGIN);
    const options = (await me.api.post('/api/auth/passkeys/register/options')).json();
    const added = await me.api.post('/api/auth/passkeys/register/verify', { credential: auth.create(options) });
    assert.equal(added.statusCode, 201, added.body);
    const lo = (await post('/api/auth/passkeys/login/options')).json();
    const res = await post('/api/auth/passkeys/login/verify', { credential: auth.get(lo) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().user.id, me.user.id);
    assert.ok(res.json().access_token);
  });

  it('REQUIRE_ADMIN_TOTP: an administrator signs in to set it up, and administrator routes wait for it', async () => {
    const admin = await person();
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id));
    t.app.userState.invalidate(admin.user.id);
    const signedInAdmin = signedIn(t.app, (await passwordLogin(t.app, admin.username)).json());
    assert.equal((await signedInAdmin.api.get('/api/me/totp')).json().required, true);
    assertError(await signedInAdmin.api.get('/api/admin/users'), 403, 40303, 'no factor yet');
    const plain = await person();
    assertError(await plain.api.get('/api/admin/users'), 403, 40301, 'a non-administrator is refused as ever');
    assert.equal((await plain.api.get('/api/me/totp')).json().required, false);

    const { secret } = await enable(signedInAdmin);
    assert.equal((await signedInAdmin.api.get('/api/admin/users')).statusCode, 200, 'with the factor confirmed');
    const res = await post('/api/auth/totp/verify', { ticket: await ticketFor(admin.username), code: codeOf(secret) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().user.role, 'admin');
  });
});
