// Webhooks in the browser, in Chinese on a 390 px phone and in English on a desktop: add an
// endpoint (its secret shown once), send a test event, and see it delivered in the delivery log; the
// local receiver checks the signature with the Standard Webhooks library and the secret shown.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { DESKTOP, PHONE, serverAndBrowser, signInPassword } from './harness.ts';

const PORT = 3307;
const PASSWORD = 'correct horse battery staple';

describe('webhooks in the browser', () => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  let hookUrl = '';
  before(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  after(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((r) => receiver.close(() => r()));
  });
  const live = serverAndBrowser(PORT, { WEBHOOKS_ALLOW_LOOPBACK: 'true' });

  for (const [locale, viewport, texts] of [
    ['zh-CN', PHONE, { title: '网络回调', delivered: '已送达', test: '发送测试事件' }],
    ['en', DESKTOP, { title: 'Webhooks', delivered: 'Delivered', test: 'Send test event' }],
  ] as const) {
    it(`adds an endpoint, sends a test event and sees it in the delivery log (${locale})`, async () => {
      const username = `hooks_${locale.replace('-', '')}_${process.pid}`;
      const registered = await fetch(`${live.server.base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      assert.equal(registered.status, 200);
      const tab = await live.openTab({ locale, viewport });
      try {
        const { page } = tab;
        await signInPassword(page, username, PASSWORD);
        await page.goto('/security');
        // the app's own link once it has taken over the page (a server-rendered page is inert until then)
        await page.locator('#app:not([inert])').getByTestId('webhooks-link').getByRole('link').click();
        await page.waitForURL(/\/webhooks$/);
        assert.equal((await page.locator('h1').textContent())?.trim(), texts.title);

        const form = page.getByTestId('webhook-form');
        await form.locator('input[name="url"]').fill(hookUrl);
        await form.locator('input[name="description"]').fill(`${locale} receiver`);
        await form.locator('button[type="submit"]').click();
        const secret = (await page.getByTestId('webhook-secret').locator('code').textContent())?.trim() ?? '';
        assert.match(secret, /^whsec_/);

        const endpoint = page.getByTestId('webhook-endpoint');
        await endpoint.waitFor();
        const before = received.length;
        const test = endpoint.getByTestId('webhook-test');
        assert.equal((await test.textContent())?.trim(), texts.test);
        await test.click();
        const delivery = endpoint.getByTestId('webhook-delivery').first();
        await delivery.waitFor();
        assert.match((await delivery.textContent()) ?? '', new RegExp(texts.delivered));
        assert.match((await delivery.textContent()) ?? '', /204/);

        const got = received.slice(before);
        assert.equal(got.length, 1);
        const body = new Webhook(secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>) as {
          type: string;
        };
        assert.equal(body.type, 'webhook.test');
        assert.match(String(got[0]!.headers['webhook-id']), /^msg_/);

        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the webhooks screen fits ${viewport.width} px (overflow ${overflow} px)`);
        // the service worker is blocked by the test browser itself
        assert.deepEqual(
          tab.problems.filter((p) => !/Service Worker registration blocked/.test(p)),
          [],
        );
      } finally {
        await tab.context.close();
      }
    });
  }
});
