// Attachments on the rows of the books, in both languages (English on a desktop, Chinese on a
// phone): a row shows its image's thumbnail, which opens the image full size without opening the
// entry; an entry saved offline from a photo keeps the photo and gets it as its attachment once
// the network returns (once, checked through the API), its row then showing the thumbnail.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { bytes, truth } from './receipt-fixtures.ts';
import { apiAs, DESKTOP, PHONE, serverAndBrowser, signInWechat, toastShown, until, type Tab } from './harness.ts';

const PORT = 3315;

interface Words {
  locale: string;
  viewport: { width: number; height: number };
  newTitle: string;
  editTitle: string;
  save: string;
  added: string;
  pending: string;
  open: (name: string) => string;
}

const EN: Words = {
  locale: 'en-US',
  viewport: DESKTOP,
  newTitle: 'New transaction',
  editTitle: 'Edit transaction',
  save: 'Save',
  added: 'Transaction added',
  pending: 'Pending',
  open: (name) => `Open ${name} full size`,
};
const ZH: Words = {
  locale: 'zh-CN',
  viewport: PHONE,
  newTitle: '记一笔',
  editTitle: '编辑账目',
  save: '保存',
  added: '已记一笔',
  pending: '待同步',
  open: (name) => `查看原图：${name}`,
};

interface Row {
  id: number;
  amount: number;
  note: string;
  date: string;
  attachments: { id: number; mime: string; name: string; has_thumbnail: boolean }[];
}

function scenario(w: Words, port: number, images: { row: string; offline: string }) {
  describe(`attachments on the rows of the books (${w.locale}, ${w.viewport.width} px)`, () => {
    const live = serverAndBrowser(port);
    let tab: Tab;
    const page = () => tab.page;
    const tag = w.locale === 'en-US' ? 'en' : 'zh';
    const rowOf = (note: string) => page().locator('main [data-testid="tx-row"]').filter({ hasText: note });

    before(async () => {
      tab = await live.openTab({ locale: w.locale, viewport: w.viewport });
      await signInWechat(page(), `receipt-rows-${tag}`);
    });

    /** The books of one day, once the app has replaced the server-drawn first screen. */
    async function books(date: string, extra = '') {
      await page().goto(`/books?startDate=${date}&endDate=${date}${extra}`);
      await page().locator('#app[data-first-screen]').waitFor({ state: 'detached' });
    }

    /** The rows of one day through the API (the list's own answer). */
    async function rowsOf(date: string): Promise<Row[]> {
      return (await apiAs<{ list: Row[] }>(page(), 'GET', `/api/transactions?startDate=${date}&endDate=${date}`)).list;
    }

    /** The files the offline store keeps for entries saved offline (db.ts, `files`). */
    function keptFiles(): Promise<{ name: string; target: number; size: number }[]> {
      return page().evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open(`ledger-offline-${localStorage.getItem('ledger.user')}`);
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        try {
          const files = await new Promise<{ name: string; target: number; blob: Blob }[]>((resolve, reject) => {
            const req = db.transaction('files').objectStore('files').getAll();
            req.onsuccess = () => resolve(req.result as { name: string; target: number; blob: Blob }[]);
            req.onerror = () => reject(req.error);
          });
          return files.map((f) => ({ name: f.name, target: f.target, size: f.blob.size }));
        } finally {
          db.close();
        }
      });
    }

    async function noSidewaysScroll() {
      const [scroll, width] = await page().evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      assert.ok(scroll <= width, `no sideways scroll (${scroll} > ${width})`);
    }

    it("shows a row's image as a thumbnail that opens full size without opening the entry", async () => {
      const t = truth(images.row);
      const date = t.date;
      const categories = await apiAs<{ list: { id: number; kind: string }[] }>(page(), 'GET', '/api/categories');
      const category = categories.list.find((c) => c.kind === 'expense')!;
      const created = await apiAs<{ id: number }>(page(), 'POST', '/api/transactions', {
        kind: 'expense',
        amount: t.amount,
        category_id: category.id,
        date,
        note: `row ${t.counterparty}`,
      });
      // the image attached as the add form attaches it (multipart, field `file`)
      const data = bytes(t.file).toString('base64');
      const status = await page().evaluate(
        async ([id, b64, name]) => {
          const tokens = JSON.parse(localStorage.getItem('ledger.tokens') ?? '{}') as { access_token?: string };
          const form = new FormData();
          const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          form.append('file', new Blob([raw], { type: 'image/jpeg' }), name);
          const res = await fetch(`/api/transactions/${id}/attachments`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${tokens.access_token}` },
            body: form,
          });
          return res.status;
        },
        [created.id, data, t.file] as const,
      );
      assert.equal(status, 201);
      const [listed] = (await rowsOf(date)).filter((r) => r.id === created.id);
      assert.deepEqual(
        listed?.attachments.map((a) => [a.name, a.has_thumbnail]),
        [[t.file, true]],
      );

      await books(date);
      const row = rowOf(`row ${t.counterparty}`);
      const thumb = row.getByTestId('row-attachment').locator('img');
      await thumb.waitFor();
      assert.equal(await thumb.getAttribute('alt'), w.open(t.file));
      await until(async () => (await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)) > 0, 'the thumbnail');
      assert.ok(
        (await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)) <= 320,
        'a thumbnail, not the file',
      );
      await noSidewaysScroll();

      await row.getByTestId('row-attachment').click();
      const full = page().getByTestId('attachment-full').locator('img');
      await full.waitFor();
      await until(async () => (await full.evaluate((img: HTMLImageElement) => img.naturalWidth)) > 0, 'the image');
      assert.ok((await full.evaluate((img: HTMLImageElement) => img.naturalWidth)) > 320, 'the full-size image');
      assert.equal(await full.getAttribute('alt'), t.file);
      assert.equal(await page().getByRole('dialog', { name: w.editTitle }).count(), 0, 'the entry stays closed');
      await page().getByTestId('attachment-close').click();
      await page().getByTestId('attachment-full').waitFor({ state: 'detached' });

      // the row itself still opens the entry, whose form shows the same attachment
      await row.locator('button.tx').click();
      const detail = page().getByRole('dialog', { name: w.editTitle });
      await detail.getByTestId('attachment-thumb').locator('img').waitFor();
    });

    it('keeps the photo of an entry saved offline and attaches it once the network returns', async () => {
      const t = truth(images.offline);
      await books(t.date, '&new=1');
      const dialog = page().getByRole('dialog', { name: w.newTitle });
      await dialog.waitFor();
      await dialog.getByTestId('receipt-photo').setInputFiles({
        name: t.file,
        mimeType: 'image/jpeg',
        buffer: bytes(t.file),
      });
      const amount = dialog.locator('input[name="amount"]');
      await until(async () => (await amount.inputValue()) === t.amount, `the amount ${t.amount} read from ${t.file}`);

      await tab.context.setOffline(true);
      try {
        const category = dialog.locator('select[name="category_id"]');
        if (!(await category.inputValue())) await category.selectOption({ index: 1 });
        await dialog.getByRole('button', { name: w.save, exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
        await toastShown(page(), w.added);
        // waiting in the outbox, its image with it
        await rowOf(t.counterparty).getByTestId('tx-pending').getByText(w.pending).waitFor();
        const kept = await keptFiles();
        assert.deepEqual(
          kept.map((f) => [f.name, f.size, f.target < 0]),
          [[t.file, bytes(t.file).length, true]],
        );
      } finally {
        await tab.context.setOffline(false);
      }

      // once online: the entry is created and its image attached, once
      await until(async () => {
        const rows = (await rowsOf(t.date)).filter((r) => r.note === t.counterparty);
        return rows.length === 1 && rows[0]!.attachments.length === 1;
      }, 'the entry with its image on the server');
      const [saved] = (await rowsOf(t.date)).filter((r) => r.note === t.counterparty);
      assert.equal(saved!.amount, Number(t.amount));
      assert.deepEqual(
        saved!.attachments.map((a) => [a.name, a.mime, a.has_thumbnail]),
        [[t.file, 'image/jpeg', true]],
      );
      // the row reloads with its thumbnail, no longer waiting
      const row = rowOf(t.counterparty);
      await row.getByTestId('row-attachment').locator('img').waitFor();
      await until(async () => (await row.getByTestId('tx-pending').count()) === 0, 'the row sent');
      await until(async () => (await keptFiles()).length === 0, 'the kept image let go once the server holds it');
      await noSidewaysScroll();
      assert.deepEqual(
        tab.problems.filter((p) => p.startsWith('pageerror')),
        [],
      );
    });
  });
}

scenario(EN, PORT, { row: 'wechat_detail-en-light', offline: 'alipay_success-en-dark' });
scenario(ZH, PORT + 1, { row: 'wechat_detail-zh-light', offline: 'alipay_success-zh-dark' });
