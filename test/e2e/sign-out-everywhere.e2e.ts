// "Sign out everywhere" in the browser: on a phone in Chinese, after a confirmation, every
// session (this one and another browser's) ends and every API token stops working.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PHONE, serverAndBrowser, signInPassword, type Tab } from './harness.ts';

const PORT = 3245;
const USERNAME = `everywhere_${process.pid}`;
const PASSWORD = 'correct horse battery staple';

/** Console problems other than the requests refused on purpose (an ended session: 401). */
const realProblems = (tab: Tab) => tab.problems.filter((p) => !/status of 401/.test(p));

describe('sign out everywhere in the browser', () => {
  const live = serverAndBrowser(PORT);

  it('ends every session and revokes API tokens, after a confirmation, on a 390 px phone in Chinese', async () => {
    const registered = await fetch(`${live.server.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: USERNAME, password: PASSWORD }),
    });
    assert.equal(registered.status, 200);
    const { access_token } = (await registered.json()) as { access_token: string };
    const made = await fetch(`${live.server.base}/api/me/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'script', scopes: ['read'] }),
    });
    assert.equal(made.status, 201);
    const { token } = (await made.json()) as { token: string };
    const tokenWorks = async () =>
      (await fetch(`${live.server.base}/api/me`, { headers: { authorization: `Bearer ${token}` } })).status;
    assert.equal(await tokenWorks(), 200);

    const phone = await live.openTab({ locale: 'zh-CN', viewport: PHONE });
    const other = await live.openTab();
    try {
      await signInPassword(phone.page, USERNAME, PASSWORD);
      await signInPassword(other.page, USERNAME, PASSWORD);
      await phone.page.goto('/security');
      const button = phone.page.getByTestId('sign-out-everywhere');
      await button.waitFor();
      assert.equal((await button.textContent())?.trim(), '退出所有设备');
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the security screen fits 390 px (overflow ${overflow} px)`);

      // cancelling the confirmation changes nothing
      await button.click();
      await phone.page.locator('#ask-form').waitFor();
      await phone.page.keyboard.press('Escape');
      await phone.page.locator('#ask-form').waitFor({ state: 'detached' });
      assert.equal(await tokenWorks(), 200);

      await button.click();
      await phone.page.locator('#ask-form').waitFor();
      await phone.page.locator('button[form="ask-form"]').click();
      await phone.page.waitForURL(/\/signin/);

      assert.equal(await tokenWorks(), 401, 'the API token is revoked');
      await other.page.goto('/books');
      await other.page.waitForURL(/\/signin/);
      // this browser is signed out too: a page that needs a session sends it back to sign-in
      await phone.page.goto('/security');
      await phone.page.waitForURL(/\/signin/);
      // and the password still signs in
      await signInPassword(phone.page, USERNAME, PASSWORD);
      assert.deepEqual(realProblems(phone), []);
      assert.deepEqual(realProblems(other), []);
    } finally {
      await phone.context.close();
      await other.context.close();
    }
  });
});
