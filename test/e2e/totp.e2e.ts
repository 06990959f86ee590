// Two-step sign-in in the browser: set up by QR code on the security page (the code computed here
// from the key the page shows), the recovery codes shown once, the code step after the password,
// a recovery code instead of a code, and turning it off; in Chinese on a phone and in English on a desktop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { DESKTOP, PHONE, serverAndBrowser, signInPassword, type Tab } from './harness.ts';

const PORT = 3301;
const PASSWORD = 'correct horse battery staple';

/** the code an authenticator app shows for `secret`, `steps` 30-second steps from now */
const codeOf = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

/** Console problems other than the refusals the test asks for (a wrong code: 401 or 422). */
const realProblems = (tab: Tab) => tab.problems.filter((p) => !/status of (401|422)/.test(p));

async function fits(tab: Tab): Promise<void> {
  const overflow = await tab.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the screen fits its width (overflow ${overflow} px)`);
}

async function passwordStep(tab: Tab, username: string): Promise<void> {
  await tab.page.goto('/signin');
  const form = tab.page.getByTestId('password-form');
  await form.locator('input[name="username"]').fill(username);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
  await tab.page.getByTestId('totp-step').waitFor();
}

describe('two-step sign-in in the browser', () => {
  const live = serverAndBrowser(PORT);

  async function register(username: string): Promise<string> {
    const res = await fetch(`${live.server.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  it('sets up by QR code, shows the recovery codes once and asks the code at sign-in, on a 390 px phone in Chinese', async () => {
    const username = `totp_zh_${process.pid}`;
    await register(username);
    const phone = await live.openTab({ locale: 'zh-CN', viewport: PHONE });
    try {
      await signInPassword(phone.page, username, PASSWORD);
      await phone.page.goto('/security');
      const card = phone.page.getByTestId('totp');
      await card.getByTestId('totp-start').click();
      const secret = (await card.getByTestId('totp-secret').textContent())!.trim();
      assert.match(secret, /^[A-Z2-7]{32}$/);
      assert.ok(await card.locator('img.qr').isVisible(), 'the QR code is shown');
      assert.equal((await card.locator('h2').textContent())?.trim(), '两步验证');
      await fits(phone);

      await card.locator('input[name="totp_code"]').fill(codeOf(secret));
      await card.locator('button[type="submit"]').click();
      const codes = card.getByTestId('recovery-codes');
      await codes.waitFor();
      assert.equal(await codes.locator('li').count(), 10);
      assert.match((await codes.textContent()) ?? '', /只显示这一次/);
      await fits(phone);
      await codes.locator('button.primary').click();
      await codes.waitFor({ state: 'detached' });
      await card.getByTestId('totp-manage').waitFor();

      // a fresh browser: the password alone no longer signs in
      const other = await live.openTab({ locale: 'zh-CN', viewport: PHONE });
      try {
        await passwordStep(other, username);
        const step = other.page.getByTestId('totp-step');
        assert.equal((await step.locator('h2').textContent())?.trim(), '输入验证码');
        await fits(other);
        await step.locator('input[name="totp_code"]').fill('000000');
        await step.locator('button[type="submit"]').click();
        await other.page.getByRole('alert').filter({ hasText: '验证码错误' }).waitFor();
        // the code of the next step: the one confirming the set-up cannot be used again
        await step.locator('input[name="totp_code"]').fill(codeOf(secret, 1));
        await step.locator('button[type="submit"]').click();
        await other.page.waitForURL(/\/books/);
        assert.deepEqual(realProblems(other), []);
      } finally {
        await other.context.close();
      }
      assert.deepEqual(realProblems(phone), []);
    } finally {
      await phone.context.close();
    }
  });

  it('signs in with a recovery code and turns the factor off, on a desktop in English', async () => {
    const username = `totp_en_${process.pid}`;
    const token = await register(username);
    const call = async (path: string, body?: object) => {
      const res = await fetch(`${live.server.base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      assert.ok(res.ok, `${path}: ${res.status}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const { secret } = (await call('/api/me/totp/setup')) as { secret: string };
    const { recovery_codes } = (await call('/api/me/totp/confirm', { code: codeOf(secret, -1) })) as {
      recovery_codes: string[];
    };

    const tab = await live.openTab({ locale: 'en', viewport: DESKTOP });
    try {
      await passwordStep(tab, username);
      const step = tab.page.getByTestId('totp-step');
      assert.equal((await step.locator('h2').textContent())?.trim(), 'Enter your code');
      await step.locator('input[name="totp_code"]').fill(recovery_codes[0]!);
      await step.locator('button[type="submit"]').click();
      await tab.page.waitForURL(/\/books/);

      await tab.page.goto('/security');
      const manage = tab.page.getByTestId('totp-manage');
      await manage.waitFor();
      assert.match((await manage.textContent()) ?? '', /9 unused recovery codes/);
      await fits(tab);
      await manage.locator('input[name="totp_manage_code"]').fill(codeOf(secret));
      await manage.locator('button[type="submit"]').click();
      await tab.page.getByTestId('totp-start').waitFor();

      // off: the password signs in alone again
      const again = await live.openTab({ locale: 'en', viewport: DESKTOP });
      try {
        await signInPassword(again.page, username, PASSWORD);
      } finally {
        await again.context.close();
      }
      assert.deepEqual(realProblems(tab), []);
    } finally {
      await tab.context.close();
    }
  });
});
