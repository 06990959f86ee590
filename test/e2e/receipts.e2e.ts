// Receipts in the add form of the built client with its service worker, in both languages (English
// on a desktop, Chinese on a phone): a photo read into the form and saved with the image attached
// and the order id kept (the same photo again is known), two screenshots pasted at once confirmed
// one after the other, an image shared to the installed app (posted to its share target, kept by
// the service worker) opening the form with its draft, and an image added offline read once the
// network returns, or kept with the entry typed by hand while it waited. The saved entries are
// checked through the API.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import type { Truth } from '../fixtures/receipts/generate.ts';
import { bytes, truth } from './receipt-fixtures.ts';
import {
  apiAs,
  DESKTOP,
  PHONE,
  serverAndBrowser,
  signInWechat,
  toastShown,
  until,
  WAIT_MS,
  type Tab,
} from './harness.ts';

const PORT = 3296;

interface Words {
  locale: string;
  viewport: { width: number; height: number };
  newTitle: string;
  editTitle: string;
  save: string;
  cancel: string;
  added: string;
  waiting: string;
  known: string;
  position: (n: number, total: number) => string;
  check: string;
}

const EN: Words = {
  locale: 'en-US',
  viewport: DESKTOP,
  newTitle: 'New transaction',
  editTitle: 'Edit transaction',
  save: 'Save',
  cancel: 'Cancel',
  added: 'Transaction added',
  waiting: 'Waiting for the network',
  known: 'This screenshot is already attached to an entry.',
  position: (n, total) => `${n} of ${total}`,
  check: 'Please check the marked fields.',
};
const ZH: Words = {
  locale: 'zh-CN',
  viewport: PHONE,
  newTitle: '记一笔',
  editTitle: '编辑账目',
  save: '保存',
  cancel: '取消',
  added: '已记一笔',
  waiting: '正在等待网络',
  known: '这张截图已经附在某笔账目上了。',
  position: (n, total) => `第 ${n} 张，共 ${total} 张`,
  check: '标出的内容请核对一下。',
};

interface Row {
  id: number;
  amount: number;
  currency: string;
  note: string;
  date: string;
}

function scenario(
  w: Words,
  port: number,
  images: { photo: string; paste: [string, string]; share: string; offline: string; typed: string },
) {
  describe(`receipts in the add form (${w.locale}, ${w.viewport.width} px)`, () => {
    const live = serverAndBrowser(port);
    let tab: Tab;
    const page = () => tab.page;
    const dialog = () => page().getByRole('dialog', { name: w.newTitle });
    const amount = () => dialog().locator('input[name="amount"]');
    const tag = w.locale === 'en-US' ? 'en' : 'zh';

    before(async () => {
      tab = await live.openTab({ locale: w.locale, viewport: w.viewport, serviceWorkers: 'allow' });
      await signInWechat(page(), `receipts-${tag}`);
      await page().waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
    });

    async function openForm() {
      await page().goto('/books?new=1');
      await dialog().waitFor();
      return dialog();
    }

    /** The draft of this fixture fills the form: amount as printed, counterparty as the note. */
    async function draftOf(t: Truth) {
      await until(async () => (await amount().inputValue()) === t.amount, `the amount ${t.amount} read from ${t.file}`);
      assert.equal(await dialog().locator('input[name="note"]').inputValue(), t.counterparty);
    }

    /**
     * Saves the draft (its category, when the suggester left none, the first one) until `saved` holds (by default:
     * the form closed); a refusal fails with its text.
     */
    async function save(saved = async () => (await dialog().count()) === 0) {
      const category = dialog().locator('select[name="category_id"]');
      if (!(await category.inputValue())) await category.selectOption({ index: 1 });
      await dialog().getByRole('button', { name: w.save, exact: true }).click();
      const refusal = dialog().locator('.error[role="alert"]');
      await until(
        async () => (await saved()) || (await refusal.count()) > 0,
        'the entry saved',
        WAIT_MS,
        // what the form held when it did not close: a field the browser refused, or a draft lost
        () =>
          dialog().evaluate((el) => {
            const fields = [...el.querySelectorAll<HTMLInputElement>('input[name], select[name]')];
            return {
              fields: Object.fromEntries(fields.map((f) => [f.name, f.value])),
              invalid: fields.filter((f) => !f.validity.valid).map((f) => `${f.name}: ${f.validationMessage}`),
              status: el.querySelector('[data-testid="receipt-status"]')?.textContent?.trim() ?? null,
            };
          }),
      );
      if (await refusal.count()) throw new Error(`refused: ${await refusal.innerText()}`);
      await toastShown(page(), w.added);
    }

    /** The saved entry of a fixture, through the API: amount exact, the image attached. */
    async function savedEntry(t: Truth): Promise<Row> {
      const list = (
        await apiAs<{ list: Row[] }>(page(), 'GET', `/api/transactions?keyword=${encodeURIComponent(t.counterparty)}`)
      ).list.filter((r) => r.date === t.date);
      assert.equal(list.length, 1, `one entry for ${t.file}: ${JSON.stringify(list)}`);
      const row = list[0]!;
      assert.equal(row.amount, Number(t.amount));
      assert.equal(row.currency, 'CNY');
      const files = await apiAs<{ list: { mime: string; has_thumbnail: boolean }[] }>(
        page(),
        'GET',
        `/api/transactions/${row.id}/attachments`,
      );
      assert.equal(files.list.length, 1, `the image of ${t.file} is attached`);
      assert.ok(files.list[0]!.has_thumbnail);
      return row;
    }

    /** Files given to the page as a paste: a ClipboardEvent holding them, dispatched on the amount field. */
    async function paste(target: Locator, files: string[]) {
      const payload = files.map((f) => ({ name: f, data: bytes(f).toString('base64') }));
      await target.evaluate((el, list) => {
        const dt = new DataTransfer();
        for (const f of list) {
          const raw = Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0));
          dt.items.add(new File([raw], f.name, { type: 'image/jpeg' }));
        }
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      }, payload);
    }

    it('a photo fills the form, marks what to check, and is attached to the entry saved with its order id', async () => {
      const t = truth(images.photo);
      const form = await openForm();
      await form.getByTestId('receipt-photo').setInputFiles({
        name: t.file,
        mimeType: 'image/jpeg',
        buffer: bytes(t.file),
      });
      await draftOf(t);
      await form.getByTestId('receipt-order').getByText(t.order_id!).waitFor();
      await form.getByTestId('receipt-check').getByText(w.check).waitFor();
      await save();
      const row = await savedEntry(t);

      // its detail shows the thumbnail, which opens full size
      await page().goto(`/books?startDate=${t.date}&endDate=${t.date}`);
      await page()
        .locator('main [data-testid="tx-row"]')
        .filter({ hasText: t.counterparty })
        .getByRole('button')
        .first()
        .click();
      const detail = page().getByRole('dialog', { name: w.editTitle });
      await detail.getByTestId('attachment-thumb').locator('img').waitFor();
      await detail.getByTestId('attachment-thumb').click();
      const full = detail.getByTestId('attachment-full').locator('img');
      await full.waitFor();
      assert.ok((await full.evaluate((img: HTMLImageElement) => img.naturalWidth)) > 320, 'the full-size image');
      await detail.getByTestId('attachment-close').click();
      await detail.getByRole('button', { name: w.cancel }).click();
      assert.ok(row.id > 0);

      if (w.locale !== 'en-US') return;
      // the same photo again is known (once: each image read takes a second of the server's time)
      const again = await openForm();
      await again.getByTestId('receipt-photo').setInputFiles({
        name: t.file,
        mimeType: 'image/jpeg',
        buffer: bytes(t.file),
      });
      await again.getByTestId('receipt-known').getByText(w.known).waitFor();
      assert.equal(await amount().inputValue(), '', 'a known image does not fill the form');
      await again.getByTestId('receipt-skip').click();
      await until(async () => (await again.getByTestId('receipt-status').count()) === 0, 'the known image skipped');
    });

    it('two pasted screenshots become two drafts, confirmed one after the other', async () => {
      const [a, b] = images.paste.map(truth) as [Truth, Truth];
      const form = await openForm();
      await paste(amount(), [a.file, b.file]);
      await form.getByTestId('receipt-position').getByText(w.position(1, 2)).waitFor();
      await draftOf(a);
      // the form stays open for the second draft
      const second = form.getByTestId('receipt-position').getByText(w.position(2, 2));
      await save(async () => (await second.count()) > 0);
      await draftOf(b);
      await save();
      await savedEntry(a);
      await savedEntry(b);
    });

    it('an image shared to the installed app opens the add form with its draft', async () => {
      const t = truth(images.share);
      const manifest = (await (await page().request.get('/manifest.webmanifest')).json()) as {
        share_target: { action: string; method: string; enctype: string; params: { files: { name: string }[] } };
      };
      assert.deepEqual([manifest.share_target.method, manifest.share_target.enctype], ['POST', 'multipart/form-data']);
      const field = manifest.share_target.params.files[0]!.name;
      // what the system does when a person shares to the app: a form posted to the share target, in the app's scope
      await page().goto('/books');
      await page().evaluate(
        ({ action, field: name }) => {
          const form = document.createElement('form');
          form.method = 'post';
          form.enctype = 'multipart/form-data';
          form.action = action;
          form.id = 'share';
          const input = document.createElement('input');
          input.type = 'file';
          input.name = name;
          form.append(input);
          document.body.append(form);
        },
        { action: manifest.share_target.action, field },
      );
      await page()
        .locator('#share input')
        .setInputFiles({ name: t.file, mimeType: 'image/jpeg', buffer: bytes(t.file) });
      const answered = page().waitForResponse((r) => r.url().endsWith(manifest.share_target.action));
      await page().evaluate(() => (document.getElementById('share') as HTMLFormElement).submit());
      const res = await answered;
      assert.equal(res.status(), 303);
      assert.ok(res.fromServiceWorker(), 'the service worker answered the share');
      await dialog().waitFor();
      await draftOf(t);
      await save();
      await savedEntry(t);
    });

    it('offline, an image waits and is read into a draft when the network returns', async () => {
      const t = truth(images.offline);
      const form = await openForm();
      await tab.context.setOffline(true);
      try {
        await form.getByTestId('receipt-photo').setInputFiles({
          name: t.file,
          mimeType: 'image/jpeg',
          buffer: bytes(t.file),
        });
        await form.getByTestId('receipt-status').getByText(w.waiting).waitFor();
        assert.equal(await amount().inputValue(), '');
      } finally {
        await tab.context.setOffline(false);
      }
      await draftOf(t);
      await save();
      await savedEntry(t);
      assert.deepEqual(
        tab.problems.filter((p) => p.startsWith('pageerror')),
        [],
      );
    });

    it('offline, an image waiting to be read goes with the entry typed by hand instead', async () => {
      const t = truth(images.typed);
      const note = `typed by hand ${tag}`;
      const form = await openForm();
      await tab.context.setOffline(true);
      try {
        await form
          .getByTestId('receipt-photo')
          .setInputFiles({ name: t.file, mimeType: 'image/jpeg', buffer: bytes(t.file) });
        await form.getByTestId('receipt-status').getByText(w.waiting).waitFor();
        await amount().fill('41.30');
        await dialog().locator('input[name="note"]').fill(note);
        await save();
      } finally {
        await tab.context.setOffline(false);
      }
      // back online: the entry reaches the server, then its image as its attachment
      let row: Row | undefined;
      await until(async () => {
        const list = (
          await apiAs<{ list: Row[] }>(page(), 'GET', `/api/transactions?keyword=${encodeURIComponent(note)}`)
        ).list;
        row = list[0];
        if (list.length !== 1) return false;
        const files = await apiAs<{ list: unknown[] }>(page(), 'GET', `/api/transactions/${row!.id}/attachments`);
        return files.list.length === 1;
      }, 'the typed entry with the image attached');
      assert.equal(row!.amount, 41.3);
      // the image is not read into a second draft afterwards: no form opens, no second entry
      await page().waitForTimeout(1500);
      assert.equal(await page().getByRole('dialog').count(), 0);
      const again = await apiAs<{ list: Row[] }>(
        page(),
        'GET',
        `/api/transactions?keyword=${encodeURIComponent(t.counterparty)}`,
      );
      assert.deepEqual(
        again.list.filter((r) => r.date === t.date),
        [],
      );
    });
  });
}

scenario(EN, PORT, {
  photo: 'wechat_success-en-light',
  paste: ['alipay_success-en-light', 'wechat_detail-en-light'],
  share: 'alipay_detail-en-light',
  offline: 'wechat_success-en-dark',
  typed: 'alipay_success-en-dark',
});
scenario(ZH, PORT + 1, {
  photo: 'wechat_success-zh-light',
  paste: ['alipay_success-zh-light', 'wechat_detail-zh-light'],
  share: 'alipay_detail-zh-light',
  offline: 'wechat_success-zh-dark',
  typed: 'alipay_success-zh-dark',
});
