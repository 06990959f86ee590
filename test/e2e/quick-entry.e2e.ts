// Recording in seconds, in both languages: a line of text read into the add form and shown part by
// part before saving, the n key and Enter on a desktop, the tab bar on a phone, and refunds.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE, axeViolations, serverAndBrowser, until, untilFocused, type Tab } from './harness.ts';

/**
 * The books open on this month: yesterday's rows are in it, except on the first of a month, when
 * the books are shown whole (the button of that name) to find a row saved for yesterday.
 */
async function booksWithYesterday(page: Page, allTime: string): Promise<void> {
  const now = new Date();
  if (new Date(now.getTime() - 86_400_000).getMonth() !== now.getMonth())
    await page.getByRole('button', { name: allTime, exact: true }).first().click();
}

/** Creates an account through the API with the page's own session (a setup step, not what is tested). */
async function addAccount(page: Page, name: string, type: string): Promise<void> {
  const status = await page.evaluate(
    async ([n, ty]) => {
      const tokens = JSON.parse(localStorage.getItem('ledger.tokens') ?? '{}') as { access_token?: string };
      const res = await fetch('/api/accounts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.access_token}` },
        body: JSON.stringify({ name: n, type: ty }),
      });
      return res.status;
    },
    [name, type],
  );
  assert.equal(status, 201);
}

/** Signs in with the demo (its button named `demo`), adds an account and waits for the books again. */
async function demoWithAccount(page: Page, demo: string, name: string, type: string): Promise<void> {
  await page.goto('/signin');
  await page.getByRole('button', { name: demo }).click();
  await page.waitForURL(/\/books$/);
  await page.locator('[data-testid="tx-row"]').first().waitFor();
  await addAccount(page, name, type);
  await page.reload();
  await page.locator('[data-testid="tx-row"]').first().waitFor();
}

describe('quick entry in English on a desktop', () => {
  const live = serverAndBrowser(3187);
  let tab: Tab;
  const page = () => tab.page;
  const main = () => page().locator('main');

  before(async () => {
    tab = await live.openTab();
    await demoWithAccount(page(), 'Try the demo', 'Visa', 'credit_card');
  });

  it('n opens the form with the amount focused, and Enter saves', async () => {
    await page().locator('body').press('n');
    const dialog = page().getByRole('dialog', { name: 'New transaction' });
    await dialog.waitFor();
    await untilFocused(page(), 'amount');
    await page().keyboard.type('27.5');
    await dialog.locator('input[name="note"]').fill('Lunch');
    // the lexicon knows lunch: Food is preselected
    await until(
      async () => (await dialog.locator('select[name="category_id"] option:checked').innerText()) === 'Food',
      'Food preselected',
    );
    assert.deepEqual(await axeViolations(page()), [], 'the add form');
    await dialog.locator('input[name="note"]').press('Enter');
    await page().getByText('Transaction added').last().waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = main().locator('[data-testid="tx-row"]', { hasText: 'Lunch' }).filter({ hasText: '-¥27.50' }).first();
    await row.waitFor();
    // each row shows its account
    assert.match(await row.innerText(), /Cash/);
    // a tap opens it, with delete inside
    await row.click();
    const edit = page().getByRole('dialog', { name: 'Edit transaction' });
    await edit.getByTestId('tx-delete').click();
    await page().getByRole('dialog', { name: 'Delete transaction' }).getByRole('button', { name: 'Delete' }).click();
    await page().getByText('Transaction deleted').waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it('reads "coffee 4.5 yesterday visa" and shows each part before saving', async () => {
    await page().getByTestId('new-entry').click();
    const dialog = page().getByRole('dialog', { name: 'New transaction' });
    await dialog.getByTestId('quick-line').fill('coffee 4.5 yesterday visa');
    const understood = dialog.getByTestId('understood');
    await until(
      async () => (await understood.locator('[data-part="category"] dd').innerText()) === 'Food',
      'the category read',
    );
    assert.equal(await understood.locator('[data-part="amount"] dd').innerText(), '¥4.50');
    assert.equal(await understood.locator('[data-part="account"] dd').innerText(), 'Visa');
    assert.equal(await understood.locator('[data-part="note"] dd').innerText(), 'coffee');
    // the parts are in the fields, every one correctable
    assert.equal(await dialog.locator('input[name="amount"]').inputValue(), '4.5');
    assert.equal(await dialog.getByRole('button', { name: 'Yesterday' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await dialog.locator('select[name="account_id"] option:checked').innerText(), 'Visa · Chinese Yuan');
    await dialog.locator('input[name="amount"]').fill('4.8');
    await dialog.getByTestId('quick-line').press('Enter');
    await page().getByText('Transaction added').last().waitFor();
    await booksWithYesterday(page(), 'All time');
    // the row just saved, not the demo's "Coffee and a bagel" (paid in cash, and maybe of today)
    const row = main()
      .locator('[data-testid="tx-row"]', { hasText: /coffee/ })
      .filter({ hasText: 'Visa' })
      .first();
    await row.waitFor();
    assert.match(await row.innerText(), /-¥4\.80/);
    assert.match(await row.innerText(), /Visa/);
  });

  it('reads a transfer between two named accounts, listed as "A → B" without a sign', async () => {
    await page().locator('body').press('n');
    const dialog = page().getByRole('dialog', { name: 'New transaction' });
    await dialog.getByTestId('quick-line').fill('transfer 50 from cash to visa');
    const understood = dialog.getByTestId('understood');
    await until(
      async () => (await understood.locator('[data-part="kind"] dd').innerText()) === 'Transfer',
      'the kind read',
    );
    assert.equal(await understood.locator('[data-part="account"] dd').innerText(), 'Cash');
    assert.equal(await understood.locator('[data-part="to"] dd').innerText(), 'Visa');
    assert.equal(await dialog.getByRole('radio', { name: 'Transfer' }).getAttribute('aria-checked'), 'true');
    await dialog.getByTestId('quick-line').press('Enter');
    await page().getByText('Transaction added').last().waitFor();
    const row = main().locator('[data-testid="tx-row"]', { hasText: 'Cash → Visa' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /¥50\.00/);
    assert.doesNotMatch(await row.innerText(), /[-−]¥50\.00/);
  });

  it('a word it does not know preselects nothing', async () => {
    await page().locator('body').press('n');
    const dialog = page().getByRole('dialog', { name: 'New transaction' });
    await dialog.getByTestId('quick-line').fill('zxqv 12');
    await until(
      async () =>
        (await dialog.getByTestId('understood').locator('[data-part="category"] dd').innerText()) ===
        'not sure, choose below',
      'unsure',
    );
    await page().waitForTimeout(600);
    assert.equal(await dialog.locator('select[name="category_id"]').inputValue(), '');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Choose a category.').or(dialog.locator('.error')).first().waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("records a refund against its purchase: money back in the purchase's category and account", async () => {
    await page().locator('body').press('n');
    let dialog = page().getByRole('dialog', { name: 'New transaction' });
    await dialog.getByTestId('quick-line').fill('running shoes 100 visa');
    await until(async () => (await dialog.locator('input[name="amount"]').inputValue()) === '100', 'the amount');
    await dialog.getByTestId('quick-line').press('Enter');
    await page().getByText('Transaction added').last().waitFor();
    await dialog.waitFor({ state: 'detached' });
    await main().locator('[data-testid="tx-row"]', { hasText: 'running shoes' }).first().waitFor();
    const expenseBefore = await figure('Expense');
    assert.ok(expenseBefore >= 100, `expense ${expenseBefore}`);

    await page().locator('body').press('n');
    dialog = page().getByRole('dialog', { name: 'New transaction' });
    await dialog.getByRole('radio', { name: 'Refund' }).click();
    await dialog.locator('input[name="purchase-search"]').fill('running shoes');
    await until(
      async () => (await dialog.getByTestId('refund-of').locator('option').count()) === 2,
      'the purchase found',
    );
    const option = await dialog.getByTestId('refund-of').locator('option').nth(1).getAttribute('value');
    await dialog.getByTestId('refund-of').selectOption(option!);
    await dialog.locator('input[name="amount"]').fill('30');
    assert.equal(await dialog.locator('select[name="account_id"] option:checked').innerText(), 'Visa · Chinese Yuan');
    await dialog.locator('input[name="amount"]').press('Enter');
    await page().getByText('Transaction added').last().waitFor();
    const row = main().locator('[data-testid="tx-row"]', { hasText: 'Refund' }).filter({ hasText: '+¥30.00' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /Shopping/);
    // the month's expense went down by the 30 given back (by hand: before - 30)
    await until(async () => (await figure('Expense')) === expenseBefore - 30, 'expense reduced');
    assert.deepEqual(tab.problems, []);
  });

  async function figure(label: string): Promise<number> {
    // the full figure: the title when it is shown in compact notation
    const strong = main()
      .locator('.figures .figure')
      .filter({ has: page().getByText(label, { exact: true }) })
      .locator('strong');
    const text = (await strong.getAttribute('title')) ?? (await strong.innerText());
    return Number((text.match(/¥([\d,]+\.\d\d)/)?.[1] ?? 'NaN').replace(/,/g, ''));
  }
});

describe('quick entry in Chinese on a phone', () => {
  const live = serverAndBrowser(3188);
  let tab: Tab;
  const page = () => tab.page;

  before(async () => {
    tab = await live.openTab({ locale: 'zh-CN', viewport: PHONE });
    await demoWithAccount(page(), '体验一下', '微信', 'e_wallet');
  });

  async function line(text: string, expect: Record<string, string>) {
    await page().getByTestId('tab-add').click();
    const dialog = page().getByRole('dialog', { name: '记一笔' });
    await dialog.getByTestId('quick-line').fill(text);
    const understood = dialog.getByTestId('understood');
    for (const [part, value] of Object.entries(expect)) {
      await until(
        async () => (await understood.locator(`[data-part="${part}"] dd`).innerText()) === value,
        `${text}: ${part} = ${value}`,
      ).catch(async (err) => {
        throw new Error(`${(err as Error).message}, read: ${await understood.innerText().catch(() => 'nothing')}`);
      });
    }
    return dialog;
  }

  it('reads "昨天 打车 32 微信" at 390 px, in Chinese only, and saves with Enter', async () => {
    const dialog = await line('昨天 打车 32 微信', {
      kind: '支出',
      amount: '¥32.00',
      category: '交通',
      account: '微信',
      note: '打车',
    });
    assert.equal(await dialog.getByRole('button', { name: '昨天' }).getAttribute('aria-pressed'), 'true');
    const text = await page().locator('body').innerText();
    assert.deepEqual(
      (text.match(/[A-Za-z]{2,}/g) ?? []).filter(
        (w) => !['CSV', 'JSON', 'Excel', 'MB', 'https', 'http', 'English'].includes(w),
      ),
      [],
    );
    assert.deepEqual(await axeViolations(page()), []);
    assert.ok(
      await page().evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'no sideways scroll',
    );
    await dialog.getByTestId('quick-line').press('Enter');
    await page().getByText('已记一笔').last().waitFor();
    await booksWithYesterday(page(), '全部时间');
    const row = page().locator('[data-testid="tx-row"]', { hasText: '打车' }).filter({ hasText: '-¥32.00' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /微信/);
  });

  it('reads 三十五块 and 工资 8000 收入', async () => {
    let dialog = await line('午饭 三十五块', { amount: '¥35.00', category: '餐饮', note: '午饭' });
    assert.equal(await dialog.locator('input[name="amount"]').inputValue(), '35');
    await dialog.getByRole('button', { name: '保存' }).click();
    await page().getByText('已记一笔').last().waitFor();
    await page()
      .locator('[data-testid="tx-row"]', { hasText: '午饭' })
      .filter({ hasText: '-¥35.00' })
      .first()
      .waitFor();

    dialog = await line('工资 8000 收入', { kind: '收入', amount: '¥8,000.00', category: '工资', note: '工资' });
    assert.equal(
      await dialog.locator('.kinds').getByRole('radio', { name: '收入', exact: true }).getAttribute('aria-checked'),
      'true',
    );
    await dialog.getByTestId('quick-line').press('Enter');
    await page().getByText('已记一笔').last().waitFor();
    await page()
      .locator('[data-testid="tx-row"]', { hasText: '工资' })
      .filter({ hasText: '+¥8,000.00' })
      .first()
      .waitFor();
  });

  it('records a refund without a purchase in the chosen category', async () => {
    await page().getByTestId('tab-add').click();
    const dialog = page().getByRole('dialog', { name: '记一笔' });
    await dialog.getByRole('radio', { name: '退款' }).click();
    await dialog.locator('input[name="amount"]').fill('12');
    await dialog.locator('select[name="category_id"]').selectOption({ label: '购物' });
    await dialog.locator('input[name="note"]').fill('退货');
    assert.deepEqual(await axeViolations(page()), []);
    await dialog.locator('input[name="note"]').press('Enter');
    await page().getByText('已记一笔').last().waitFor();
    const row = page().locator('[data-testid="tx-row"]', { hasText: '退货' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /退款/);
    assert.match(await row.innerText(), /\+¥12\.00/);
    assert.deepEqual(tab.problems, []);
  });
});
