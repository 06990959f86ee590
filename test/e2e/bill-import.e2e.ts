// Importing bills in the browser: every sample layout (WeChat Pay CSV and XLSX, Alipay app and web
// CSV, a bank CSV through a saved column mapping) previewed, corrected in bulk, a correction made a
// rule, committed, and the same file again showing nothing new; the errors of a file too large,
// of no known layout and with a malformed row; the rules page; once in Chinese on a phone.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE, axeViolations, serverAndBrowser, until, type Tab } from './harness.ts';

const PORT = 3160;
const fixture = (name: string) => `test/fixtures/bills/${name}`;

/** Console problems other than the refusals the test asks for (42203, 41301). */
const realProblems = (tab: Tab) => tab.problems.filter((p) => !/status of (413|422)/.test(p));

async function choose(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto('/import');
  await page.getByTestId('bill-file').setInputFiles(file);
}

const rowsOf = (page: Page, decision?: string) => page.locator(`[data-testid="bill-rows"] tbody tr${decision ? `[data-decision="${decision}"]` : ''}`);

/**
 * The preview of a freshly chosen file: checks its format and row count, sets a category on two
 * expense rows in bulk, corrects one row's category and makes it a rule, commits, and chooses the
 * same file again to find every imported row a duplicate.
 */
async function previewCommitAgain(page: Page, file: string, opts: { format: RegExp; rows: number; lang: 'en' | 'zh' }) {
  await page.getByTestId('bill-preview').waitFor();
  assert.match(await page.getByTestId('bill-format').innerText(), opts.format);
  assert.equal(await rowsOf(page).count(), opts.rows);

  // bulk: two rows of one kind to import get the same category
  let expenses = page.locator('[data-testid="bill-rows"] tbody tr[data-decision="import"][data-kind="expense"]');
  if ((await expenses.count()) < 2) expenses = page.locator('[data-testid="bill-rows"] tbody tr[data-decision="import"][data-kind="income"]');
  assert.ok((await expenses.count()) >= 2, 'at least two rows of one kind to import');
  const first = expenses.nth(0);
  const second = expenses.nth(1);
  const rowA = await first.getAttribute('data-row');
  const rowB = await second.getAttribute('data-row');
  await first.locator('input[type="checkbox"]').check();
  await second.locator('input[type="checkbox"]').check();
  const bulkCategory = page.locator('select[name="bulk_category"]');
  const options = bulkCategory.locator('option');
  const target = await options.nth(2).getAttribute('value');
  assert.ok(target);
  await bulkCategory.selectOption(target);
  await page.getByTestId('bulk-apply').click();
  for (const r of [rowA, rowB]) {
    const select = page.locator(`tr[data-row="${r}"] select[data-col="category"]`);
    await until(async () => (await select.inputValue()) === target, `row ${r} in the bulk category`);
  }
  assert.equal(await page.locator('input[type="checkbox"]:checked').count(), 0, 'the selection is cleared after a bulk edit');

  // one row corrected by hand becomes a rule
  const row = page.locator(`tr[data-row="${rowA}"]`);
  const counterparty = (await row.locator('[data-col="counterparty"]').innerText()).trim();
  const other = await row.locator('select[data-col="category"] option').nth(3).getAttribute('value');
  await row.locator('select[data-col="category"]').selectOption(other!);
  await row.getByTestId('make-rule').click();
  await page.getByText(opts.lang === 'en' ? `Rule added: counterparty contains “${counterparty}”` : `已添加规则：交易对方包含“${counterparty}”`).first().waitFor();
  await row.getByTestId('make-rule').waitFor({ state: 'detached' });

  const written = (await rowsOf(page, 'import').count()) + (await rowsOf(page, 'transfer').count());
  await page.getByTestId('bill-commit').click();
  const result = await page.getByTestId('bill-result').innerText();
  assert.match(result, opts.lang === 'en' ? /^Imported \d+/ : /^已导入 \d+ 条/);

  // the same file again: nothing new
  await page.getByTestId('bill-again').click();
  await page.getByTestId('bill-file').setInputFiles(file);
  await page.getByTestId('bill-preview').waitFor();
  assert.equal(await rowsOf(page, 'import').count(), 0, 'nothing to import a second time');
  assert.equal(await rowsOf(page, 'transfer').count(), 0, 'no transfer a second time');
  assert.equal(await rowsOf(page, 'duplicate').count(), written, 'every row written before is a duplicate now');
  const dup = rowsOf(page, 'duplicate').first().locator('[data-col="decision"]').first();
  assert.equal((await dup.innerText()).trim(), opts.lang === 'en' ? 'Already imported' : '已导入过');
  await page.getByRole('button', { name: opts.lang === 'en' ? 'Discard' : '放弃' }).click();
  return { rule: counterparty };
}

describe('bill import in the browser', () => {
  const live = serverAndBrowser(PORT);

  it('a WeChat Pay CSV: preview, bulk edit, a rule, commit, again; then the rules page', async () => {
    const tab = await live.signedInTab('bill-wechat-csv');
    const { page } = tab;
    await page.goto('/data');
    await page.getByRole('link', { name: 'Import bills' }).first().click();
    await page.waitForURL(/\/import$/);
    await choose(page, fixture('wechat.csv'));
    const { rule } = await previewCommitAgain(page, fixture('wechat.csv'), { format: /WeChat Pay bill/, rows: 15, lang: 'en' });
    // a closed trade is skipped with its reason
    await page.getByTestId('bill-file').setInputFiles(fixture('wechat.csv'));
    await page.getByTestId('bill-preview').waitFor();
    assert.match(await page.locator('tr[data-row="8"] [data-col="reason"]').innerText(), /Closed or failed trade/);
    // a payment method mapped to an account is remembered
    await page.getByTestId('bill-methods').locator('summary').click();
    const method = page.getByTestId('bill-methods').locator('select').first();
    await method.selectOption({ index: 1 });
    await page.getByText(/will be booked to this account from now on/).first().waitFor();

    await page.goto('/import/rules');
    const list = page.getByTestId('rule-list');
    await list.getByText(`Counterparty contains “${rule}”`).waitFor();
    const form = page.getByTestId('rule-form');
    await form.locator('select[name="rule_field"]').selectOption('note');
    await form.locator('input[name="rule_value"]').fill('房租');
    await form.locator('select[name="rule_category"]').selectOption({ index: 1 });
    await form.locator('button[type="submit"]').click();
    await list.getByText('Note or item contains “房租”').waitFor();
    assert.equal(await list.locator('li').count(), 2);
    // the new rule moves first
    await list.locator('li').nth(1).getByTestId('rule-up').click();
    await until(async () => (await list.locator('li').first().innerText()).includes('房租'), 'the moved rule first');
    // change it, then delete the other
    await list.locator('li').first().getByTestId('rule-edit').click();
    await form.locator('select[name="rule_match"]').selectOption('starts_with');
    await form.locator('button[type="submit"]').click();
    await list.getByText('Note or item starts with “房租”').waitFor();
    await list.locator('li').nth(1).getByTestId('rule-delete').click();
    await until(async () => (await list.locator('li').count()) === 1, 'one rule left');
    assert.deepEqual(realProblems(tab), []);
    await tab.context.close();
  });

  it('a WeChat Pay XLSX', async () => {
    const tab = await live.signedInTab('bill-wechat-xlsx');
    await choose(tab.page, fixture('wechat.xlsx'));
    await previewCommitAgain(tab.page, fixture('wechat.xlsx'), { format: /WeChat Pay bill/, rows: 15, lang: 'en' });
    assert.deepEqual(realProblems(tab), []);
    await tab.context.close();
  });

  it('an Alipay web export (GB18030)', async () => {
    const tab = await live.signedInTab('bill-alipay-web');
    await choose(tab.page, fixture('alipay-web.csv'));
    await previewCommitAgain(tab.page, fixture('alipay-web.csv'), { format: /Alipay bill/, rows: 6, lang: 'en' });
    assert.deepEqual(realProblems(tab), []);
    await tab.context.close();
  });

  it('a bank CSV: the columns mapped and saved, then the same header read with the saved mapping', async () => {
    const tab = await live.signedInTab('bill-bank');
    const { page } = tab;
    await choose(page, fixture('bank.csv'));
    await page.getByTestId('bill-recognised').filter({ hasText: '记账日期 | 货币 | 交易金额' }).waitFor();
    const form = page.getByTestId('mapping-form');
    await form.locator('input[name="preset_name"]').fill('示例银行');
    await form.locator('select[name="map_date"]').selectOption('记账日期');
    await form.locator('select[name="map_date_format"]').selectOption('YYYY-MM-DD');
    await form.locator('input[name="map_style"][value="amount"]').check();
    await form.locator('select[name="map_amount"]').selectOption('交易金额');
    await form.locator('select[name="map_sign"]').selectOption('negative_is_expense');
    await form.locator('select[name="map_description"]').selectOption('交易摘要');
    await form.locator('select[name="map_counterparty"]').selectOption('对手信息');
    await form.locator('select[name="map_external_id"]').selectOption('流水号');
    await page.getByTestId('mapping-save').click();
    await previewCommitAgain(page, fixture('bank.csv'), { format: /Bank statement/, rows: 5, lang: 'en' });
    await page.goto('/import/rules');
    await page.getByTestId('preset-list').getByText('示例银行').waitFor();
    assert.deepEqual(realProblems(tab), []);
    await tab.context.close();
  });

  it('clear errors: too large, no known layout, a malformed row', async () => {
    const tab = await live.signedInTab('bill-errors');
    const { page } = tab;
    // a path, not a buffer: the browser reads it from disk instead of 21 MB going through the protocol
    const big = join(mkdtempSync(join(tmpdir(), 'bill-big-')), 'big.csv');
    writeFileSync(big, Buffer.alloc(21 * 1024 * 1024, 0x41));
    await choose(page, big);
    await page.getByTestId('bill-error').getByText('The file is too large: at most 20 MB and 100,000 rows.').waitFor();
    rmSync(dirname(big), { recursive: true, force: true });
    await choose(page, fixture('unknown.csv'));
    await page.getByTestId('bill-error').getByText('This file is not a bill we know.', { exact: false }).waitFor();
    await page.getByTestId('bill-recognised').filter({ hasText: 'What we found: a CSV file, encoding UTF-8' }).waitFor();
    await page.getByTestId('mapping-form').waitFor();
    const bad = readFileSync(fixture('wechat.csv'), 'utf8').replace('¥12.50', '¥12.5x');
    await choose(page, { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByTestId('bill-error').getByText('1 row could not be read; nothing was kept.').waitFor();
    await page.getByTestId('bill-row-errors').getByText(/^Row 2: /).waitFor();
    assert.deepEqual(realProblems(tab), []);
    await tab.context.close();
  });

  it('in Chinese on a phone: an Alipay app bill', async () => {
    const tab = await live.signedInTab('bill-alipay-zh', { locale: 'zh-CN', viewport: PHONE });
    const { page } = tab;
    await page.goto('/me');
    await page.getByRole('link', { name: '导入账单' }).click();
    await page.waitForURL(/\/import$/);
    await page.getByRole('heading', { name: '导入账单' }).waitFor();
    await page.getByTestId('bill-file').setInputFiles(fixture('alipay.csv'));
    await page.getByTestId('bill-preview').waitFor();
    await page.getByTestId('bill-methods').getByText('支付方式对应账户').waitFor();
    // at 390 px the page itself never scrolls sideways: the table scrolls inside its card
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'no horizontal page scroll at 390 px');
    assert.deepEqual(await axeViolations(page), [], 'the preview: accessibility');
    await previewCommitAgain(page, fixture('alipay.csv'), { format: /识别为：支付宝账单/, rows: 12, lang: 'zh' });
    await page.goto('/import/rules');
    await page.getByRole('heading', { name: '导入规则' }).waitFor();
    await page.getByTestId('rule-list').getByText('交易对方包含“').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the rules page: accessibility');
    assert.deepEqual(realProblems(tab), []);
    await tab.context.close();
  });
});
