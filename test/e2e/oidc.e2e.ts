// OpenID Connect in the browser: on a server whose way in is the provider (password sign-in, the
// demo and WeChat off), the sign-in page shows the provider's button (beside the passkeys that
// PUBLIC_URL brings); it leads to the
// provider's own pages (oidc-provider's development sign-in, in this process), and back here
// signed in, the security page naming the provider as the way in. In Chinese on a 390 px phone,
// in English on a desktop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { DESKTOP, PHONE, serverAndBrowser, until, type Tab } from './harness.ts';

const PORT = 3291;
const PROVIDER_PORT = 3292;
const BASE = `http://127.0.0.1:${PORT}`;

describe('OpenID Connect sign-in in the browser', () => {
  let provider: TestProvider;
  // started before the server, which reads the provider's address from its settings
  before(async () => {
    provider = await startOidcProvider({ redirectUris: [`${BASE}/signin/oidc`], port: PROVIDER_PORT });
  });
  after(async () => provider.close());
  const live = serverAndBrowser(PORT, {
    PUBLIC_URL: BASE,
    OIDC_ISSUER: `http://127.0.0.1:${PROVIDER_PORT}`,
    OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET,
    OIDC_ALLOW_HTTP: 'true',
    PASSWORD_SIGN_IN: 'false',
    DEMO_LOGIN: 'false',
    WECHAT_APPID: '',
    WECHAT_SECRET: '',
  });

  async function signInThroughProvider(tab: Tab, login: string, label: string): Promise<void> {
    const { page } = tab;
    await page.goto('/signin');
    const button = page.getByTestId('oidc-signin');
    await button.waitFor();
    assert.equal((await button.textContent())?.trim(), label);
    assert.equal(await page.getByTestId('password-form').count(), 0, 'no password form');
    // nothing but the provider and the passkeys PUBLIC_URL brings (a person may add one once signed in)
    assert.deepEqual(
      await page.locator('section.signin button').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-testid'))),
      ['passkey-signin', 'oidc-signin'],
    );
    assert.equal(await button.getAttribute('class'), 'big primary', "the provider's button is the main one");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the sign-in page fits the screen (overflow ${overflow} px)`);

    // the provider's development pages ask for a web font this machine cannot reach: an empty one
    await tab.context.route(/fonts\.googleapis\.com/, (r) => r.fulfill({ contentType: 'text/css', body: '' }));
    await button.click();
    // the provider's own sign-in page
    await page.waitForURL(new RegExp(`^http://127\\.0\\.0\\.1:${PROVIDER_PORT}/interaction/`), {
      waitUntil: 'commit',
    });
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(`${BASE}/books`);
  }

  async function securityNamesTheProvider(tab: Tab, method: string): Promise<void> {
    const { page } = tab;
    await page.goto('/security');
    const summary = page.getByTestId('security-summary');
    await summary.waitFor();
    assert.deepEqual(
      (await summary.locator('.chip').allTextContents()).map((s) => s.trim()),
      [method],
    );
    const links = page.getByTestId('oidc-links');
    // the linked account, once the list has answered
    await until(async () => /@example\.test/.test((await links.textContent()) ?? ''), 'the linked account listed');
    // the only way in cannot be unlinked
    assert.equal(await page.getByTestId('oidc-unlink').count(), 0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the security page fits the screen (overflow ${overflow} px)`);
  }

  it('signs in with the provider on a 390 px phone in Chinese', async () => {
    const tab = await live.openTab({ locale: 'zh-CN', viewport: PHONE });
    try {
      await signInThroughProvider(tab, 'lin', '统一身份认证登录');
      await securityNamesTheProvider(tab, '统一身份认证');
      assert.deepEqual(tab.problems, []);
    } finally {
      await tab.context.close();
    }
  });

  it('signs in with the provider on a desktop in English, and again into the same account', async () => {
    const tab = await live.openTab({ locale: 'en-US', viewport: DESKTOP });
    try {
      await signInThroughProvider(tab, 'lee', 'Sign in with single sign-on');
      await securityNamesTheProvider(tab, 'Single sign-on');
      const me = async () =>
        tab.page.evaluate(async () => {
          const tokens = JSON.parse(localStorage.getItem('ledger.tokens') ?? '{}') as { access_token?: string };
          const res = await fetch('/api/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
          return ((await res.json()) as { id: number }).id;
        });
      const first = await me();
      // signed out, then in again: the provider still knows the browser, the same account opens
      await tab.page.evaluate(() => localStorage.removeItem('ledger.tokens'));
      await tab.page.goto('/signin');
      await tab.page.getByTestId('oidc-signin').click();
      await tab.page.waitForURL(`${BASE}/books`);
      assert.equal(await me(), first);
      assert.deepEqual(tab.problems, []);
    } finally {
      await tab.context.close();
    }
  });
});
