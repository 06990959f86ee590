// Lasting accounts in the browser: register, sign out and in with a password, a password change
// that signs the other browser out, a passkey on Chromium's virtual authenticator, and an API
// token used by a script.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { serverAndBrowser, signInPassword, type Tab } from './harness.ts';

const PORT = 3231;
const USERNAME = `alice_${process.pid}`;
const FIRST = 'correct horse battery staple';
const SECOND = 'a different long passphrase';

async function signOut(page: Page): Promise<void> {
  await page.goto('/me');
  await page.locator('button.menuitem.danger').click();
  await page.waitForURL(/\/signin/);
}

/**
 * Console problems other than the requests refused on purpose (a weak password: 422; a wrong one or an ended session:
 * 401).
 */
const realProblems = (tab: Tab) => tab.problems.filter((p) => !/status of (401|422)/.test(p));

describe('accounts in the browser', () => {
  // passkeys need a secure context: http://localhost is one, and PUBLIC_URL names it
  const live = serverAndBrowser(PORT, { PUBLIC_URL: `http://localhost:${PORT}` }, 'localhost');
  let a: Tab;
  before(async () => {
    a = await live.openTab();
  });

  it('registers, signs out, and signs in again with the password', async () => {
    await a.page.goto('/signin');
    await a.page.getByTestId('toggle-register').click();
    const form = a.page.getByTestId('password-form');
    await form.locator('input[name="username"]').fill(USERNAME);
    await form.locator('input[name="password"]').fill('password');
    await form.locator('button[type="submit"]').click();
    await a.page
      .locator('[role="alert"]')
      .filter({ hasText: /too common/ })
      .waitFor();
    await form.locator('input[name="password"]').fill(FIRST);
    await form.locator('button[type="submit"]').click();
    await a.page.waitForURL(/\/books/);
    await signOut(a.page);

    await a.page.goto('/signin');
    const again = a.page.getByTestId('password-form');
    await again.locator('input[name="username"]').fill(USERNAME);
    await again.locator('input[name="password"]').fill('wrong password here');
    await again.locator('button[type="submit"]').click();
    await a.page
      .locator('[role="alert"]')
      .filter({ hasText: /username or password is wrong/i })
      .waitFor();
    await signInPassword(a.page, USERNAME.toUpperCase(), FIRST);
    await a.page.goto('/security');
    await a.page
      .getByTestId('failed-sign-ins')
      .filter({ hasText: /1 failed sign-in attempt/ })
      .waitFor();
  });

  it('changes the password and signs the other browser out', async () => {
    const b = await live.openTab();
    try {
      await signInPassword(b.page, USERNAME, FIRST);
      await a.page.goto('/security');
      const form = a.page.getByTestId('password-form');
      await form.locator('input[name="current_password"]').fill(FIRST);
      await form.locator('input[name="new_password"]').fill(SECOND);
      await form.locator('button[type="submit"]').click();
      await a.page.getByText(/other sessions were signed out/).waitFor();

      // the other browser's next request finds its session ended
      await b.page.goto('/books');
      await b.page.waitForURL(/\/signin/);
      // this one goes on, and the new password is the one that works
      await a.page.goto('/books');
      assert.match(a.page.url(), /\/books/);
      await signInPassword(b.page, USERNAME, SECOND);
    } finally {
      await b.context.close();
    }
  });

  it('adds a passkey with the virtual authenticator and signs in with it, without a username', async () => {
    const cdp = await a.context.newCDPSession(a.page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await a.page.goto('/security');
    const passkeys = a.page.getByTestId('passkeys');
    await passkeys.locator('input[name="passkey_name"]').fill('Test laptop');
    await passkeys.locator('button[type="submit"]').click();
    await passkeys.getByText('Test laptop').waitFor();

    await signOut(a.page);
    await a.page.getByTestId('passkey-signin').click();
    await a.page.waitForURL(/\/books/);
    await a.page.goto('/security');
    await a.page
      .getByTestId('passkeys')
      .getByText(/last used/)
      .waitFor();
  });

  it('creates an API token that a script uses with fetch', async () => {
    await a.page.goto('/security');
    const form = a.page.getByTestId('token-form');
    await form.locator('input[name="token_name"]').fill('backup script');
    await form.getByRole('radio', { name: 'Read and write' }).click();
    await form.locator('button[type="submit"]').click();
    const token = (await a.page.getByTestId('new-token').textContent())?.trim() ?? '';
    assert.match(token, /^lgr_[0-9A-Za-z]{36}$/);

    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const me = await fetch(`${live.server.base}/api/me`, { headers });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { username: string }).username, USERNAME);
    const tag = await fetch(`${live.server.base}/api/tags`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'from a script' }),
    });
    assert.equal(tag.status, 201);
    const admin = await fetch(`${live.server.base}/api/me/tokens`, { headers });
    assert.equal(admin.status, 403, 'a token cannot manage tokens');

    // the list shows it was used; revoking it stops the script
    await a.page.reload();
    const list = a.page.getByTestId('tokens');
    await list.getByText(/last used/).waitFor();
    await list.getByRole('button', { name: 'Revoke' }).click();
    await a.page.locator('#ask-form').waitFor();
    await a.page.locator('button[form="ask-form"]').click();
    await list.getByText('No API tokens.').waitFor();
    assert.equal((await fetch(`${live.server.base}/api/me`, { headers })).status, 401);
    assert.deepEqual(realProblems(a), []);
  });
});
