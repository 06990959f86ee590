// Every screen at phone size (390 x 844), in both languages: none may scroll sideways, checkboxes
// are tapped through a target of at least 44 px, and a tap on a statistics donut slice opens that
// category's rows without the click of the same tap landing on the next page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ADMIN_OPENID, PHONE, serverAndBrowser, signInWechat, until, WAIT_MS, apiAs } from './harness.ts';

const PORT = 3253;

const api = apiAs;

/** What is wrong with the page as it is: sideways scrolling, checkboxes without a 44 px target. */
async function phoneProblems(page: Page, where: string): Promise<string[]> {
  const found = await page.evaluate(() => {
    const out: string[] = [];
    const width = document.documentElement.scrollWidth;
    if (width > window.innerWidth) {
      const wide = [...document.querySelectorAll<HTMLElement>('main *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.offsetParent !== null)
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
      out.push(`scrolls sideways: ${width} px (${wide.join(', ')})`);
    }
    for (const box of document.querySelectorAll<HTMLInputElement>('input[type="checkbox"], input[type="radio"]')) {
      const own = box.getBoundingClientRect();
      if (own.width === 0 || box.closest('dialog:not([open])')) continue;
      const target = (box.closest('label, td, th') ?? box).getBoundingClientRect();
      if (target.height < 44 || target.width < 44)
        out.push(
          `checkbox ${box.name || box.getAttribute('aria-label') || ''}: ${Math.round(target.width)}x${Math.round(target.height)} px`,
        );
    }
    return out;
  });
  return found.map((f) => `${where}: ${f}`);
}

describe('every screen at phone size', () => {
  const live = serverAndBrowser(PORT);

  for (const locale of ['zh-CN', 'en-US'] as const) {
    describe(`in ${locale}`, () => {
      let page: Page;
      let groupId = 0;
      const problems: string[] = [];

      before(async () => {
        const context = await live.browser.newContext({
          baseURL: live.server.base,
          locale,
          viewport: PHONE,
          hasTouch: true,
          isMobile: true,
        });
        context.setDefaultTimeout(WAIT_MS);
        page = await context.newPage();
        await page.goto('/signin');
        problems.push(...(await phoneProblems(page, '/signin')));
        await signInWechat(page, ADMIN_OPENID);
        // something on every screen: a group, rows in three categories, a budget with carry-over
        const cats = await api<{ list: { id: number }[] }>(page, 'GET', '/api/categories?kind=expense');
        const today = new Date().toISOString().slice(0, 10);
        for (const [i, amount] of [320, 180, 95].entries()) {
          await api(page, 'POST', '/api/transactions', {
            kind: 'expense',
            amount,
            category_id: cats.list[i]!.id,
            date: today,
            note: `row ${i}`,
          });
        }
        groupId = (await api<{ id: number }>(page, 'POST', '/api/groups', { name: `Trip ${locale}` })).id;
      });
      after(async () => page?.context().close());

      it('scrolls sideways on no route, and gives every checkbox a 44 px target', async () => {
        const routes = [
          '/books',
          '/stats',
          '/accounts',
          '/rates',
          '/budget',
          '/recurring',
          '/categories',
          '/groups',
          `/groups/${groupId}/settings`,
          `/groups/${groupId}/balances`,
          '/notifications',
          '/feedback',
          '/import',
          '/import/rules',
          '/data',
          '/security',
          '/profile',
          '/me',
          '/admin/dashboard',
          '/admin/users',
          '/admin/feedback',
          '/admin/notifications',
          '/admin/config',
          '/admin/backups',
          '/admin/logs',
          '/admin/track',
        ];
        for (const route of routes) {
          await page.goto(route);
          await page.locator('main h1').first().waitFor();
          // let the screen's data arrive and lay out
          await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
          await page.waitForTimeout(200);
          problems.push(...(await phoneProblems(page, route)));
        }
        assert.deepEqual(problems, []);
      });

      it('opens the category of a tapped donut slice, and the tap does not reach the next page', async () => {
        await page.goto('/stats');
        // the app's own chart (not the server's picture of it before the app takes over), drawn at rest
        const donut = page.locator('#app:not([inert]) [data-testid="donut"][data-drawn]');
        await donut.waitFor();
        // in the middle of the screen, clear of the tab bar
        await donut.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.waitForTimeout(300);
        const box = (await donut.boundingBox())!;
        // the largest slice (320 of 595) starts at twelve o'clock and runs clockwise: its middle is right of the centre
        const r = Math.min(box.width, box.height) / 2;
        await page.touchscreen.tap(box.x + box.width / 2 + r * 0.67, box.y + box.height / 2);
        await page.waitForURL(/\/books\?.*category_ids=/);
        await page.waitForTimeout(700);
        assert.equal(await page.getByRole('dialog').count(), 0, 'a dialog opened under the finger');
        assert.match(page.url(), /kind=expense/);
        // only the largest category's rows (the first of the three added in each language)
        const rows = page.locator('[data-testid="tx-row"]');
        await until(async () => (await rows.count()) >= 1, 'the rows of that category');
        for (const text of await rows.allInnerTexts()) assert.match(text, /row 0/);
      });
    });
  }
});
