// The import screen lists every file it reads with how to get it from the bank or app, in Chinese on
// a phone and in English on a desktop; a bank statement and an app export are read from the screen,
// and a refused QIF says why in the person's language. A bank statement's closing balance is offered
// once its rows are booked, and reconciling to it books the difference. The categories and accounts an
// app's export names are shown with what each maps to (or that it will be created) before anything is
// created, and the person changes a mapping.
import * as XLSX from '@e965/xlsx';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page, Response } from 'playwright-core';
import { DESKTOP, PHONE, apiAs, axeViolations, serverAndBrowser, until } from './harness.ts';

const PORT = 3230;
const fixture = (name: string) => `test/fixtures/imports/${name}`;
const FORMATS = 16;

/** A Splitwise group export: Ann paid 90.00 shared by three, Bo paid Ann back 10.00 (Ann +50, Bo -20, Cy -30). */
const SPLITWISE = [
  'Date,Description,Category,Cost,Currency,Ann,Bo,Cy',
  '',
  '2025-03-01,Dinner,Dining out,90.00,CNY,60.00,-30.00,-30.00',
  '2025-03-04,Bo paid Ann,Payment,10.00,CNY,-10.00,10.00,0.00',
  '',
  '2025-03-06,Total balance, , ,CNY,50.00,-20.00,-30.00',
  '',
].join('\n');
/** A Spliit CSV whose second row does not tell who paid (the payer has no share). */
const SPLIIT_CSV =
  '"Date","Description","Category","Currency","Cost","Original cost","Original currency","Conversion rate",' +
  '"Is Reimbursement","Split mode","Ann","Bo"\n' +
  '"2025-05-01","Groceries","Groceries","CNY","30.00",,,,"No","Evenly",15,-15\n' +
  '"2025-05-03","Bo paid Ann","Payment","CNY","5.00",,,,"Yes","Unevenly – By amount",-5,0\n';
const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

/**
 * A camt.053 statement of a yuan account: 1,000.00 at the start, 45.00 to a café on 6 May, and a
 * closing booked balance of 950.00 on 31 May (the bank's figure, 5.00 below the entries' 955.00).
 */
const CAMT = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>E2E-1</MsgId><CreDtTm>2025-05-31T20:00:00</CreDtTm></GrpHdr>
<Stmt><Id>E2E-2025-05</Id>
<Acct><Id><Othr><Id>6222020000001234</Id></Othr></Id><Ccy>CNY</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="CNY">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-05-01</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="CNY">950.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-05-31</Dt></Dt></Bal>
<Ntry><Amt Ccy="CNY">45.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2025-05-06</Dt></BookgDt>
<AcctSvcrRef>E2E-CAFE</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Blue Bottle Cafe</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>
`;

/** 随手记's web export (.xls), a sheet a kind: two expenses, an income, a transfer to an e-wallet */
function suiWebXls(): Buffer {
  const sheets: Record<string, string[][]> = {
    支出: [
      ['交易类型', '日期', '一级分类', '二级分类', '支出账户', '金额', '成员', '商家', '项目', '备注'],
      ['支出', '2025-06-02 12:30:00', '餐饮', '午餐E2E', '招商银行E2E', '35.50', '', '食堂', '', ''],
      ['支出', '2025-06-03 08:00:00', '交通', '地铁E2E', '现金E2E', '4.00', '', '', '', ''],
    ],
    收入: [
      ['交易类型', '日期', '一级分类', '二级分类', '收入账户', '金额', '成员', '商家', '项目', '备注'],
      ['收入', '2025-06-10 09:00:00', '职业收入', '工资E2E', '招商银行E2E', '8000', '', '', '', ''],
    ],
    转账: [
      ['交易类型', '日期', '转出账户', '转入账户', '金额', '成员', '商家', '项目', '备注'],
      ['转账', '2025-06-11 10:00:00', '招商银行E2E', '余额宝E2E', '200', '', '', '', ''],
    ],
  };
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets))
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xls' }) as Buffer;
}

/** An ezBookkeeping export naming a wallet the person has no account for, and a category they do not have. */
const EZ_CSV = [
  'Time,Timezone,Type,Category,Sub Category,Account,Account Currency,Amount,Account2,Account2 Currency,Account2 Amount,Geographic Location,Tags,Description',
  '2025-07-01 18:00:00,+08:00,Expense,Food,E2E Dinner,E2E Wallet,CNY,-88.00,,,,,,Hotpot',
  '2025-07-02 09:00:00,+08:00,Income,Work,E2E Salary,e2e bank,CNY,900.00,,,,,,Bonus',
].join('\n');

/** The names of the person's accounts or categories, as the API lists them. */
async function listed(page: Page, path: string): Promise<string[]> {
  const got = await apiAs<{ list: { name: string }[] } | { name: string }[]>(page, 'GET', path);
  return (Array.isArray(got) ? got : got.list).map((x) => x.name);
}

/** Opens a yuan account as of 1 January 2025; answers its id. */
async function openAccount(page: Page, name: string, type: string, opening: string): Promise<number> {
  const body = { name, type, currency: 'CNY', opening_balance: opening, opening_date: '2025-01-01' };
  return (await apiAs<{ id: number }>(page, 'POST', '/api/accounts', body)).id;
}

const balanceOn = async (page: Page, id: number, date: string) =>
  (await apiAs<{ balance: number }>(page, 'GET', `/api/accounts/${id}?date=${date}`)).balance;

/**
 * Chooses `value` in a mapping's select and answers the change's PATCH of the preview. A choice made
 * while the preview was being drawn again went to the select it replaced: it is made again (a person
 * would see the select still on its old value), at most three times.
 */
async function choose(page: Page, select: Locator, value: string): Promise<Response> {
  // the choice exists first (the person's categories and accounts may still be loading)
  await select.locator(`option[value="${value}"]`).waitFor({ state: 'attached' });
  for (let attempt = 1; ; attempt++) {
    // settled into a value at once: a wait that ends while the choice is being made is no stray rejection
    const patched = page
      .waitForResponse((r) => r.url().includes('/rows') && r.request().method() === 'PATCH', { timeout: 10_000 })
      .then(
        (res) => ({ res }),
        (err: unknown) => ({ err }),
      );
    await select.selectOption(value);
    const got = await patched;
    if ('res' in got) return got.res;
    if (attempt === 3) throw got.err;
  }
}

/** Imports the statement shown in the preview: a category for the rows nothing placed (expenses, then incomes). */
async function commitStatement(page: Page) {
  const open = page.getByTestId('decide-open');
  for (let group = 0; group < 2 && (await open.count()) > 0; group++) {
    const value = await open.locator('optgroup').nth(group).locator('option').first().getAttribute('value');
    await open.selectOption(value!);
    const patched = page.waitForResponse((r) => r.url().includes('/rows') && r.request().method() === 'PATCH');
    await page.getByTestId('decide-apply').click();
    const res = await patched;
    assert.equal(res.status(), 200, await res.text());
    // read in one step: the picker may go between a count and a read of its value
    const applied = () =>
      page.evaluate(() => {
        const picker = document.querySelector<HTMLSelectElement>('[data-testid="decide-open"]');
        return !picker || picker.value === '0';
      });
    await until(applied, 'the choice applied');
  }
  await page.getByTestId('to-decide').waitFor({ state: 'detached' });
  await page.getByTestId('bill-commit').click();
  await page.getByTestId('bill-result').waitFor();
}

/** The offer of the account named, once the books' balance on the statement's date is read. */
async function offerOf(page: Page, account: string) {
  const offer = page.getByTestId('balance-offer').filter({ hasText: account });
  await offer.getByTestId('balance-books').waitFor();
  return offer;
}

async function formatList(page: Page) {
  await page.goto('/import');
  const list = page.getByTestId('import-formats');
  await list.waitFor();
  assert.equal(await list.locator('details').count(), FORMATS);
  // nothing wider than the screen
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
  return list;
}

async function detected(page: Page, file: string): Promise<string> {
  await page.getByTestId('bill-file').setInputFiles(fixture(file));
  await page.getByTestId('bill-preview').waitFor();
  return page.getByTestId('bill-format').innerText();
}

describe('the formats the import reads, in both languages', () => {
  const live = serverAndBrowser(PORT);

  it('in Chinese on a phone: every format with its how-to; an MT940 statement read', async () => {
    const { page } = await live.signedInTab('import-formats-zh', { locale: 'zh-CN', viewport: PHONE });
    const list = await formatList(page);
    assert.equal(await list.getByRole('heading').innerText(), '能导入的文件及导出方法');
    const names = (await list.locator('summary .name').allInnerTexts()).map((x) => x.trim());
    for (const name of ['微信支付账单', 'OFX / Quicken（QFX）对账单', 'MT940 对账单', '钱迹', '随手记'])
      assert.ok(names.includes(name), `${name} listed`);
    await list.getByTestId('format-qianji').locator('summary').click();
    assert.match(await list.getByTestId('format-qianji').locator('.how').innerText(), /导出账单/);
    assert.deepEqual(await axeViolations(page), [], 'the list: accessibility');
    assert.equal(await detected(page, 'german.sta'), '识别为：MT940 对账单');

    // a Splitwise group becomes a group here: people, balances and the import, in Chinese
    await page.goto('/import');
    const names2 = (await page.getByTestId('import-formats').locator('summary .name').allInnerTexts()).map((x) =>
      x.trim(),
    );
    assert.ok(names2.includes('Splitwise 群组（导入为群组）'), 'Splitwise listed');
    const card = page.getByTestId('group-import');
    assert.equal(await card.getByRole('heading').innerText(), '从 Splitwise 或 Spliit 导入群组');
    await page.getByTestId('group-import-file').setInputFiles(file('splitwise.csv', SPLITWISE));
    await page.getByTestId('group-import-summary').waitFor();
    assert.match(
      await page.getByTestId('group-import-summary').innerText(),
      /将新建群组“Splitwise”.*1 笔账目、1 笔还款/,
    );
    assert.equal(await page.getByTestId('group-import-person').count(), 3);
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'no sideways scroll',
    );
    await page.getByTestId('group-import-commit').click();
    const done = page.getByTestId('group-import-done');
    await done.waitFor();
    assert.match(await done.innerText(), /已导入 1 笔账目、1 笔还款，新增 3 位占位成员/);
  });

  it('in English on a desktop: every format with its how-to; a YNAB register read; a QIF refused with its reason', async () => {
    const { page } = await live.signedInTab('import-formats-en', { locale: 'en', viewport: DESKTOP });
    const list = await formatList(page);
    assert.equal(await list.getByRole('heading').innerText(), 'Files you can import, and how to get them');
    await list.getByTestId('format-camt').locator('summary').click();
    assert.match(await list.getByTestId('format-camt').locator('.how').innerText(), /camt\.053 \(XML\)/);
    assert.equal(await detected(page, 'ynab-register.csv'), 'Detected: YNAB register');
    await page.goto('/import');
    await page.getByTestId('bill-file').setInputFiles(fixture('ambiguous.qif'));
    const error = page.getByTestId('bill-row-errors');
    await error.waitFor();
    assert.match(await error.innerText(), /reads both day first and month first/);
    // the person says which comes first, and the file is read again that way
    assert.match(await page.getByTestId('bill-date-order-choice').innerText(), /lines 2, 6/);
    await page.getByTestId('date-order-dmy').click();
    await page.getByTestId('bill-date-order').waitFor();
    assert.match(await page.getByTestId('bill-date-order').innerText(), /Day first \(DD\/MM\), as you chose/);

    // a Spliit CSV row that does not tell its payer is refused with the reason, in English
    await page.goto('/import');
    await list.waitFor();
    const names = await page.getByTestId('import-formats').locator('summary .name').allInnerTexts();
    assert.ok(names.map((x) => x.trim()).includes('Spliit group (into a group)'), 'Spliit listed');
    await page.getByTestId('group-import-file').setInputFiles(file('spliit.csv', SPLIIT_CSV));
    const problems = page.getByTestId('group-import-problems');
    await problems.waitFor();
    assert.match(await problems.innerText(), /Line 3: the CSV does not say who paid/);
    assert.ok(await page.getByTestId('group-import-commit').isDisabled());
  });

  it('in Chinese on a phone: an OFX statement booked, its balance offered, the account reconciled to it', async () => {
    const { page } = await live.signedInTab('import-balances-zh', { locale: 'zh-CN', viewport: PHONE });
    await page.goto('/import');
    const checking = await openAccount(page, '储蓄卡 6789', 'debit_card', '1000.00');
    const card = await openAccount(page, '信用卡 4321', 'credit_card', '0');
    await page.getByTestId('bill-file').setInputFiles(fixture('balances.ofx'));
    await page.getByTestId('bill-preview').waitFor();
    await commitStatement(page);

    // the books on 31 March: 1,000.00 - 128.00 + 5,000.00 - 300.00 = 5,572.00; the statement says 5,600.50
    const offer = await offerOf(page, '储蓄卡 6789');
    assert.match(await offer.getByTestId('balance-books').innerText(), /2025年3月31日 账上余额：¥5,572\.00/);
    assert.match(await offer.getByTestId('balance-difference').innerText(), /差额：\+¥28\.50/);
    // the card's -88.80 already agrees
    const cardOffer = await offerOf(page, '信用卡 4321');
    assert.equal(await cardOffer.getByTestId('balance-agrees').innerText(), '账上余额与对账单一致。');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'no sideways scroll',
    );
    assert.deepEqual(await axeViolations(page), [], 'the offers: accessibility');

    const button = offer.getByTestId('balance-offer-button');
    assert.equal(await button.innerText(), '将储蓄卡 6789对账为 ¥5,600.50（2025年3月31日）');
    await button.click();
    assert.match(await offer.getByTestId('balance-confirm-text').innerText(), /\+¥28\.50/);
    await offer.getByTestId('balance-confirm').click();
    const done = offer.getByTestId('balance-done');
    await done.waitFor();
    assert.equal(await done.innerText(), '储蓄卡 6789已对账：记了一笔余额调整 +¥28.50。');
    assert.equal(await balanceOn(page, checking, '2025-03-31'), 5600.5);
    assert.equal(await balanceOn(page, card, '2025-03-31'), -88.8);
  });

  it('in English on a desktop: a camt.053 statement booked, its closing balance offered and reconciled', async () => {
    const { page } = await live.signedInTab('import-balances-en', { locale: 'en', viewport: DESKTOP });
    await page.goto('/import');
    const debit = await openAccount(page, 'Debit 1234', 'debit_card', '1000.00');
    await page.getByTestId('bill-file').setInputFiles(file('statement.xml', CAMT));
    await page.getByTestId('bill-preview').waitFor();
    await commitStatement(page);

    // 1,000.00 - 45.00 = 955.00 in the books; 950.00 on the statement
    const offer = await offerOf(page, 'Debit 1234');
    assert.match(await offer.getByTestId('balance-books').innerText(), /^In your books on May 31, 2025: ¥955\.00$/);
    assert.match(await offer.getByTestId('balance-difference').innerText(), /^Difference: -¥5\.00$/);
    const button = offer.getByTestId('balance-offer-button');
    assert.equal(await button.innerText(), 'Reconcile Debit 1234 to ¥950.00 on May 31, 2025');
    await button.click();
    await offer.getByTestId('balance-confirm').click();
    await offer.getByTestId('balance-done').waitFor();
    assert.match(await offer.getByTestId('balance-done').innerText(), /adjustment of -¥5\.00 booked/);
    assert.equal(await balanceOn(page, debit, '2025-05-31'), 950);
    // the offer shows the books as they are now
    assert.match(await offer.getByTestId('balance-agrees').innerText(), /already agree/);
  });
  it('in Chinese on a phone: a 随手记 web export shows what will be created, one mapping changed, created on import', async () => {
    const { page } = await live.signedInTab('import-names-zh', { locale: 'zh-CN', viewport: PHONE });
    const bank = await openAccount(page, '招商银行E2E', 'debit_card', '0');
    await apiAs(page, 'POST', '/api/categories', { name: '工资E2E', kind: 'income', color: '#336699' });
    const transit = await apiAs<{ id: number }>(page, 'POST', '/api/categories', {
      name: '交通E2E',
      kind: 'expense',
      color: '#336699',
    });
    // the import page opens once the person's categories and accounts exist (it reads them as it opens)
    await page.goto('/import');
    await page.getByTestId('bill-file').setInputFiles({
      name: 'sui.xls',
      mimeType: 'application/vnd.ms-excel',
      buffer: suiWebXls(),
    });
    await page.getByTestId('bill-preview').waitFor();
    assert.equal(await page.getByTestId('bill-format').innerText(), '识别为：随手记网页版导出文件');
    const cats = page.getByTestId('bill-categories');
    await cats.waitFor();
    const matchOf = (name: string) => cats.locator(`[data-category="${name}"]`).getByTestId('category-match');
    assert.equal(await matchOf('午餐E2E').innerText(), '将新建');
    assert.equal(await matchOf('工资E2E').innerText(), '同名');
    const methods = page.getByTestId('bill-methods');
    assert.match(await methods.locator('label', { hasText: '余额宝E2E' }).innerText(), /将新建（电子钱包）/);
    assert.match(await methods.locator('label', { hasText: '现金E2E' }).innerText(), /将新建（现金）/);
    // the bank the file names is the person's account of that name
    assert.equal(await methods.locator('select[data-method="招商银行E2E"]').inputValue(), String(bank));
    assert.ok(!(await listed(page, '/api/accounts')).includes('余额宝E2E'), 'nothing created by the preview');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'no sideways scroll',
    );
    assert.deepEqual(await axeViolations(page), [], 'the names: accessibility');

    // 地铁E2E goes to the person's own 交通E2E instead of a new category
    assert.equal(
      (await choose(page, cats.locator('[data-category="地铁E2E"] select'), String(transit.id))).status(),
      200,
    );
    await until(async () => (await matchOf('地铁E2E').innerText()) === '已选择', 'the mapping shown');

    await page.getByTestId('bill-commit').click();
    await page.getByTestId('bill-result').waitFor();
    assert.equal(await page.getByTestId('bill-accounts-created').innerText(), '新建的账户：现金E2E、余额宝E2E');
    assert.equal(await page.getByTestId('bill-categories-created').innerText(), '新建的分类：午餐E2E');
    const accounts = await listed(page, '/api/accounts');
    assert.ok(accounts.includes('余额宝E2E') && accounts.includes('现金E2E'), 'the accounts created');
    const categories = await listed(page, '/api/categories');
    assert.ok(categories.includes('午餐E2E'), 'the category created');
    assert.ok(!categories.includes('地铁E2E'), 'the category mapped elsewhere is not created');
  });

  it('in English on a desktop: an app export shows what will be created; an account mapped to an existing one instead', async () => {
    const { page } = await live.signedInTab('import-names-en', { locale: 'en', viewport: DESKTOP });
    await page.goto('/import');
    const bank = await openAccount(page, 'E2E Bank', 'debit_card', '0');
    await page.getByTestId('bill-file').setInputFiles(file('ezbookkeeping.csv', EZ_CSV));
    await page.getByTestId('bill-preview').waitFor();
    const cats = page.getByTestId('bill-categories');
    await cats.waitFor();
    const matchOf = (name: string) => cats.locator(`[data-category="${name}"]`).getByTestId('category-match');
    assert.equal(await matchOf('E2E Dinner').innerText(), 'will be created');
    const wallet = page.getByTestId('bill-methods').locator('label', { hasText: 'E2E Wallet' });
    assert.match(await wallet.innerText(), /will be created \(Cash\)/);
    // the bank's name differs but for case and spaces: it is the person's E2E Bank
    const bankSelect = page.getByTestId('bill-methods').locator('select[data-method="e2e bank"]');
    assert.equal(await bankSelect.inputValue(), String(bank));

    assert.equal((await choose(page, wallet.locator('select'), String(bank))).status(), 200);
    await wallet.getByTestId('method-create').waitFor({ state: 'detached' });

    await page.getByTestId('bill-commit').click();
    await page.getByTestId('bill-result').waitFor();
    assert.equal(await page.getByTestId('bill-accounts-created').count(), 0);
    assert.equal(
      await page.getByTestId('bill-categories-created').innerText(),
      'Categories created: E2E Dinner, E2E Salary',
    );
    assert.ok(!(await listed(page, '/api/accounts')).includes('E2E Wallet'), 'no account created for the wallet');
    assert.ok((await listed(page, '/api/categories')).includes('E2E Dinner'), 'the category created');
  });
});
