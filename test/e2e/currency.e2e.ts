// Money in another currency from the web: a fresh account in Chinese Yuan adds a US Dollar account,
// an expense in it is refused with the missing rate named and a link to add it, the rate is
// entered on the rates page, and the same expense then books. Once in English on a desktop (the
// add form of the New button), once in Chinese on a phone (the add form of the tab bar). An administrator
// turns the daily fetch of rates on.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  ADMIN_OPENID,
  PHONE,
  apiAs,
  axeViolations,
  serverAndBrowser,
  signInWechat,
  until,
  type Tab,
} from './harness.ts';

const PORT = 3251;
const today = () => new Date().toISOString().slice(0, 10);

/** Opens the add form (the tab bar on a phone, the New button on a desktop) and saves an expense. */
async function newExpense(page: Page, title: string, account: string, amount: string, category: string, save: string) {
  const phone = (page.viewportSize()?.width ?? 1280) < 700;
  await page.getByTestId(phone ? 'tab-add' : 'new-entry').click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByTestId('tx-account').selectOption({ label: account });
  await dialog.locator('input[name="amount"]').fill(amount);
  await dialog.locator('select[name="category_id"]').selectOption({ label: category });
  await dialog.getByRole('button', { name: save, exact: true }).click();
  return dialog;
}

async function addUsdAccount(page: Page, name: string, save: string, currency = 'USD') {
  await page.getByTestId('account-add').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('account-name').fill(name);
  await dialog.getByTestId('account-currency').fill(currency);
  await dialog.getByRole('button', { name: save }).click();
  await page.locator('[data-testid="account-row"]', { hasText: name }).waitFor();
}

describe('an expense in US Dollars from a fresh Chinese Yuan account', () => {
  const live = serverAndBrowser(PORT);

  describe('in English on a desktop', () => {
    let tab: Tab;
    const page = () => tab.page;
    before(async () => {
      tab = await live.signedInTab(`fx-en-${process.pid}`, { locale: 'en-US' });
    });

    it('shows the base currency in the profile', async () => {
      await page().goto('/profile');
      const base = page().getByTestId('base-currency');
      await until(async () => (await base.inputValue()) === 'CNY', 'the base currency');
      assert.equal((await base.locator('option:checked').innerText()).trim(), 'Chinese Yuan');
    });

    it('switches to dark by hand in the profile, remembered after a reload', async () => {
      await page().goto('/profile');
      const html = () => page().evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      // the browser's scheme is light
      assert.equal(await html(), 'rgb(244, 245, 247)');
      await page().getByTestId('theme-dark').click();
      assert.equal(await page().getByTestId('theme-dark').getAttribute('aria-checked'), 'true');
      await until(async () => (await html()) === 'rgb(21, 23, 27)', 'the dark background');
      assert.deepEqual(await axeViolations(page()), [], 'dark profile: accessibility');
      await page().reload();
      await page().getByTestId('theme-switch').waitFor();
      assert.equal(await html(), 'rgb(21, 23, 27)');
      assert.equal(await page().getByTestId('theme-dark').getAttribute('aria-checked'), 'true');
      await page().getByTestId('theme-system').click();
      await until(async () => (await html()) === 'rgb(244, 245, 247)', 'the light background again');
    });

    it('names the missing rate and books once the rate is entered in the add form', async () => {
      await page().goto('/accounts');
      await addUsdAccount(page(), 'US card', 'Save');
      await page().getByTestId('accounts-missing-rates').filter({ hasText: 'No rate for US Dollar' }).waitFor();
      await page().goto('/rates');
      await page().getByTestId('rates-needed').filter({ hasText: 'US Dollar → Chinese Yuan' }).waitFor();

      await page().goto('/books');
      const dialog = await newExpense(page(), 'New transaction', 'US card · US Dollar', '12', 'Food', 'Save');
      // the rate is asked for inside the form, which keeps the draft: no link leads away from it
      await dialog
        .getByTestId('entry-rate')
        .filter({ hasText: /There is no US Dollar → Chinese Yuan rate for .* yet/ })
        .waitFor();
      assert.equal(await dialog.getByTestId('missing-rate-link').count(), 0);
      assert.equal(await dialog.locator('input[name="amount"]').inputValue(), '12');
      await dialog.getByTestId('entry-rate-input').fill('7.1');
      await dialog.getByRole('button', { name: 'Save the rate and the entry' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page().locator('[data-testid="tx-row"]', { hasText: '-$12.00' }).first().waitFor();

      await page().goto('/rates');
      await page().getByRole('heading', { name: 'Exchange rates', level: 1 }).waitFor();
      const row = page().getByTestId('rate-row').filter({ hasText: '1 US Dollar = 7.1 Chinese Yuan' });
      await row.waitFor();
      assert.match(await row.innerText(), /entered by hand/);
      await until(async () => (await page().getByTestId('rates-needed').count()) === 0, 'nothing needed any more');
      assert.deepEqual(await axeViolations(page()), [], 'rates page: accessibility');

      // in the base currency the expense is 12 × 7.1 = 85.20
      await page().goto('/accounts');
      await until(
        async () => (await page().getByTestId('net-worth').innerText()).includes('-¥85.20'),
        'the net worth in yuan',
      );
    });

    it("takes amounts in the currency's own decimals: thousandths of a dinar, whole yen", async () => {
      await page().goto('/accounts');
      await addUsdAccount(page(), 'Kuwait card', 'Save', 'KWD');
      await addUsdAccount(page(), 'Tokyo wallet', 'Save', 'JPY');
      // rates entered as on the rates page: 1 KWD = 23.5 CNY, 1 JPY = 0.048 CNY
      await apiAs(page(), 'PUT', '/api/rates', {
        rates: [
          { currency: 'KWD', date: today(), rate: '23.5' },
          { currency: 'JPY', date: today(), rate: '0.048' },
        ],
      });

      await page().goto('/books');
      const kwd = await newExpense(page(), 'New transaction', 'Kuwait card · Kuwaiti Dinar', '1.235', 'Food', 'Save');
      await kwd.waitFor({ state: 'detached' });
      const yen = await newExpense(page(), 'New transaction', 'Tokyo wallet · Japanese Yen', '12.5', 'Food', 'Save');
      await yen.getByText('Enter a whole amount greater than 0: this currency has no decimals.').waitFor();
      await yen.locator('input[name="amount"]').fill('1200');
      await yen.getByRole('button', { name: 'Save', exact: true }).click();
      await yen.waitFor({ state: 'detached' });

      // as the server keeps them: 1.235 KWD is 29.0225, rounded to 29.02 CNY; 1,200 JPY is 57.60 CNY
      const rows = (
        await apiAs<{ list: { amount: number; currency: string; base_amount?: number; rate: string | null }[] }>(
          page(),
          'GET',
          '/api/transactions?pageSize=10',
        )
      ).list;
      const dinar = rows.find((r) => r.currency === 'KWD');
      const yenRow = rows.find((r) => r.currency === 'JPY');
      assert.equal(dinar?.amount, 1.235);
      assert.equal(yenRow?.amount, 1200);
      // the net worth in yuan: -85.20 (the dollars) - 29.02 - 57.60 = -171.82
      await page().goto('/accounts');
      await until(
        async () => (await page().getByTestId('net-worth').innerText()).includes('-¥171.82'),
        'the net worth in yuan',
      );
    });

    it('left nothing in the console but the one refusal for want of a rate', () => {
      const refusal = 'error: Failed to load resource: the server responded with a status of 400 (Bad Request)';
      assert.deepEqual(tab.problems, [refusal]);
    });
  });

  describe('in Chinese on a phone', () => {
    let tab: Tab;
    const page = () => tab.page;
    before(async () => {
      tab = await live.signedInTab(`fx-zh-${process.pid}`, { locale: 'zh-CN', viewport: PHONE });
    });

    async function screen(name: string) {
      await page().waitForTimeout(300);
      const body = await page().locator('body').innerText();
      const words = (body.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => w !== 'English');
      assert.deepEqual(words, [], `${name}: English on a Chinese screen: ${body.replace(/\s+/g, ' ')}`);
      assert.deepEqual(await axeViolations(page()), [], `${name}: accessibility`);
    }

    it('adds the rate inside the add dialog, keeping the expense, then records it', async () => {
      await page().goto('/accounts');
      await addUsdAccount(page(), '美元卡', '保存');

      const dialog = await newExpense(page(), '记一笔', '美元卡 · 美元', '20', '餐饮', '保存');
      await dialog
        .getByTestId('entry-rate')
        .filter({ hasText: /没有.*美元兑人民币汇率/ })
        .waitFor();
      await screen('缺少汇率');
      assert.equal(await dialog.getByTestId('missing-rate-link').count(), 0);
      await dialog.getByTestId('entry-rate-input').fill('7.2');
      await dialog.getByRole('button', { name: '保存汇率并记账' }).click();
      await dialog.waitFor({ state: 'detached' });
      // focus went back to the button that opened the dialog
      assert.equal(await page().evaluate(() => document.activeElement?.getAttribute('data-testid')), 'tab-add');
      await page().goto('/books');
      await page()
        .locator('[data-testid="tx-row"]', { hasText: /-(US)?\$20\.00/ })
        .first()
        .waitFor();
      await page().goto('/rates');
      await page().getByRole('heading', { name: '汇率', level: 1 }).waitFor();
      await page().getByTestId('rate-row').filter({ hasText: '1 美元 = 7.2 人民币' }).waitFor();
      await screen('汇率');
      const width = await page().evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `the rates page is ${width} px wide`);
    });

    it('left nothing in the console but the one refusal for want of a rate', () => {
      const refusal = 'error: Failed to load resource: the server responded with a status of 400 (Bad Request)';
      assert.deepEqual(tab.problems, [refusal]);
    });
  });

  describe('an administrator', () => {
    it('turns the daily fetch of exchange rates on', async () => {
      const tab = await live.openTab({ locale: 'en-US' });
      try {
        await signInWechat(tab.page, ADMIN_OPENID);
        await tab.page.goto('/admin/config');
        const form = tab.page.getByTestId('rates-fetch');
        await form.getByTestId('rates-fetch-status').filter({ hasText: 'No rates have been fetched yet.' }).waitFor();
        assert.equal(await form.getByTestId('rates-fetch-on').isChecked(), false);
        await form.getByTestId('rates-fetch-on').check();
        const url = `${live.server.base}/nothing-here.xml`;
        await form.getByTestId('rates-fetch-url').fill(url);
        await form.getByTestId('rates-fetch-save').click();
        await tab.page.getByText('Daily exchange rates saved.').waitFor();
        await tab.page.reload();
        await until(
          async () =>
            (await tab.page.getByTestId('rates-fetch-on').isChecked()) &&
            (await tab.page.getByTestId('rates-fetch-url').inputValue()) === url,
          'the setting kept',
        );
        assert.deepEqual(await axeViolations(tab.page), []);
      } finally {
        await tab.context.close();
      }
    });
  });
});
