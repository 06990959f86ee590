// Two people in two browser contexts split a dinner: one pays and shares it in exact amounts with
// a live check, the other sees the debt on the balances page and settles it with one tap, and the
// first confirms the payment. The setting that a group splits its costs: offered when a group is
// created and in the group's settings, in English on a desktop and in Chinese on a 390 px phone.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PHONE, axeViolations, serverAndBrowser, signInWechat, until, type Tab } from './harness.ts';

describe('splitting a group expense and settling up in two browsers', () => {
  const live = serverAndBrowser(3170);
  let alice: Tab;
  let bob: Tab;
  let groupId = 0;

  before(async () => {
    alice = await live.openTab();
    bob = await live.openTab();
  });

  it('creates a group that the other browser joins', async () => {
    await signInWechat(alice.page, 'alice');
    await signInWechat(bob.page, 'bob');
    await alice.page.goto('/groups');
    await alice.page.locator('input[name="name"]').fill('Trip');
    // splitting costs is on by default here, and says what it means
    const box = alice.page.getByTestId('create-split-costs');
    assert.equal(await box.isChecked(), true);
    await alice.page.getByText('Split costs: records are shared among members so you can see who owes whom.').waitFor();
    await alice.page.getByRole('button', { name: 'Create' }).click();
    await alice.page.getByTestId('splits-pill').waitFor();
    const code = (await alice.page.locator('[data-testid="invite-code"]').innerText()).trim();
    const href = await alice.page.getByTestId('balances-link').getAttribute('href');
    groupId = Number(/\/groups\/(\d+)\/balances/.exec(href ?? '')?.[1]);
    assert.ok(groupId > 0, href ?? '');
    await bob.page.goto('/groups');
    await bob.page.locator('input[name="invite_code"]').fill(code);
    await bob.page.getByRole('button', { name: 'Join' }).click();
    await bob.page.getByText('You are in “Trip”').waitFor();
  });

  it('records a dinner paid by one and splits it in exact amounts, checked as they are typed', async () => {
    const page = alice.page;
    await page.goto('/books');
    await page.getByTestId('group-select').selectOption({ label: 'Group: Trip' });
    await page.getByText('You are viewing the group “Trip”.').waitFor();
    await page.getByTestId('new-entry').click();
    const add = page.getByRole('dialog', { name: 'New transaction' });
    await add.locator('input[name="amount"]').fill('90');
    await add.locator('input[name="note"]').fill('Dinner');
    await until(
      async () => (await add.locator('select[name="category_id"] option:checked').innerText()) === 'Food',
      'Food preselected',
    );
    await add.getByTestId('split-check').getByText('The split adds up.').waitFor();
    await add.getByRole('button', { name: 'Save' }).click();
    const row = page.locator('[data-testid="tx-row"]', { hasText: 'Dinner' });
    await row.waitFor();
    await row.click();
    const dialog = page.getByRole('dialog', { name: 'Edit transaction' });
    const editor = dialog.getByTestId('split-editor');
    await editor.waitFor();
    // equal by default: both members, and it adds up
    await editor.getByTestId('split-check').getByText('The split adds up.').waitFor();
    await editor.locator('select[name="split_mode"]').selectOption('exact');
    const values = editor.locator('input[name^="split-value-"]');
    await values.nth(0).fill('50');
    await values.nth(1).fill('30');
    await editor.getByTestId('split-check').getByText('¥10.00 still to assign.').waitFor();
    await values.nth(0).fill('60');
    await editor.getByTestId('split-check').getByText('The split adds up.').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Transaction saved').waitFor();
  });

  it('shows the other browser its debt, and settles it with one tap', async () => {
    const page = bob.page;
    await page.goto(`/groups/${groupId}/balances`);
    const list = page.getByTestId('balances');
    await list.getByText('owes ¥30.00').waitFor();
    await list.getByText('is owed ¥30.00').waitFor();
    const suggested = page.getByTestId('suggested');
    await suggested.getByText(/^you → .+: ¥30\.00$/).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await suggested.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('Payment recorded').waitFor();
    await page.getByTestId('all-settled').waitFor();
    await page.getByTestId('settlement-row').getByText('awaiting confirmation').waitFor();
  });

  it('lets the one who was paid confirm it', async () => {
    const page = alice.page;
    await page.goto(`/groups/${groupId}/balances`);
    const row = page.getByTestId('settlement-row');
    await row.getByText(/ paid you ¥30\.00/).waitFor();
    await row.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Payment confirmed').waitFor();
    await row.getByText('confirmed', { exact: true }).waitFor();
    await page.getByTestId('balances').getByText('settled').first().waitFor();
  });

  it('counts my share of a group dinner in my own statistics when I ask for it', async () => {
    const page = bob.page;
    await page.goto('/stats');
    await page.getByTestId('stats-view-paid').waitFor();
    // what Bob paid: nothing; his share of the dinner: ¥30.00
    await page.getByTestId('stats-view-share').click();
    await page.getByText('¥30.00').first().waitFor();
    assert.equal(await page.getByTestId('stats-view-share').getAttribute('aria-checked'), 'true');
  });

  it('lets a member turn off the notifications of shared expenses in the profile', async () => {
    const page = bob.page;
    await page.goto('/profile');
    const box = page.getByTestId('notify-splits');
    // the form is filled once the profile has loaded
    await page.waitForFunction(
      () => ((document.querySelector('input[name="nickname"]') as HTMLInputElement | null)?.value ?? '') !== '',
      undefined,
      { timeout: 5000 },
    );
    await box.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile saved').waitFor();
    await page.reload();
    // the profile is loaded after the page: the box follows it
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="notify-splits"]') as HTMLInputElement | null)?.checked === false,
      undefined,
      { timeout: 5000 },
    );
  });

  it('turns cost splitting off and on again in the group settings (English, desktop)', async () => {
    const page = alice.page;
    await page.goto('/groups');
    await page.getByTestId('settings-link').click();
    await page.waitForURL(new RegExp(`/groups/${groupId}/settings$`));
    const box = page.getByTestId('settings-split-costs');
    await page.getByRole('heading', { name: 'Settings: Trip' }).waitFor();
    assert.equal(await box.isChecked(), true);
    await page.getByText('Applies to records from now on').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await box.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Group settings saved').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Settings: Trip' }).waitFor();
    assert.equal(await page.getByTestId('settings-split-costs').isChecked(), false);
    // the balances say the group does not split, and keep the dinner split while it did
    await page.goto(`/groups/${groupId}/balances`);
    await page.getByTestId('no-split').getByText('This group does not split costs').waitFor();
    await page.goto(`/groups/${groupId}/settings`);
    await page.getByTestId('settings-split-costs').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Group settings saved').waitFor();
    await page.goto(`/groups/${groupId}/balances`);
    await page.getByTestId('balances').waitFor();
    assert.equal(await page.getByTestId('no-split').count(), 0);
    assert.deepEqual(alice.problems, []);
  });

  it('offers the setting in Chinese on a 390 px phone: on when creating, off in the settings', async () => {
    const tab = await live.openTab({ locale: 'zh-CN', viewport: PHONE });
    try {
      const page = tab.page;
      await signInWechat(page, 'chen');
      await page.goto('/groups');
      await page.getByText('分摊费用：记录在成员之间平分，可查看谁欠谁。').waitFor();
      assert.equal(await page.getByTestId('create-split-costs').isChecked(), true);
      await page.locator('input[name="name"]').fill('我们家');
      await page.getByRole('button', { name: '创建' }).click();
      await page.getByText('群组已创建').waitFor();
      await page.getByTestId('settings-link').click();
      await page.getByRole('heading', { name: '设置：我们家' }).waitFor();
      const box = page.getByTestId('settings-split-costs');
      assert.equal(await box.isChecked(), true);
      await page.getByText('只对之后的记录生效').waitFor();
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        'no sideways scroll',
      );
      assert.deepEqual(await axeViolations(page), []);
      await box.uncheck();
      await page.getByRole('button', { name: '保存' }).click();
      await page.getByText('群组设置已保存').waitFor();
      await page.goto('/groups');
      await page.getByTestId('group-card').waitFor();
      assert.equal(await page.getByTestId('splits-pill').count(), 0);
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        'no sideways scroll on the groups page',
      );
      assert.deepEqual(tab.problems, []);
    } finally {
      await tab.context.close();
    }
  });
});
