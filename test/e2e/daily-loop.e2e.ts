// The daily loop of a new person, in Chinese on a 390 px phone and in British English on a desktop:
// the first-run setup, a monthly budget that holds in the next month, a typed line naming an
// account not kept yet, an account opened with its balance over time and reconciled, an invite
// link that opens the join flow, a shared expense that reaches the member it names, and the
// smaller things (their own dates, common currencies first, categories as icons on a phone,
// Statistics' ‹ and › on one row, the export format in full, one toast at a time, the sidebar in
// view).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, apiAs as api, axeViolations, serverAndBrowser, until, type Tab } from './harness.ts';

interface Case {
  locale: 'zh-CN' | 'en-GB';
  viewport: { width: number; height: number };
  /** the usual accounts the setup offers, and one it leaves out to be created from a typed line */
  accounts: string[];
  untick: string;
  line: string;
  budgetSet: RegExp;
  notSet: RegExp;
  date: string;
  compare?: string;
}

const CASES: Case[] = [
  {
    locale: 'zh-CN',
    viewport: PHONE,
    accounts: ['微信', '支付宝', '银行卡', '现金'],
    untick: '支付宝',
    line: '打车 32 云闪付',
    budgetSet: /¥2,000\.00/,
    notSet: /未设置/,
    date: '2026年11月1日',
    compare: '与上期对比',
  },
  {
    locale: 'en-GB',
    viewport: DESKTOP,
    accounts: ['Cash', 'Bank account', 'Credit card'],
    untick: 'Credit card',
    line: 'taxi 32 paypal',
    budgetSet: /¥2,000\.00/,
    notSet: /Not set/,
    date: '1 November 2026',
  },
];

const phone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 700;
const clean = async (page: Page, what: string) =>
  assert.deepEqual(await axeViolations(page), [], `${what}: accessibility`);

describe('the daily loop, in Chinese on a phone and in English on a desktop', () => {
  const live = serverAndBrowser(3320);

  for (const c of CASES) {
    describe(`${c.locale} at ${c.viewport.width} px`, () => {
      let tab: Tab;
      const page = () => tab.page;

      it('offers the first-run setup: currency (common ones first), the usual accounts with balances, a budget', async () => {
        tab = await live.signedInTab(`loop-${c.locale}-${process.pid}`, { locale: c.locale, viewport: c.viewport });
        await page().getByTestId('setup-card').waitFor();
        await page().getByTestId('setup-start').click();
        await page().waitForURL(/\/setup$/);
        const codes = await page()
          .getByTestId('setup-currency')
          .locator('option')
          .evaluateAll((os) => os.slice(0, 7).map((o) => (o as HTMLOptionElement).value));
        assert.deepEqual(codes.slice(0, 6), ['CNY', 'USD', 'EUR', 'GBP', 'JPY', 'HKD']);
        assert.ok(!['CNY', 'USD', 'EUR', 'GBP', 'JPY', 'HKD'].includes(codes[6]!), 'the rest follow, each once');
        const rows = page().getByTestId('setup-account');
        assert.deepEqual(
          (await rows.locator('.check span').allInnerTexts()).map((s) => s.trim()),
          c.accounts,
        );
        await clean(page(), 'setup');
        await rows.filter({ hasText: c.untick }).locator('input[type="checkbox"]').uncheck();
        await rows.nth(0).locator('input[inputmode="decimal"]').fill('1,200.50');
        await page().locator('input[name="monthly_budget"]').fill('3000');
        await page().getByTestId('setup-finish').click();
        await page().waitForURL(/\/books/);
        const list = await api<{ list: { name: string; balance: number }[] }>(page(), 'GET', '/api/accounts');
        const names = list.list.map((a) => a.name);
        for (const n of c.accounts.filter((a) => a !== c.untick)) assert.ok(names.includes(n), `${n} opened`);
        assert.ok(!names.includes(c.untick));
        assert.equal(list.list.find((a) => a.name === c.accounts[0])?.balance, 1200.5);
        assert.equal((await api<{ state: string }>(page(), 'GET', '/api/setup')).state, 'finished');
        assert.equal(await page().getByTestId('setup-card').count(), 0);
      });

      it("keeps November's budget in December, and a month set alone stays alone", async () => {
        await page().goto('/budget');
        const month = page().locator('input[name="month"]');
        const total = page().locator('.budget').first();
        await month.fill('2026-11');
        await total.locator('input[name="amount"]').fill('2000');
        await total.locator('button[type="submit"]').click();
        await until(async () => c.budgetSet.test(await total.innerText()), 'November set');
        await month.fill('2026-12');
        await until(async () => c.budgetSet.test(await total.innerText()), 'December holds it');
        await month.fill('2027-01');
        await total.locator('input[name="amount"]').fill('500');
        await total.locator('input[name="only-this-month"]').check();
        await total.locator('button[type="submit"]').click();
        await until(async () => /500/.test(await total.innerText()), 'January alone');
        // two saves in a row: one toast at a time, and taps pass through their box
        await total.locator('button[type="submit"]').click();
        assert.ok((await page().locator('.toasts > .toast').count()) <= 1, 'one toast at a time');
        assert.equal(
          await page()
            .locator('.toasts')
            .evaluate((e) => getComputedStyle(e).pointerEvents),
          'none',
        );
        await month.fill('2027-02');
        await until(async () => c.budgetSet.test(await total.innerText()), 'February back on the repeating amount');
        await clean(page(), 'budget');
      });

      it('offers to open an account a typed line names, and reads the line again with it', async () => {
        await page().goto('/books');
        await page()
          .getByTestId(phone(page()) ? 'tab-add' : 'new-entry')
          .click();
        const dialog = page().locator('dialog[open]');
        await dialog.getByTestId('quick-line').fill(c.line);
        const offer = dialog.getByTestId('new-account-offer');
        await offer.waitFor();
        await clean(page(), 'offer');
        await offer.getByTestId('new-account-create').click();
        await dialog.locator('[data-part="account"]').waitFor();
        assert.equal(await dialog.getByTestId('new-account-offer').count(), 0);
        const word = c.line.split(' ').at(-1)!;
        const note = dialog.locator('[data-part="note"]');
        assert.ok(
          !(await note.count()) || !(await note.innerText()).toLowerCase().includes(word),
          'not left in the note',
        );
        // a phone picks categories from a grid of icons, a desktop from the list
        if (phone(page())) {
          const grid = dialog.getByTestId('category-grid');
          assert.ok((await grid.locator('[role="radio"]').count()) >= 4);
          const box = await grid.boundingBox();
          assert.ok(box && box.width <= PHONE.width);
        } else assert.equal(await dialog.getByTestId('category-grid').count(), 0);
        await page().keyboard.press('Escape');
      });

      it('opens an account: its balance over time, its entries in the reader’s dates, and reconcile', async () => {
        const accounts = await api<{ list: { id: number; name: string }[] }>(page(), 'GET', '/api/accounts');
        const first = accounts.list.find((a) => a.name === c.accounts[0])!;
        const cats = await api<{ list: { id: number }[] }>(page(), 'GET', '/api/categories?kind=expense');
        await api(page(), 'POST', '/api/transactions', {
          kind: 'expense',
          amount: '20.50',
          category_id: cats.list[0]!.id,
          account_id: first.id,
          date: '2026-11-01',
        });
        await page().goto('/accounts');
        await page().getByTestId('account-open').filter({ hasText: c.accounts[0] }).click();
        await page().waitForURL(new RegExp(`/accounts/${first.id}$`));
        await page()
          .locator('[data-testid="balance-chart"] [data-drawn], [data-testid="balance-chart"][data-drawn]')
          .first()
          .waitFor();
        const entry = page().getByTestId('account-entry').first();
        await until(async () => (await entry.innerText()).includes(c.date), `the entry dated ${c.date}`);
        await clean(page(), 'account');
        await page().getByTestId('account-reconcile').click();
        const dialog = page().locator('dialog[open]');
        await dialog.locator('input[inputmode="decimal"]').first().fill('1000');
        await dialog.locator('button[type="submit"]').click();
        await until(async () => (await page().getByTestId('account-entry').count()) === 2, 'the adjustment listed');
      });

      it('shares an invite link that opens the join flow, and tells the member of a shared expense', async () => {
        if (phone(page()))
          await page().addInitScript(() => {
            // a phone's share sheet: what it was given is kept for the test to read
            const w = window as unknown as { shared?: ShareData };
            navigator.share = async (d?: ShareData) => void (w.shared = d);
            const plain = window.matchMedia.bind(window);
            window.matchMedia = (q: string) =>
              q === '(pointer: coarse)' ? ({ ...plain(q), matches: true } as MediaQueryList) : plain(q);
          });
        else await tab.context.grantPermissions(['clipboard-read', 'clipboard-write']);
        const g = await api<{ id: number; invite_code: string }>(page(), 'POST', '/api/groups', {
          name: 'Trip',
          split_costs: true,
        });
        await page().goto('/groups');
        await page().getByTestId('share-invite').click();
        const link = phone(page())
          ? await page().evaluate(() => (window as unknown as { shared?: ShareData }).shared?.url ?? '')
          : await page().evaluate(() => navigator.clipboard.readText());
        assert.match(link, new RegExp(`/join/${g.invite_code}$`));
        const friend = await live.signedInTab(`loop-friend-${c.locale}-${process.pid}`, {
          locale: c.locale,
          viewport: c.viewport,
        });
        try {
          await friend.page.goto(new URL(link).pathname);
          await friend.page.waitForURL(/\/groups\?join=/);
          await friend.page.getByTestId('invited').waitFor();
          assert.equal(await friend.page.locator('input[name="invite_code"]').inputValue(), g.invite_code);
          await clean(friend.page, 'join');
          await friend.page.locator('input[name="invite_code"]').press('Enter');
          await until(async () => (await friend.page.getByTestId('group-card').count()) === 1, 'joined');
          const cats = await api<{ list: { id: number }[] }>(page(), 'GET', '/api/categories?kind=expense');
          await api(page(), 'POST', '/api/transactions', {
            kind: 'expense',
            amount: 60,
            category_id: cats.list[0]!.id,
            group_id: g.id,
            date: new Date().toISOString().slice(0, 10),
          });
          await friend.page.goto('/notifications');
          await friend.page.getByTestId('notice').filter({ hasText: 'Trip' }).waitFor();
        } finally {
          await friend.context.close();
        }
      });

      it('keeps the smaller things: Statistics on one row, the export format in full, the sidebar in view', async () => {
        await page().goto('/stats');
        // the server-drawn first screen is replaced by the app's own: measure the app's
        await page().locator('#app[data-first-screen]').waitFor({ state: 'detached' });
        const stepper = page().getByTestId('stats-stepper');
        await stepper.locator('button').nth(1).waitFor();
        const prev = await stepper.locator('button').first().boundingBox();
        const next = await stepper.locator('button').nth(1).boundingBox();
        assert.ok(prev && next && Math.abs(prev.y - next.y) < 4, '‹ and › on one row');
        if (c.compare) await page().getByText(c.compare).first().waitFor();
        await page().goto('/data');
        const format = page().locator('select[name="format"]');
        const cut = await format.evaluate((s) => {
          const el = s as HTMLSelectElement;
          const probe = document.createElement('span');
          probe.style.font = getComputedStyle(el).font;
          probe.style.position = 'absolute';
          probe.textContent = el.options[el.selectedIndex]!.text;
          document.body.append(probe);
          const need = probe.getBoundingClientRect().width;
          probe.remove();
          return need > el.clientWidth - 24;
        });
        assert.equal(cut, false, 'the format is shown in full');
        if (!phone(page())) {
          await page().goto('/books');
          // the app's own page, not the server's drawing of it that the app replaces
          await page().locator('#app[data-first-screen]').waitFor({ state: 'detached' });
          await page().locator('nav.side').waitFor();
          await page().evaluate(() => {
            document.querySelector('main')!.style.minHeight = '3000px';
            window.scrollTo(0, 1500);
          });
          const side = await page().locator('nav.side').boundingBox();
          assert.ok(side && side.y >= 0 && side.y < 120, `the sidebar stays in view (${side?.y})`);
        }
        await tab.context.close();
      });
    });
  }
});
