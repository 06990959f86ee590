// One person's books in a desktop browser, in English: demo sign-in, transactions, filters and
// saved filters, charts and their click-through, budget, recurring bills, profile and avatar,
// export and re-import. Every screen is checked with axe; the console must stay clean.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { axeViolations, screenshotPath, serverAndBrowser, until, type Tab } from './harness.ts';

describe('books in the browser (desktop, English)', () => {
  const live = serverAndBrowser(3110);
  let tab: Tab;

  before(async () => {
    tab = await live.openTab();
  });

  const page = () => tab.page;
  const main = () => page().locator('main');
  async function accessible(name: string) {
    assert.deepEqual(await axeViolations(page()), [], `${name}: serious or critical accessibility violations`);
  }

  it('signs in with the demo and lists this month grouped by day with subtotals', async () => {
    await page().goto('/');
    await page().waitForURL(/\/signin/);
    assert.equal(await page().locator('html').getAttribute('lang'), 'en');
    await accessible('sign-in');
    await page().getByRole('button', { name: 'Try the demo' }).click();
    await page().waitForURL(/\/books$/);
    await page().locator('[data-testid="tx-row"]').first().waitFor();
    const days = main().locator('section.day');
    assert.ok((await days.count()) > 1);
    assert.match(await days.first().locator('.dayhead').innerText(), /Out ¥[\d,]+\.\d\d/);
    // the current month is the default, not an active filter
    assert.equal(
      (
        await page()
          .getByRole('button', { name: /^Filters/ })
          .innerText()
      ).trim(),
      'Filters',
    );
    await accessible('books');
  });

  it('suggests the category while typing, adds, edits and deletes a transaction', async () => {
    await page().getByTestId('new-entry').click();
    const add = page().getByRole('dialog', { name: 'New transaction' });
    await add.locator('input[name="amount"]').fill('27.5');
    await add.locator('input[name="note"]').fill('Lunch');
    const suggestion = add.getByRole('group', { name: 'Suggested' }).getByRole('button').first();
    await suggestion.waitFor();
    assert.equal(await suggestion.innerText(), 'Food');
    await until(
      async () => (await add.locator('select[name="category_id"] option:checked').innerText()) === 'Food',
      'Food preselected',
    );
    await add.getByRole('button', { name: 'Save' }).click();
    await page().getByText('Transaction added').waitFor();
    const row = main().locator('[data-testid="tx-row"]', { hasText: '-¥27.50' }).filter({ hasText: 'Lunch' }).first();
    await row.waitFor();

    // a tap on the row opens it
    await row.click();
    const dialog = page().getByRole('dialog', { name: 'Edit transaction' });
    await dialog.locator('input[name="amount"]').fill('31');
    await dialog.locator('input[name="note"]').fill('Lunch with the team');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page().getByText('Transaction saved').waitFor();
    const edited = main().locator('[data-testid="tx-row"]', { hasText: 'Lunch with the team' });
    await edited.waitFor();
    assert.match(await edited.innerText(), /-¥31\.00/);

    // delete is inside the opened row
    await edited.click();
    await page().getByRole('dialog', { name: 'Edit transaction' }).getByRole('button', { name: 'Delete' }).click();
    await page().getByRole('dialog', { name: 'Delete transaction' }).getByRole('button', { name: 'Delete' }).click();
    await page().getByText('Transaction deleted').waitFor();
    await edited.waitFor({ state: 'detached' });
  });

  it('filters, saves the filters, applies the saved filter, renames and deletes it', async () => {
    await page()
      .getByRole('button', { name: /^Filters/ })
      .click();
    await page().locator('#filters input[name="keyword"]').fill('Lunch');
    await page().locator('#filters').getByRole('button', { name: 'Apply' }).click();
    await page().getByRole('button', { name: 'Filters (1 active)' }).waitFor();
    const rows = main().locator('[data-testid="tx-row"]');
    await until(async () => {
      const texts = await rows.allInnerTexts();
      return texts.length > 0 && texts.every((x) => /lunch/i.test(x));
    }, 'the list filtered by the keyword');

    await page().getByRole('button', { name: 'Save filters…' }).click();
    const ask = page().getByRole('dialog', { name: 'Save filters…' });
    await ask.locator('input[name="value"]').fill('Lunches');
    await ask.getByRole('button', { name: 'Save' }).click();
    const chip = page().getByRole('button', { name: 'Lunches', exact: true });
    await chip.waitFor();
    assert.equal(await chip.getAttribute('aria-pressed'), 'true');

    await page().getByRole('button', { name: 'This month' }).click();
    await page().getByRole('button', { name: 'Filters', exact: true }).waitFor();
    assert.equal(await chip.getAttribute('aria-pressed'), 'false');
    await chip.click();
    await page().getByRole('button', { name: 'Filters (1 active)' }).waitFor();
    assert.equal(await chip.getAttribute('aria-pressed'), 'true');

    await page().getByRole('button', { name: 'Rename “Lunches”' }).click();
    const rename = page().getByRole('dialog', { name: 'Rename saved filters' });
    await rename.locator('input[name="value"]').fill('Midday meals');
    await rename.getByRole('button', { name: 'Save' }).click();
    const renamed = page().getByRole('button', { name: 'Midday meals', exact: true });
    await renamed.waitFor();

    await page().getByRole('button', { name: 'Delete “Midday meals”' }).click();
    await page().getByRole('dialog', { name: 'Delete saved filters' }).getByRole('button', { name: 'Delete' }).click();
    await renamed.waitFor({ state: 'detached' });
    await page().getByText('none yet').waitFor();
    await accessible('books with filters');
    await page().getByRole('button', { name: 'This month' }).click();
  });

  it('draws the charts, and a click on a slice opens the books of that category', async () => {
    await page().getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Statistics' }).click();
    const donut = page().locator('[data-testid="donut"]');
    await donut.locator('canvas').waitFor();
    await page().locator('[data-testid="trend"] canvas').waitFor();
    await accessible('statistics');
    await until(async () => (await page().locator('.toast').count()) === 0, 'the toasts to go');
    await page().screenshot({ path: screenshotPath('desktop.png') });
    const legend = await page().locator('ul.legend li').allInnerTexts();
    assert.ok(legend.length > 1);
    for (const line of legend) assert.match(line, /¥[\d,.]+\s+[\d.]+%/);

    // the ring at 3 o'clock: a slice is there whatever the data (once the opening animation ends)
    await page().locator('[data-testid="donut"][data-drawn]').waitFor();
    // the total in the middle of the ring does not replace the chart's own name for screen readers
    assert.equal(await donut.getAttribute('aria-label'), 'Expense by category, as a donut chart');
    const box = (await donut.boundingBox())!;
    // the ring runs from 55 % to 80 % of the radius around the centre, the total inside it
    const radius = (Math.min(box.width, box.height) / 2) * 0.675;
    await page().mouse.click(box.x + box.width / 2 + radius, box.y + box.height * 0.5);
    await page().waitForURL(/\/books\?.*category_ids=\d+/);
    const rows = main().locator('[data-testid="tx-row"]');
    await until(
      async () => (await rows.count()) > 0 && new Set(await rows.locator('.txmain strong').allInnerTexts()).size === 1,
      'the books of one category',
    );
    assert.match(
      await page()
        .getByRole('button', { name: /^Filters \(\d active\)$/ })
        .innerText(),
      /active/,
    );
  });

  it('passes axe in dark mode too', async () => {
    await page().emulateMedia({ colorScheme: 'dark' });
    await page().goto('/stats');
    await page().locator('[data-testid="donut"] canvas').waitFor();
    await accessible('statistics in dark mode');
    await page().goto('/books');
    await page().locator('[data-testid="tx-row"]').first().waitFor();
    await accessible('books in dark mode');
    await page().emulateMedia({ colorScheme: 'light' });
  });

  it('shows an empty state, not a flat line, for a period without records', async () => {
    await page().goto('/stats');
    await page().getByRole('radio', { name: 'Year' }).click();
    await page().getByRole('button', { name: 'Previous period' }).click();
    await page().getByRole('button', { name: 'Previous period' }).click();
    await page().locator('[data-testid="trend-empty"]').waitFor();
    await page().locator('[data-testid="share-empty"]').waitFor();
    assert.equal(await page().locator('[data-testid="trend"]').count(), 0);
  });

  it('sets a budget and shows its progress', async () => {
    await page().goto('/budget');
    const card = main().locator('section.budget').first();
    await card.locator('input[name="amount"]').fill('123456789.5');
    await card.getByRole('button', { name: 'Save' }).click();
    await page().getByText('Budget saved').waitFor();
    const bar = card.getByRole('progressbar');
    await bar.waitFor();
    assert.ok(Number(await bar.getAttribute('aria-valuenow')) >= 0);
    // a huge amount fits its card in compact notation, the full value in its title
    const figure = card.locator('.figure strong').first();
    assert.match(await figure.innerText(), /¥123(\.5)?M/);
    assert.equal(await figure.getAttribute('title'), '¥123,456,789.50');
    await accessible('budget');
  });

  it('creates a recurring bill', async () => {
    await page().goto('/recurring');
    await page().getByRole('button', { name: '+ Add' }).click();
    const dialog = page().getByRole('dialog', { name: 'New recurring bill' });
    await dialog.locator('input[name="amount"]').fill('2600');
    await dialog.locator('input[name="note"]').fill('Monthly rent');
    // chosen by hand: the suggester's guess arrives a moment later and only when it is sure
    await dialog.locator('select[name="category_id"]').selectOption({ label: 'Housing' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    const rule = main().locator('[data-testid="rule-row"]', { hasText: 'Monthly rent' });
    await rule.waitFor();
    assert.match(await rule.innerText(), /every month/);
    await accessible('recurring');
  });

  it('edits the profile, uploads an avatar and switches the language (remembered)', async () => {
    await page().goto('/profile');
    await page().locator('input[name="nickname"]').fill('Ada Books');
    await page().getByRole('button', { name: 'Save' }).click();
    await page().getByText('Profile saved').waitFor();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    await page()
      .locator('[data-testid="avatar-input"]')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page().getByText('Avatar updated').waitFor();
    await main().locator('img.avatar').waitFor();
    await accessible('profile');

    await page().getByRole('radio', { name: '中文' }).click();
    await page().getByRole('heading', { name: '个人资料' }).waitFor();
    assert.equal(await page().locator('html').getAttribute('lang'), 'zh-CN');
    await page().reload();
    await page().getByRole('heading', { name: '个人资料' }).waitFor();
    await page().getByRole('radio', { name: 'English' }).click();
    await page().getByRole('heading', { name: 'Profile' }).waitFor();
  });

  it('exports the month and imports it back (nothing new), and refuses a file that is not CSV or JSON', async () => {
    await page().goto('/data');
    await accessible('import and export');
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      page().getByRole('button', { name: 'Download' }).click(),
    ]);
    const file = await download.path();
    const csv = readFileSync(file);
    assert.match(csv.toString('utf8'), /^\uFEFFdate,kind,amount,category,note,tags,group_id,created_at/);

    await page().locator('input[name="dry_run"]').uncheck();
    await page()
      .locator('[data-testid="import-file"]')
      .setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: csv });
    await page().getByRole('button', { name: 'Upload' }).click();
    const result = page().locator('[data-testid="import-result"]');
    await result.waitFor();
    assert.match(await result.innerText(), /^Imported 0 rows; \d+ skipped as duplicates\.$/);

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    await page()
      .locator('[data-testid="import-file"]')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
    await page().getByRole('button', { name: 'Upload' }).click();
    await page().getByText('Only CSV or JSON files exported from here can be imported.').waitFor();
  });

  it('left nothing in the console', () => {
    assert.deepEqual(tab.problems, []);
  });
});
