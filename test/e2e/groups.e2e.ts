// Two people in two browser contexts: one creates a group, the other joins with its code; they
// record together, see one category line per name in the group statistics, a recurring bill
// made while the group is on screen stays personal, and after leaving, the records name no "#id".
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { axeViolations, serverAndBrowser, signInWechat, until, type Tab } from './harness.ts';

describe('a group shared by two browsers', () => {
  const live = serverAndBrowser(3120);
  let alice: Tab;
  let bob: Tab;

  before(async () => {
    alice = await live.openTab();
    bob = await live.openTab();
  });

  async function quickAdd(tab: Tab, amount: string, note: string) {
    await tab.page.getByTestId('new-entry').click();
    const dialog = tab.page.getByRole('dialog', { name: 'New transaction' });
    await dialog.locator('input[name="amount"]').fill(amount);
    await dialog.locator('input[name="note"]').fill(note);
    // the categories arrive after the form: wait for the picker to hold one, and choose it
    await dialog.locator('select[name="category_id"] option').nth(1).waitFor({ state: 'attached' });
    await dialog.locator('select[name="category_id"]').selectOption({ index: 1 });
    await dialog.getByTestId('split-check').getByText('The split adds up.').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await tab.page.locator('[data-testid="tx-row"]', { hasText: note }).waitFor();
  }

  it('creates a group in one browser and joins it by code in the other', async () => {
    await signInWechat(alice.page, 'alice');
    await signInWechat(bob.page, 'bob');
    await alice.page.goto('/groups');
    await alice.page.locator('input[name="name"]').fill('Family');
    await alice.page.getByRole('button', { name: 'Create' }).click();
    const code = (await alice.page.locator('[data-testid="invite-code"]').innerText()).trim();
    assert.match(code, /^[A-Z2-9]{8}$/);
    assert.deepEqual(await axeViolations(alice.page), []);

    await bob.page.goto('/groups');
    await bob.page.locator('input[name="invite_code"]').fill(code.toLowerCase());
    await bob.page.getByRole('button', { name: 'Join' }).click();
    await bob.page.getByText('You are in “Family”').waitFor();
    await bob.page.locator('[data-testid="group-card"]', { hasText: 'Family' }).getByText('2 members').waitFor();
  });

  it('records into the group from both browsers and each sees the other', async () => {
    for (const [tab, amount, note] of [
      [alice, '88', 'Groceries for the week'],
      [bob, '12.5', 'Bread and milk'],
    ] as const) {
      await tab.page.goto('/books');
      await tab.page.getByTestId('group-select').selectOption({ label: 'Group: Family' });
      await tab.page.getByText('You are viewing the group “Family”.').waitFor();
      await quickAdd(tab, amount, note);
    }
    await alice.page.reload();
    const rows = alice.page.locator('[data-testid="tx-row"]');
    await until(async () => (await rows.count()) === 2, 'both group records').catch(async (err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(await rows.allInnerTexts())}`);
    });
    const bobsRow = rows.filter({ hasText: 'Bread and milk' });
    assert.match(await bobsRow.innerText(), /User bob/);
    // another member's record opens to be read, not to be changed or deleted
    await bobsRow.click();
    const opened = alice.page.getByRole('dialog', { name: 'Edit transaction' });
    await opened.waitFor();
    assert.equal(await opened.getByRole('button', { name: 'Save' }).count(), 0);
    assert.equal(await opened.getByRole('button', { name: 'Delete' }).count(), 0);
    await opened.getByRole('button', { name: 'Cancel' }).click();
    await opened.waitFor({ state: 'detached' });
  });

  it('shows each category name once in the group statistics', async () => {
    await alice.page.goto('/stats');
    await alice.page.locator('[data-testid="donut"] canvas').waitFor();
    const legend = await alice.page.locator('ul.legend li').allInnerTexts();
    assert.equal(legend.length, 1, legend.join(' | '));
    assert.match(legend[0]!, /Food\s+¥100\.50\s+100%/);
  });

  it('keeps a recurring bill made while the group is on screen personal, and lists it', async () => {
    await alice.page.goto('/recurring');
    await alice.page.getByRole('button', { name: '+ Add' }).click();
    const dialog = alice.page.getByRole('dialog', { name: 'New recurring bill' });
    assert.equal(await dialog.locator('select[name="group_id"] option:checked').innerText(), 'Personal books');
    await dialog.locator('input[name="amount"]').fill('30');
    await dialog.locator('input[name="note"]').fill('Streaming');
    await dialog.locator('select[name="category_id"]').selectOption({ label: 'Entertainment' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    const rule = alice.page.locator('[data-testid="rule-row"]', { hasText: 'Streaming' });
    await rule.waitFor();
    assert.doesNotMatch(await rule.innerText(), /Family/);
  });

  it('after leaving, the personal books name the group as one that was left, not by its id', async () => {
    await bob.page.goto('/groups');
    await bob.page.getByRole('button', { name: 'Leave' }).click();
    await bob.page.getByRole('dialog', { name: 'Leave' }).getByRole('button', { name: 'Leave' }).click();
    await bob.page.getByText('You left the group').waitFor();
    await bob.page.goto('/books');
    const row = bob.page.locator('[data-testid="tx-row"]', { hasText: 'Bread and milk' });
    await row.waitFor();
    assert.match(await row.innerText(), /A group you left/);
    assert.doesNotMatch(await row.innerText(), /#\d/);
    assert.equal(await bob.page.getByTestId('group-select').count(), 0);
  });

  it('left nothing in either console', () => {
    assert.deepEqual(alice.problems, []);
    assert.deepEqual(bob.problems, []);
  });
});
