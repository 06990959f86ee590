// Currencies kept and nothing counted twice, from the web: a line naming euros booked on a pound
// card (the missing rate entered inside the add form, the draft kept), then a taxi typed by hand
// that a WeChat Pay bill imported afterwards holds: counted once, and typing it again warns first.
// Once in English on a desktop, once in Chinese on a phone.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { wechatCsv } from '../fixtures/bills/generate.ts';
import { PHONE, apiAs, axeViolations, serverAndBrowser, until, type Tab } from './harness.ts';

const PORT = 3283;
const today = () => new Date().toISOString().slice(0, 10);

interface Tx {
  id: number;
  amount: number;
  currency: string;
  date: string;
  note: string;
  original_amount: number | null;
  original_currency: string | null;
}

interface Lang {
  name: string;
  locale: string;
  viewport?: { width: number; height: number };
  title: string;
  save: string;
  saveAnyway: string;
  rateSave: string;
  base: string;
  /** the line with euros on the pound card, and the card */
  dinner: string;
  card: string;
  /**
   * rates the user has before (base units per unit), the one they enter in the form, and the pounds and base amount
   * expected
   */
  rates: { currency: string; rate: string }[];
  entered: string;
  pounds: number;
  wallet: string;
  taxi: string;
}

const LANGS: Lang[] = [
  {
    name: 'in English on a desktop',
    locale: 'en-GB',
    title: 'New transaction',
    save: 'Save',
    saveAnyway: 'Save anyway',
    rateSave: 'Save the rate and the entry',
    base: 'GBP',
    dinner: 'dinner 45 eur amex',
    card: 'Amex',
    rates: [],
    entered: '0.86',
    // 45 × 0.86
    pounds: 38.7,
    wallet: 'WeChat',
    taxi: 'taxi 32 cny wechat',
  },
  {
    name: 'in Chinese on a phone',
    locale: 'zh-CN',
    viewport: PHONE,
    title: '记一笔',
    save: '保存',
    saveAnyway: '仍然保存',
    rateSave: '保存汇率并记账',
    base: 'CNY',
    dinner: '晚饭 45欧元 英镑卡',
    card: '英镑卡',
    rates: [{ currency: 'GBP', rate: '9.1' }],
    entered: '7.8',
    // 45 × 7.8 = 351 yuan, / 9.1 = 38.571... pounds
    pounds: 38.57,
    wallet: '微信',
    taxi: '打车 32 微信',
  },
];

/**
 * Opens the add form (the tab bar on a phone, the New button on a desktop) and types a line, read once it shows its
 * amount.
 */
async function typeLine(page: Page, lang: Lang, line: string) {
  const phone = (page.viewportSize()?.width ?? 1280) < 700;
  await page.getByTestId(phone ? 'tab-add' : 'new-entry').click();
  const dialog = page.getByRole('dialog', { name: lang.title });
  await dialog.getByTestId('quick-line').fill(line);
  await dialog.locator('[data-part="amount"]').waitFor();
  // the lexicon's category, unless the history has taught the suggester otherwise
  const category = dialog.locator('select[name="category_id"]');
  if (!(await category.inputValue())) await category.selectOption({ index: 1 });
  return dialog;
}

const transactions = async (page: Page) =>
  (await apiAs<{ list: Tx[] }>(page, 'GET', '/api/transactions?pageSize=50')).list;
const balanceOf = async (page: Page, name: string) =>
  (await apiAs<{ list: { name: string; balance: number }[] }>(page, 'GET', '/api/accounts')).list.find(
    (a) => a.name === name,
  )!.balance;

describe('paid in another currency, and nothing counted twice', () => {
  const live = serverAndBrowser(PORT);

  for (const lang of LANGS) {
    describe(lang.name, () => {
      let tab: Tab;
      const page = () => tab.page;
      before(async () => {
        tab = await live.signedInTab(`fx-twice-${lang.base}-${process.pid}`, {
          locale: lang.locale,
          ...(lang.viewport ? { viewport: lang.viewport } : {}),
        });
        await apiAs(page(), 'PUT', '/api/me', { base_currency: lang.base, timezone: 'UTC' });
        await apiAs(page(), 'POST', '/api/accounts', { name: lang.card, type: 'credit_card', currency: 'GBP' });
        await apiAs(page(), 'POST', '/api/accounts', { name: lang.wallet, type: 'e_wallet', currency: 'CNY' });
        const rates = [...lang.rates, ...(lang.base === 'GBP' ? [{ currency: 'CNY', rate: '0.11' }] : [])];
        await apiAs(page(), 'PUT', '/api/rates', { rates: rates.map((r) => ({ ...r, date: today() })) });
        await page().goto('/books');
      });

      it('books the euros on the pound card, the missing rate entered in the form and the draft kept', async () => {
        const dialog = await typeLine(page(), lang, lang.dinner);
        assert.match(await dialog.locator('[data-part="amount"]').innerText(), /€\s?45\.00|45\.00\s?€/);
        assert.equal(await dialog.getByTestId('tx-currency').inputValue(), 'EUR');
        await dialog.getByRole('button', { name: lang.save, exact: true }).click();
        const ask = dialog.getByTestId('entry-rate');
        await ask.waitFor();
        // the draft is all there, and no link leads away from it
        assert.equal(await dialog.locator('input[name="amount"]').inputValue(), '45');
        assert.equal(await dialog.getByTestId('tx-currency').inputValue(), 'EUR');
        assert.equal(await dialog.getByTestId('missing-rate-link').count(), 0);
        assert.deepEqual(await axeViolations(page()), [], 'the rate asked in the form: accessibility');
        if (lang.viewport) {
          const width = await page().evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= lang.viewport.width, `the add form is ${width} px wide`);
        }
        await dialog.getByTestId('entry-rate-input').fill(lang.entered);
        await dialog.getByRole('button', { name: lang.rateSave }).click();
        await dialog.waitFor({ state: 'detached' });

        const list = await transactions(page());
        const dinner = list.find((x) => x.original_currency === 'EUR');
        assert.deepEqual(
          [dinner?.amount, dinner?.currency, dinner?.original_amount, dinner?.original_currency],
          [lang.pounds, 'GBP', 45, 'EUR'],
          JSON.stringify(list),
        );
        // the card owes what it was charged, in pounds
        assert.equal(await balanceOf(page(), lang.card), -lang.pounds);
        await page()
          .locator('[data-testid="tx-row"]', { hasText: String(lang.pounds) })
          .first()
          .waitFor();
      });

      it('counts a taxi typed by hand once when the WeChat bill that holds it is imported', async () => {
        const typed = await typeLine(page(), lang, lang.taxi);
        await typed.getByRole('button', { name: lang.save, exact: true }).click();
        await typed.waitFor({ state: 'detached' });

        const bill = wechatCsv([
          [
            `${today()} 08:15:00`,
            '商户消费',
            '滴滴出行',
            '快车',
            '支出',
            '¥32.00',
            '零钱',
            '支付成功',
            `42000${process.pid}0001`,
            `M${process.pid}1`,
            '/',
          ],
          [
            `${today()} 09:30:00`,
            '商户消费',
            '瑞幸咖啡',
            '拿铁',
            '支出',
            '¥9.90',
            '零钱',
            '支付成功',
            `42000${process.pid}0002`,
            `M${process.pid}2`,
            '/',
          ],
        ]);
        await page().goto('/import');
        await page().getByTestId('bill-file').setInputFiles({ name: 'wechat.csv', mimeType: 'text/csv', buffer: bill });
        await page().getByTestId('bill-preview').waitFor();
        // the payment method is the wallet the taxi was typed in
        const method = page().getByTestId('bill-methods').locator('select.missing').first();
        if (await method.count()) {
          // the account itself, not the offer to create one named after the method ("新建账户“微信零钱”")
          const option = method.locator('option', { hasText: new RegExp(`^\\s*${lang.wallet}\\s*$`) }).first();
          await method.selectOption((await option.getAttribute('value'))!);
        }
        const taxiRow = page().locator('[data-testid="bill-rows"] li[data-row="1"]');
        await until(
          async () => (await taxiRow.getAttribute('data-decision')) === 'duplicate',
          'the taxi already in the books',
        );
        const coffee = page().locator('[data-testid="bill-rows"] li[data-row="2"] select[data-col="category"]');
        if ((await coffee.count()) && !(await coffee.inputValue())) await coffee.selectOption({ index: 1 });
        assert.deepEqual(await axeViolations(page()), [], 'the review: accessibility');
        await page().getByTestId('bill-commit').click();
        await page().getByTestId('bill-result').waitFor();

        const fares = (await transactions(page())).filter((x) => x.amount === 32 && x.date === today());
        assert.equal(fares.length, 1, 'the taxi once');
        assert.match(fares[0]!.note, /滴滴出行/);
        // the wallet paid the taxi and the coffee, once each
        assert.equal(await balanceOf(page(), lang.wallet), -41.9);
      });

      it('warns before the same taxi is typed again', async () => {
        await page().goto('/books');
        const dialog = await typeLine(page(), lang, lang.taxi);
        await dialog.getByRole('button', { name: lang.save, exact: true }).click();
        await dialog.getByTestId('entry-duplicates').filter({ hasText: '滴滴出行' }).waitFor();
        await dialog.getByRole('button', { name: lang.saveAnyway, exact: true }).waitFor();
        assert.deepEqual(await axeViolations(page()), [], 'the warning: accessibility');
        await page().keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        assert.equal((await transactions(page())).filter((x) => x.amount === 32).length, 1);
      });

      it('left nothing in the console but the one refusal for want of a rate', () => {
        const refusal = 'error: Failed to load resource: the server responded with a status of 400 (Bad Request)';
        assert.deepEqual(tab.problems, [refusal]);
      });
    });
  }
});
