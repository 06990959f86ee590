// Notices in the reader's language and recurring transfers, one person reading Chinese and one
// reading English: a shared expense and a payment between them arrive as notices in each one's
// language, money in that language's format, their links named for the page they open and marking
// them read when followed; a monthly savings transfer is set up from the recurring page, which asks
// about the dates before today.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PHONE, axeViolations, serverAndBrowser, until, type Tab, apiAs } from './harness.ts';

const api = apiAs;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe("notices in the reader's language, and recurring transfers", () => {
  const live = serverAndBrowser(3193);
  let en: Tab;
  let zh: Tab;
  let groupId = 0;
  let enId = 0;
  let zhId = 0;

  before(async () => {
    en = await live.signedInTab(`everyday-en-${process.pid}`, { locale: 'en-US' });
    zh = await live.signedInTab(`everyday-zh-${process.pid}`, { locale: 'zh-CN', viewport: PHONE });
    enId = (await api<{ id: number }>(en.page, 'PUT', '/api/me', { nickname: 'Alex' })).id;
    zhId = (await api<{ id: number }>(zh.page, 'PUT', '/api/me', { nickname: '小李' })).id;
    const g = await api<{ id: number; invite_code: string }>(en.page, 'POST', '/api/groups', {
      name: 'Flat',
      split_costs: true,
    });
    groupId = g.id;
    await api(en.page, 'PUT', `/api/groups/${groupId}`, { notify_threshold: 1 });
    await api(zh.page, 'POST', '/api/groups/join', { invite_code: g.invite_code });
  });

  it('a shared expense reaches the Chinese reader in Chinese, with yuan in Chinese format and a named link that marks it read', async () => {
    const cats = await api<{ list: { id: number; kind: string }[] }>(en.page, 'GET', '/api/categories?kind=expense');
    await api(en.page, 'POST', '/api/transactions', {
      kind: 'expense',
      amount: 210,
      category_id: cats.list[0]!.id,
      date: daysAgo(0),
      group_id: groupId,
      note: 'groceries',
    });
    const page = zh.page;
    await page.goto('/notifications');
    const notice = page.getByTestId('notice').filter({ hasText: '新的共同支出' });
    await notice.waitFor();
    const text = await notice.innerText();
    assert.match(text, /Flat：新的共同支出/);
    assert.match(text, /Alex记了一笔¥210\.00（groceries），你分摊¥105\.00。/);
    assert.doesNotMatch(text, /shared expense|CNY|\/groups\//);
    assert.deepEqual(await axeViolations(page), [], 'accessibility');
    const link = notice.getByRole('link', { name: '查看往来结余' });
    await link.click();
    await page.waitForURL(new RegExp(`/groups/${groupId}/balances$`));
    await until(async () => {
      const list = await api<{ list: { key: string | null; read: boolean }[] }>(
        page,
        'GET',
        '/api/notifications?scope=personal',
      );
      return list.list.some((n) => n.key === 'split.expense' && n.read);
    }, 'the notice marked read');
  });

  it('a payment reaches the English reader in English, and the Chinese payer reads the balances sentence naturally', async () => {
    await api(zh.page, 'POST', `/api/groups/${groupId}/settlements`, { from: zhId, to: enId, amount: 105 });
    const page = en.page;
    await page.goto('/notifications');
    const notice = page.getByTestId('notice').filter({ hasText: 'a payment to you' });
    await notice.waitFor();
    const text = await notice.innerText();
    assert.match(text, /Flat: a payment to you/);
    assert.match(text, /小李 recorded paying you ¥105\.00\. Please confirm you received it\./);
    assert.deepEqual(await axeViolations(page), [], 'accessibility');
    await notice.getByRole('link', { name: 'See the balances' }).click();
    await page.waitForURL(new RegExp(`/groups/${groupId}/balances$`));
    await until(async () => {
      const list = await api<{ list: { key: string | null; read: boolean }[] }>(
        page,
        'GET',
        '/api/notifications?scope=personal',
      );
      return list.list.some((n) => n.key === 'settlement.paid_you' && n.read);
    }, 'the notice marked read');
    // the payer's history says "你付给 Alex", not "我"
    await zh.page.goto(`/groups/${groupId}/balances`);
    const row = zh.page.getByTestId('settlement-row').first();
    await row.waitFor();
    assert.match(await row.innerText(), /你付给 Alex ¥105\.00/);
  });

  it('sets up a monthly savings transfer in English, booking the past dates when asked', async () => {
    const page = en.page;
    await api(page, 'POST', '/api/accounts', {
      name: 'Savings',
      type: 'debit_card',
      currency: 'CNY',
      opening_date: '2020-01-01',
    });
    await page.goto('/recurring');
    await page.getByRole('button', { name: '+ Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'New recurring bill' });
    await dialog.getByRole('radio', { name: 'Transfer' }).click();
    await dialog.locator('input[name="amount"]').fill('500');
    await dialog.locator('input[name="note"]').fill('savings');
    await until(async () => (await dialog.locator('select[name="account_id"] option').count()) >= 2, 'the accounts');
    await dialog.locator('select[name="account_id"]').selectOption({ label: 'Cash' });
    await dialog.locator('select[name="to_account_id"]').selectOption({ label: 'Savings' });
    await dialog.locator('input[name="start_date"]').fill(daysAgo(40));
    await dialog.getByRole('button', { name: 'Save' }).click();
    // the start is in the past: the form asks first
    await dialog.getByText('Choose whether to book the past dates.').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'accessibility');
    await dialog.getByLabel('Book them too').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('rule-row').filter({ hasText: 'Cash → Savings' });
    await row.waitFor();
    assert.match(await row.innerText(), /¥500\.00/);
    const rules = await api<{ list: { kind: string; start_date: string }[] }>(page, 'GET', '/api/recurring');
    assert.equal(rules.list.find((r) => r.kind === 'transfer')?.start_date, daysAgo(40));
    // the scheduler (once a minute) books the two past dates: 40 days ago and a month later
    let transfers: { kind: string; date: string; amount: number }[] = [];
    await until(
      async () => {
        const rows = await api<{ list: { kind: string; date: string; amount: number }[] }>(
          page,
          'GET',
          '/api/transactions?pageSize=100',
        );
        transfers = rows.list.filter((r) => r.kind === 'transfer');
        return transfers.length === 2;
      },
      'the two past transfers',
      75_000,
    );
    assert.deepEqual(transfers.map((r) => r.date).sort()[0], daysAgo(40));
    assert.ok(transfers.every((r) => r.amount === 500));
  });

  it('sets up a transfer in Chinese that starts from the next date', async () => {
    const page = zh.page;
    await api(page, 'POST', '/api/accounts', {
      name: '存钱',
      type: 'debit_card',
      currency: 'CNY',
      opening_date: '2020-01-01',
    });
    await page.goto('/recurring');
    await page.getByRole('button', { name: '+ 新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: '转账' }).click();
    await dialog.locator('input[name="amount"]').fill('300');
    await until(async () => (await dialog.locator('select[name="account_id"] option').count()) >= 2, 'the accounts');
    await dialog.locator('select[name="to_account_id"]').selectOption({ label: '存钱' });
    await dialog.locator('input[name="start_date"]').fill(daysAgo(40));
    await dialog.getByTestId('book-past').waitFor();
    await dialog.getByLabel('从下一期开始').check();
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('rule-row').filter({ hasText: '→ 存钱' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'accessibility');
    const rules = await api<{ list: { kind: string; next_date: string }[] }>(page, 'GET', '/api/recurring');
    const rule = rules.list.find((r) => r.kind === 'transfer')!;
    // monthly from 40 days ago, past dates skipped: the next one is after today
    assert.ok(rule.next_date > daysAgo(0), rule.next_date);
    // no row was booked for the skipped dates
    const rows = await api<{ list: { kind: string }[] }>(page, 'GET', '/api/transactions?pageSize=100');
    assert.equal(rows.list.filter((r) => r.kind === 'transfer').length, 0);
  });
});
