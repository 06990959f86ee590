// Accounts, transfers, net worth and budgets by category in the browser: once in English on a
// desktop, once in Chinese on a phone.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE, axeViolations, screenshotPath, serverAndBrowser, until, type Tab } from './harness.ts';

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).innerText()).replace(/\s+/g, ' ');
const rowOf = (page: Page, name: string) => page.locator('[data-testid="account-row"]', { hasText: name });
const balanceOf = async (page: Page, name: string) =>
  (await rowOf(page, name).getByTestId('account-balance').innerText()).trim();

describe('money in the browser', () => {
  const live = serverAndBrowser(3155);

  describe('in English on a desktop', () => {
    let tab: Tab;
    const page = () => tab.page;
    before(async () => {
      tab = await live.signedInTab(`money-en-${process.pid}`, { locale: 'en-US' });
    });

    it('creates an account and sees its balance and the net worth', async () => {
      await page().getByRole('link', { name: 'Accounts' }).first().click();
      await page().getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
      await rowOf(page(), 'Cash').waitFor();
      await page().getByTestId('account-add').click();
      const dialog = page().getByRole('dialog', { name: 'New account' });
      await dialog.getByTestId('account-name').fill('Bank');
      await dialog.getByTestId('account-opening').fill('1000');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await rowOf(page(), 'Bank').waitFor();
      assert.equal(await balanceOf(page(), 'Bank'), '¥1,000.00');
      await until(async () => (await text(page(), 'net-worth')).includes('¥1,000.00'), 'the net worth');
      await page().locator('canvas').first().waitFor();
    });

    it('transfers with a fee: both balances move, the net worth loses only the fee', async () => {
      await page().getByTestId('transfer-open').click();
      const dialog = page().getByRole('dialog', { name: 'Transfer between accounts' });
      await until(
        async () => (await dialog.getByTestId('transfer-from').locator('option').count()) === 2,
        'the accounts',
      );
      await dialog.getByTestId('transfer-from').selectOption({ label: 'Bank · Chinese Yuan' });
      await dialog.getByTestId('transfer-to').selectOption({ label: 'Cash · Chinese Yuan' });
      await dialog.getByTestId('transfer-amount').fill('200');
      await dialog.getByTestId('transfer-fee').fill('2');
      await dialog.getByRole('button', { name: 'Transfer' }).click();
      await dialog.waitFor({ state: 'detached' });
      await until(async () => (await balanceOf(page(), 'Bank')) === '¥798.00', 'the bank balance');
      assert.equal(await balanceOf(page(), 'Cash'), '¥200.00');
      await until(async () => (await text(page(), 'net-worth')).includes('¥998.00'), 'the net worth');
    });

    it('reconciles an account: the difference is booked as an adjustment', async () => {
      await rowOf(page(), 'Cash').getByRole('button', { name: 'Reconcile “Cash”' }).click();
      const dialog = page().getByRole('dialog', { name: 'Reconcile · Cash' });
      await dialog.getByTestId('reconcile-balance').fill('150');
      await dialog.getByRole('button', { name: 'Reconcile' }).click();
      await until(async () => (await balanceOf(page(), 'Cash')) === '¥150.00', 'the reconciled balance');
    });

    it('sets a budget for a category and sees its bar; the transfer is not spending, its fee is', async () => {
      await page().getByRole('link', { name: 'Budget' }).first().click();
      const lines = page().getByTestId('category-budgets');
      await lines.getByTestId('budget-line-amount').waitFor();
      const category = (await lines.getByTestId('budget-line-category').locator('option:checked').innerText()).trim();
      await lines.getByTestId('budget-line-amount').fill('100');
      await lines.getByTestId('budget-line-add').click();
      const line = lines.getByTestId('category-budget-line').filter({ hasText: category });
      await line.waitFor();
      await line.getByRole('progressbar').waitFor();
      // the 2.00 fee of the transfer went to this category; the 200.00 transfer did not
      await until(async () => (await line.innerText()).includes('¥98.00 left'), 'the line after the fee');

      // an expense recorded in the bank account, remembered by the add form
      await page().getByRole('link', { name: 'Books' }).first().click();
      await page().getByTestId('new-entry').click();
      const add = page().getByRole('dialog', { name: 'New transaction' });
      await add.getByTestId('tx-account').locator('option').nth(1).waitFor({ state: 'attached' });
      await add.locator('input[name="amount"]').fill('30');
      await add.getByTestId('tx-account').selectOption({ label: 'Bank · Chinese Yuan' });
      await add.locator('select[name="category_id"] option').nth(1).waitFor({ state: 'attached' });
      await add.locator('select[name="category_id"]').selectOption({ label: category });
      await add.getByRole('button', { name: 'Save' }).click();
      await page().locator('[data-testid="tx-row"]', { hasText: '-¥30.00' }).first().waitFor();
      // transfers and adjustments are listed too, named by their accounts
      await page().locator('[data-testid="tx-row"]', { hasText: 'Bank → Cash' }).first().waitFor();
      await page().reload();
      await page().getByTestId('new-entry').click();
      const again = page().getByRole('dialog', { name: 'New transaction' });
      const picked = () =>
        again
          .getByTestId('tx-account')
          .evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
      await until(async () => (await picked()).startsWith('Bank'), 'the remembered account').catch(async (err) => {
        throw new Error(`${(err as Error).message}: ${await picked()}`);
      });
      await again.getByRole('button', { name: 'Cancel' }).click();
      await again.waitFor({ state: 'detached' });

      await page().getByRole('link', { name: 'Budget' }).first().click();
      await until(
        async () =>
          (await page().getByTestId('category-budget-line').filter({ hasText: category }).innerText()).includes(
            '¥68.00 left',
          ),
        'the line after the expense',
      );
    });

    it('left nothing in the console', () => {
      assert.deepEqual(tab.problems, []);
    });
  });

  describe('in Chinese on a phone', () => {
    let tab: Tab;
    const page = () => tab.page;
    before(async () => {
      tab = await live.signedInTab(`money-zh-${process.pid}`, { locale: 'zh-CN', viewport: PHONE });
    });

    async function screen(name: string) {
      await page().waitForTimeout(300);
      const words = ((await page().locator('body').innerText()).match(/[A-Za-z]{2,}/g) ?? []).filter(
        (w) => w !== 'English',
      );
      assert.deepEqual(words, [], `${name}: English on a Chinese screen`);
      assert.deepEqual(await axeViolations(page()), [], `${name}: accessibility`);
    }

    it('opens the accounts from 我的, creates a card and transfers to cash', async () => {
      await page().getByRole('navigation', { name: '主要栏目' }).getByRole('link', { name: '我的' }).click();
      await page().getByRole('navigation', { name: '我的' }).getByRole('link', { name: '账户', exact: true }).click();
      await page().getByRole('heading', { name: '账户', level: 1 }).waitFor();
      await rowOf(page(), '现金').waitFor();
      await page().getByTestId('account-add').click();
      const dialog = page().getByRole('dialog', { name: '新建账户' });
      await dialog.getByTestId('account-name').fill('招商银行');
      await dialog.getByTestId('account-opening').fill('500');
      await dialog.getByRole('button', { name: '保存' }).click();
      await rowOf(page(), '招商银行').waitFor();

      await page().getByTestId('transfer-open').click();
      const transfer = page().getByRole('dialog', { name: '账户间转账' });
      await until(async () => (await transfer.getByTestId('transfer-from').locator('option').count()) === 2, '账户');
      await transfer.getByTestId('transfer-from').selectOption({ label: '招商银行 · 人民币' });
      await transfer.getByTestId('transfer-to').selectOption({ label: '现金 · 人民币' });
      await transfer.getByTestId('transfer-amount').fill('100');
      await screen('转账');
      await transfer.getByRole('button', { name: '转账' }).click();
      await transfer.waitFor({ state: 'detached' });
      await until(async () => (await balanceOf(page(), '招商银行')) === '¥400.00', '招商银行余额');
      assert.equal(await balanceOf(page(), '现金'), '¥100.00');
      await until(async () => (await text(page(), 'net-worth')).includes('¥500.00'), '净资产');
      await page().locator('canvas').first().waitFor();
      await screen('账户');
    });

    it('sets a category budget and sees its bar', async () => {
      await page().getByRole('navigation', { name: '主要栏目' }).getByRole('link', { name: '预算' }).click();
      const lines = page().getByTestId('category-budgets');
      await lines.getByTestId('budget-line-amount').fill('300');
      await lines.getByTestId('budget-line-add').click();
      const line = lines.getByTestId('category-budget-line').first();
      await line.getByRole('progressbar').waitFor();
      await until(async () => (await line.innerText()).includes('还剩 ¥300.00'), '分类预算');
      await screen('预算');
      await page().screenshot({ path: screenshotPath('phone-budget-categories.png') });
    });

    it('left nothing in the console', () => {
      assert.deepEqual(tab.problems, []);
    });
  });
});
