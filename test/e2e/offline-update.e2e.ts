// The update prompt of the installed app: when a new service worker is deployed the page offers to reload, and does not
// reload while a form holds unsaved input (the add dialog, being modal, keeps the prompt out of reach while open); once
// the input is gone, Reload starts the new version. The "deployment" is the same build with a changed sw.js, put
// back afterwards.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { webRoot } from '../../src/plugins/web.ts';
import { serverAndBrowser, signInWechat, type Tab } from './harness.ts';

describe('the update prompt (desktop, English)', () => {
  const live = serverAndBrowser(3152);
  let tab: Tab;
  const sw = path.join(webRoot, 'sw.js');
  const original = readFileSync(sw);

  before(async () => {
    tab = await live.openTab({ serviceWorkers: 'allow' });
  });
  after(async () => {
    writeFileSync(sw, original);
  });

  it('offers the new version, never reloads over an open form, reloads once it is closed', async () => {
    const page = tab.page;
    await signInWechat(page, 'update-prompt');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    appendFileSync(sw, '\n// a new deployment\n');
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByTestId('update-prompt');
    await prompt.getByText('A new version is ready.').waitFor({ timeout: 20_000 });

    // something typed in a form and not saved: Reload only asks to finish it first
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Feedback' }).click();
    const content = page.locator('main form textarea[name="content"]');
    await content.fill('Garden');
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await prompt.getByText('Save or cancel the form you are filling in first.').waitFor();
    await page.waitForTimeout(1000);
    assert.equal(
      await page.evaluate(() => (window as unknown as { marker?: number }).marker),
      1,
      'the page was not reloaded',
    );
    assert.equal(await content.inputValue(), 'Garden');

    await content.fill('');
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await page.waitForFunction(() => (window as unknown as { marker?: number }).marker === undefined, null, {
      timeout: 20_000,
    });
    await page.locator('main').waitFor();
    assert.equal(await page.getByTestId('update-prompt').count(), 0);
  });
});
