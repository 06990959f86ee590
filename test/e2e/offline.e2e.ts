// The installable app offline, in both languages (English on a desktop, Chinese on a phone):
// the service worker starts the shell without a network, the month comes from the local cache,
// entries added, edited and deleted offline wait in the outbox and reach the server exactly once
// (also when the connection is cut after the server answered), a refused one stays visible until
// it is fixed, and signing out leaves nothing of the first person for the next one.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Route } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  axeViolations,
  serverAndBrowser,
  signInWechat,
  toastShown,
  until,
  untilFocused,
  WAIT_MS,
  type Tab,
} from './harness.ts';

interface Words {
  locale: string;
  viewport: { width: number; height: number };
  offlineBanner: RegExp;
  added: string;
  saved: string;
  deleted: string;
  newTitle: string;
  editTitle: string;
  save: string;
  del: string;
  deleteTitle: string;
  pending: string;
  refused: string;
  fix: string;
  signOut: string;
  signOutTitle: string;
  signOutAnyway: string;
  cancel: string;
  totals: string;
  /** a word of the lexicon naming the first expense category (Food / 餐饮) */
  lunch: string;
}

const EN: Words = {
  locale: 'en-US',
  viewport: DESKTOP,
  offlineBanner: /^Offline, showing data from .*\d/,
  added: 'Transaction added',
  saved: 'Transaction saved',
  deleted: 'Transaction deleted',
  newTitle: 'New transaction',
  editTitle: 'Edit transaction',
  save: 'Save',
  del: 'Delete',
  deleteTitle: 'Delete transaction',
  pending: 'Pending',
  refused: 'Not accepted',
  fix: 'Fix',
  signOut: 'Sign out',
  signOutTitle: 'Sign out?',
  signOutAnyway: 'Sign out anyway',
  cancel: 'Cancel',
  totals: 'Totals include entries waiting to sync',
  lunch: 'lunch',
};
const ZH: Words = {
  locale: 'zh-CN',
  viewport: PHONE,
  offlineBanner: /^离线，显示 .*\d.* 的数据$/,
  added: '已记一笔',
  saved: '已保存',
  deleted: '账目已删除',
  newTitle: '记一笔',
  editTitle: '编辑账目',
  save: '保存',
  del: '删除',
  deleteTitle: '删除账目',
  pending: '待同步',
  refused: '未被接受',
  fix: '修改',
  signOut: '退出登录',
  signOutTitle: '确定退出登录？',
  signOutAnyway: '仍然退出',
  cancel: '取消',
  totals: '合计包含待同步的记录',
  lunch: '午饭',
};

interface Row {
  id: number;
  amount: number;
  note: string;
  category_id: number | null;
  date: string;
}

/** The server's side, through the API with a token of its own (never through the browser). */
function api(base: string) {
  let token = '';
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  return {
    async login(openid: string) {
      const res = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: `ok-${openid}` }),
      });
      const body = (await res.json()) as { access_token: string; user: { id: number } };
      token = body.access_token;
      return body.user.id;
    },
    call,
    async rows(): Promise<Row[]> {
      return ((await call('GET', '/api/transactions?pageSize=100&sort=date_desc')) as { list: Row[] }).list;
    },
  };
}

function dayOfThisMonth(day: number): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function scenario(w: Words, port: number) {
  describe(`offline app (${w.locale}, ${w.viewport.width} px)`, () => {
    const live = serverAndBrowser(port);
    let tab: Tab;
    const page = () => tab.page;
    const main = () => page().locator('main');
    const rowsOnScreen = () => main().locator('[data-testid="tx-row"]');
    let A: ReturnType<typeof api>;
    let userA = 0;
    let food = 0;
    let foodName = '';
    let other = 0;
    let otherName = '';
    let rowA = 0;
    let rowB = 0;
    const tag = w.locale === 'en-US' ? 'en' : 'zh';

    before(async () => {
      tab = await live.openTab({ locale: w.locale, viewport: w.viewport, serviceWorkers: 'allow' });
      A = api(live.server.base);
      userA = await A.login(`offline-${tag}-a`);
      const cats = ((await A.call('GET', '/api/categories?kind=expense')) as { list: { id: number; name: string }[] })
        .list;
      ({ id: food, name: foodName } = cats[0]!);
      ({ id: other, name: otherName } = cats[1]!);
      rowA = (
        await A.call('POST', '/api/transactions', {
          kind: 'expense',
          amount: '40',
          category_id: food,
          date: dayOfThisMonth(2),
          note: 'row A',
        })
      ).id as number;
      rowB = (
        await A.call('POST', '/api/transactions', {
          kind: 'expense',
          amount: '50',
          category_id: food,
          date: dayOfThisMonth(3),
          note: 'row B',
        })
      ).id as number;
    });

    async function addInDialog(amount: string, note: string, categoryLabel?: string) {
      // the installed app's "New entry" shortcut, which also opens while offline
      await page().goto('/books?new=1');
      const dialog = page().getByRole('dialog', { name: w.newTitle });
      await dialog.locator('input[name="amount"]').fill(amount);
      await dialog.locator('input[name="note"]').fill(note);
      if (categoryLabel) await dialog.locator('select[name="category_id"]').selectOption({ label: categoryLabel });
      await dialog.getByRole('button', { name: w.save }).click();
      await toastShown(page(), w.added);
      await dialog.waitFor({ state: 'detached' });
    }

    /** Opens the add form the way the layout offers: the New button on a desktop, the tab bar on a phone. */
    async function openForm() {
      await page()
        .getByTestId(w.viewport === PHONE ? 'tab-add' : 'new-entry')
        .click();
      const dialog = page().getByRole('dialog', { name: w.newTitle });
      await dialog.waitFor();
      return dialog;
    }

    /** One line of text, read by the local parser (the lexicon names the category), Enter saves. */
    async function quickAdd(line: string) {
      const dialog = await openForm();
      await dialog.getByTestId('quick-line').fill(line);
      await until(
        async () => (await dialog.locator('select[name="category_id"] option:checked').innerText()) === foodName,
        'the category read from the line',
      );
      await dialog.getByTestId('quick-line').press('Enter');
      await toastShown(page(), w.added);
      await dialog.waitFor({ state: 'detached' });
    }

    /** A tap on a row opens it in the edit form. */
    async function openRow(note: string) {
      await row(note).getByRole('button').first().click();
      const dialog = page().getByRole('dialog', { name: w.editTitle });
      await dialog.waitFor();
      return dialog;
    }

    const row = (note: string) => rowsOnScreen().filter({ hasText: note });

    it('installs: manifest of the language, a service worker controlling the page', async () => {
      await signInWechat(page(), `offline-${tag}-a`);
      await row('row A').waitFor();
      await page().waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
      // the statistics viewed last are kept for offline use too
      await page().goto('/stats');
      await page().getByTestId('donut').waitFor();
      await page().goto('/books');
      await row('row A').waitFor();
      const href = await page().locator('link[rel="manifest"]').getAttribute('href');
      assert.equal(href, w.locale === 'zh-CN' ? '/manifest.zh-CN.webmanifest' : '/manifest.webmanifest');
      const manifest = (await (await page().request.get(href!)).json()) as {
        name: string;
        icons: unknown[];
        shortcuts: { name: string }[];
      };
      assert.equal(manifest.name, w.locale === 'zh-CN' ? '记账本' : 'Ledger');
      assert.equal(manifest.shortcuts[0]!.name, w.locale === 'zh-CN' ? '记一笔' : 'New entry');
    });

    it('reloads offline: the shell and the cached month, with a banner naming the time of the data', async () => {
      await tab.context.setOffline(true);
      const start = await page().reload();
      assert.equal(start?.status(), 200, 'an offline start answers 200 (from the service worker)');
      await row('row A').waitFor();
      await row('row B').waitFor();
      const banner = page().getByTestId('offline-banner');
      assert.match((await banner.innerText()).split('\n')[0]!.trim(), w.offlineBanner);
      await page().goto('/stats');
      await page().getByTestId('donut').waitFor();
      assert.equal(await main().getByRole('alert').count(), 0);
      await page().goto('/books');
      await row('row A').waitFor();
    });

    it('adds three entries (one by quick entry), edits one and deletes one offline: rows pending, totals marked', async () => {
      // the quick entry line, read without the server
      await quickAdd(`offline one ${w.lunch} 11.11`);

      // the form with the amount focused (the n key on a desktop); the category the lexicon names
      // is preselected from the cached lists, and Enter saves
      let dialog;
      if (w.viewport === PHONE) dialog = await openForm();
      else {
        await page().locator('body').press('n');
        dialog = page().getByRole('dialog', { name: w.newTitle });
        await dialog.waitFor();
      }
      await untilFocused(page(), 'amount');
      await page().keyboard.type('22.22');
      await dialog.locator('input[name="note"]').fill(`offline two ${w.lunch}`);
      await until(
        async () => (await dialog.locator('select[name="category_id"] option:checked').innerText()) === foodName,
        'the category preselected offline',
      );
      // the suggestions, answered from the cache, lead with it (the answer for the amount alone may
      // still be on screen for a moment: the one for the note replaces it)
      const chips = dialog.locator('.chips.suggest button');
      const shown = async () => [
        await chips.count(),
        await chips.first().innerText(),
        await chips.first().getAttribute('aria-pressed'),
      ];
      await until(
        async () => JSON.stringify(await shown()) === JSON.stringify([3, foodName, 'true']),
        'three suggestions led by the category',
        WAIT_MS,
        shown,
      );
      await dialog.locator('input[name="note"]').press('Enter');
      await toastShown(page(), w.added);
      await dialog.waitFor({ state: 'detached' });

      await addInDialog('33.33', 'offline three', otherName);
      await row('offline three').waitFor();
      for (const note of ['offline one', 'offline two', 'offline three'])
        assert.match(await row(note).innerText(), new RegExp(w.pending));

      const edit = await openRow('row A');
      await edit.locator('input[name="amount"]').fill('44.5');
      await edit.getByRole('button', { name: w.save }).click();
      await toastShown(page(), w.saved);
      await until(async () => (await row('row A').innerText()).includes(w.pending), 'row A pending');

      await (await openRow('row B')).getByTestId('tx-delete').click();
      await page().getByRole('dialog', { name: w.deleteTitle }).getByRole('button', { name: w.del }).click();
      await toastShown(page(), w.deleted);
      await row('row B').waitFor({ state: 'detached' });
      await page().getByTestId('totals-pending').getByText(w.totals).waitFor();
      assert.equal(await page().getByTestId('tx-pending').count(), 4);
      assert.deepEqual(await axeViolations(page()), [], 'offline books: accessibility');
      // nothing reached the server yet
      const server = await A.rows();
      assert.deepEqual(server.map((r) => r.note).sort(), ['row A', 'row B']);
    });

    it('back online: exactly those changes reach the server, even when the connection is cut after the server answered', async () => {
      const seen: string[] = [];
      let cutPost = true;
      let cutPut = true;
      const cutAfterAnswer = async (route: Route) => {
        const req = route.request();
        seen.push(req.method());
        const first = (req.method() === 'POST' && cutPost) || (req.method() === 'PUT' && cutPut);
        if (!first) return route.continue();
        if (req.method() === 'POST') cutPost = false;
        else cutPut = false;
        // the server writes and answers; the browser never gets the answer
        const answer = await route.fetch();
        assert.ok(answer.ok(), `the server answered ${answer.status()}`);
        return route.abort('connectionreset');
      };
      await page().route(/\/api\/transactions(\/\d+)?$/, cutAfterAnswer);
      await tab.context.setOffline(false);
      await until(async () => (await page().getByTestId('offline-banner').count()) === 0, 'the outbox sent', 30_000);
      await page().unroute(/\/api\/transactions(\/\d+)?$/, cutAfterAnswer);
      assert.equal(cutPost || cutPut, false, 'both cuts happened');
      // three creates and one edit, the first create and the edit sent twice; one delete
      assert.equal(seen.filter((m) => m === 'POST').length, 4);
      assert.equal(seen.filter((m) => m === 'PUT').length, 2);
      assert.equal(seen.filter((m) => m === 'DELETE').length, 1);

      const server = await A.rows();
      assert.deepEqual(server.map((r) => `${r.note} ${r.amount}`).sort(), [
        `offline one ${w.lunch} 11.11`,
        'offline three 33.33',
        `offline two ${w.lunch} 22.22`,
        'row A 44.5',
      ]);
      const byNote = new Map(server.map((r) => [r.note, r.category_id]));
      assert.deepEqual(
        [byNote.get(`offline one ${w.lunch}`), byNote.get(`offline two ${w.lunch}`), byNote.get('offline three')],
        [food, food, other],
      );
      assert.ok(!server.some((r) => r.id === rowB));
      assert.equal(server.find((r) => r.note === 'row A')!.id, rowA);
      // the screen shows the server's rows, none pending
      await until(async () => (await page().getByTestId('tx-pending').count()) === 0, 'no pending rows');
      assert.equal(await rowsOnScreen().count(), 4);
    });

    it('keeps an operation the server refuses, visible, until it is fixed', async () => {
      const temp = (
        await A.call('POST', '/api/categories', {
          name: tag === 'en' ? 'Short-lived' : '临时',
          color: '#123456',
          kind: 'expense',
        })
      ).id as number;
      await page().reload();
      await row('row A').waitFor();
      // the new category is in the lists (and so in the cache) before the network goes
      const look = await openForm();
      await look
        .locator('select[name="category_id"] option', { hasText: tag === 'en' ? 'Short-lived' : '临时' })
        .waitFor({ state: 'attached' });
      await look.getByRole('button', { name: w.cancel }).click();
      await look.waitFor({ state: 'detached' });
      await tab.context.setOffline(true);
      await addInDialog('55.55', 'refused one', tag === 'en' ? 'Short-lived' : '临时');
      await A.call('DELETE', `/api/categories/${temp}`);
      await tab.context.setOffline(false);
      const refusedItem = page().getByTestId('offline-refused');
      await refusedItem.waitFor({ timeout: 20_000 });
      await until(async () => (await row('refused one').innerText()).includes(w.refused), 'the row marked refused');
      assert.ok(!(await A.rows()).some((r) => r.note === 'refused one'));

      await refusedItem.getByRole('button', { name: w.fix }).click();
      const dialog = page().getByRole('dialog', { name: w.editTitle });
      await dialog.locator('select[name="category_id"]').selectOption(String(other));
      await dialog.getByRole('button', { name: w.save }).click();
      await until(
        async () => (await page().getByTestId('offline-banner').count()) === 0,
        'the fixed entry sent',
        20_000,
      );
      const sent = (await A.rows()).filter((r) => r.note === 'refused one');
      assert.equal(sent.length, 1);
      assert.equal(sent[0]!.category_id, other);
      assert.equal(sent[0]!.amount, 55.55);
    });

    it('signing out with waiting changes asks first; the next person finds nothing of the first', async () => {
      await tab.context.setOffline(true);
      await quickAdd(`never sent ${w.lunch} 66.66`);
      const signOut = async () => {
        if (w.viewport === PHONE) {
          await page().goto('/me');
          await page().getByRole('button', { name: w.signOut }).click();
        } else {
          await page().locator('header').getByRole('button', { name: w.signOut }).click();
        }
      };
      await signOut();
      const ask = page().getByRole('dialog', { name: w.signOutTitle });
      await ask.getByRole('button', { name: w.cancel }).click();
      assert.doesNotMatch(page().url(), /signin/);
      await signOut();
      await page().getByRole('dialog', { name: w.signOutTitle }).getByRole('button', { name: w.signOutAnyway }).click();
      await page().waitForURL(/\/signin/);
      await tab.context.setOffline(false);
      const dbs = await page().evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
      assert.ok(!dbs.includes(`ledger-offline-${userA}`), `left behind: ${dbs.join(', ')}`);

      await signInWechat(page(), `offline-${tag}-b`);
      await page().waitForTimeout(500);
      assert.equal(await rowsOnScreen().count(), 0);
      await tab.context.setOffline(true);
      await page().reload();
      await page().getByTestId('offline-banner').waitFor();
      assert.equal(await rowsOnScreen().count(), 0);
      const body = await page().locator('body').innerText();
      for (const note of ['row A', 'offline one', 'never sent']) assert.ok(!body.includes(note), note);
      await tab.context.setOffline(false);
      assert.ok(!(await A.rows()).some((r) => r.note === 'never sent'));
      assert.deepEqual(
        tab.problems.filter((p) => p.startsWith('pageerror')),
        [],
      );
    });
  });
}

scenario(EN, 3150);
scenario(ZH, 3151);
