import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import sharp from 'sharp';
import { createDatabase } from '../src/db/client.ts';
import { attachments } from '../src/db/schema/index.ts';
import { restoreBackup, writeBackup } from '../src/modules/backups/backups.archive.ts';
import { tempDirs } from './helpers/temp.ts';
import {
  addMember,
  aliceAndBob,
  assertError,
  build,
  createGroup,
  createTransaction,
  createUser,
  multipart,
  type Client,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

/** A JPEG carrying an EXIF block with a GPS position, as phone cameras write it. */
async function photoWithLocation(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#c86432' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '39/1 54/1 0/1' },
    })
    .toBuffer();
}
const png = () =>
  sharp({ create: { width: 300, height: 600, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
const upload = (bytes: Buffer, filename: string, type = 'application/octet-stream') =>
  multipart(bytes, { filename, type });

const temp = tempDirs();

describe('attachments', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let a: Client;
  let b: Client;
  const fileOnDisk = (sha: string) => path.join(t.app.config.dataDir, 'attachments', sha.slice(0, 2), sha);

  before(async () => {
    t = await build({ receipts: { ocr: false, queue: 0, quotaBytes: 3 * 1024 * 1024 } });
    ({ alice, bob, asAlice: a, asBob: b } = await aliceAndBob(t));
  });
  after(async () => t.close());

  it('keeps a photo without its location, with a thumbnail, readable by its owner only', async () => {
    const row = await createTransaction(t.db, alice.id);
    const photo = await photoWithLocation();
    assert.ok((await sharp(photo).metadata()).exif, 'the fixture carries EXIF');
    const res = await a.post(`/api/transactions/${row.id}/attachments`, upload(photo, 'IMG_0001.jpg', 'image/jpeg'));
    assert.equal(res.statusCode, 201, res.body);
    const att = res.json();
    assert.equal(att.mime, 'image/jpeg');
    assert.equal(att.name, 'IMG_0001.jpg');
    assert.deepEqual([att.width, att.height, att.has_thumbnail], [640, 480, true]);

    const file = await a.get(`/api/attachments/${att.id}/file`);
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'image/jpeg');
    assert.equal(file.headers['x-content-type-options'], 'nosniff');
    assert.match(String(file.headers['content-security-policy']), /sandbox/);
    assert.match(String(file.headers['content-disposition']), /^inline; filename="IMG_0001.jpg"/);
    const kept = await sharp(file.rawPayload).metadata();
    assert.equal(kept.exif, undefined, 'EXIF (with its GPS position) is gone');
    assert.equal(kept.width, 640);

    const thumb = await a.get(`/api/attachments/${att.id}/thumbnail`);
    assert.equal(thumb.headers['content-type'], 'image/webp');
    const tm = await sharp(thumb.rawPayload).metadata();
    assert.equal(Math.max(tm.width!, tm.height!), 320);

    assertError(await b.get(`/api/attachments/${att.id}/file`), 404, 40401);
    assertError(await b.get(`/api/transactions/${row.id}/attachments`), 404, 40401);
    assertError(await b.post(`/api/transactions/${row.id}/attachments`, upload(await png(), 'x.png')), 404, 40401);
    const list = await a.get(`/api/transactions/${row.id}/attachments`);
    assert.deepEqual(
      list.json().list.map((x: { id: number }) => x.id),
      [att.id],
    );
  });

  it('keeps an e-invoice PDF, served for download rather than shown', async () => {
    const row = await createTransaction(t.db, alice.id);
    const pdf = readFileSync(new URL('./fixtures/receipts/invoice.pdf', import.meta.url));
    const res = await a.post(`/api/transactions/${row.id}/attachments`, upload(pdf, '发票.pdf', 'application/pdf'));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.json().mime, res.json().has_thumbnail, res.json().width], ['application/pdf', false, null]);
    const file = await a.get(`/api/attachments/${res.json().id}/file`);
    assert.equal(file.headers['content-type'], 'application/pdf');
    assert.match(String(file.headers['content-disposition']), /^attachment; /);
    assert.deepEqual(file.rawPayload, pdf);
    assertError(await a.get(`/api/attachments/${res.json().id}/thumbnail`), 404, 40401);
  });

  it("lets a group row's members read its files", async () => {
    const group = await createGroup(t.db, alice.id);
    await addMember(t.db, group.id, bob.id);
    const row = await createTransaction(t.db, alice.id, { groupId: group.id, paidBy: alice.id });
    const res = await a.post(`/api/transactions/${row.id}/attachments`, upload(await png(), '小票.png'));
    assert.equal(res.statusCode, 201, res.body);
    const file = await b.get(`/api/attachments/${res.json().id}/file`);
    assert.equal(file.statusCode, 200);
    assert.match(String(file.headers['content-disposition']), /filename\*=UTF-8''%E5%B0%8F%E7%A5%A8\.png/);
    const carol = await createUser(t.db);
    assertError(await t.as(carol).get(`/api/attachments/${res.json().id}/file`), 404, 40401);
  });

  it('refuses what is not a JPEG, PNG, WebP or PDF, naming it, and an eleventh file', async () => {
    const row = await createTransaction(t.db, alice.id);
    const cases: [Buffer, string, number, RegExp][] = [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'a.png', 415, /SVG/],
      [Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'), 'a.png', 415, /HTML/],
      [Buffer.from('GIF89a'), 'a.gif', 415, /JPEG, PNG, WebP or PDF/],
      [(await photoWithLocation()).subarray(0, 600), 'cut.jpg', 422, /damaged or incomplete/],
    ];
    for (const [bytes, name, status, message] of cases) {
      const res = await a.post(`/api/transactions/${row.id}/attachments`, upload(bytes, name));
      assert.equal(res.statusCode, status, `${name}: ${res.body}`);
      assert.match(res.json().message, message);
    }
    for (let i = 0; i < 10; i++) {
      const img = await sharp({ create: { width: 20 + i, height: 20, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      assert.equal((await a.post(`/api/transactions/${row.id}/attachments`, upload(img, `${i}.png`))).statusCode, 201);
    }
    const eleventh = await a.post(`/api/transactions/${row.id}/attachments`, upload(await png(), 'more.png'));
    assertError(eleventh, 422, 42201);
    assert.match(eleventh.json().message, /at most 10 files/);
  });

  it('keeps one file for two rows and removes it with the last, also when the transaction is deleted', async () => {
    const one = await createTransaction(t.db, alice.id);
    const two = await createTransaction(t.db, alice.id);
    const bytes = await sharp({ create: { width: 50, height: 70, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const first = (await a.post(`/api/transactions/${one.id}/attachments`, upload(bytes, 'r.png'))).json();
    const second = (await a.post(`/api/transactions/${two.id}/attachments`, upload(bytes, 'r.png'))).json();
    const sha = await shaOf(t, first.id);
    assert.ok(existsSync(fileOnDisk(sha)));
    assert.equal((await a.delete(`/api/attachments/${first.id}`)).statusCode, 204);
    assert.ok(existsSync(fileOnDisk(sha)), 'still used by the second row');
    assert.equal((await a.delete(`/api/transactions/${two.id}`)).statusCode, 204);
    await waitFor(() => !existsSync(fileOnDisk(sha)));
    assert.equal(existsSync(fileOnDisk(sha) + '.thumb.webp'), false);
    assertError(await a.get(`/api/attachments/${second.id}/file`), 404, 40401);
  });

  it('travels in a backup: a restore into a blank database brings back the rows and the files', async () => {
    const row = await createTransaction(t.db, alice.id);
    const bytes = await sharp({ create: { width: 90, height: 40, channels: 3, background: '#abcdef' } })
      .jpeg()
      .toBuffer();
    const att = (await a.post(`/api/transactions/${row.id}/attachments`, upload(bytes, 'b.jpg'))).json();
    const sha = await shaOf(t, att.id);
    const dir = temp('ledger-att-backup-');
    const file = path.join(dir, 'full.json.gz');
    await writeBackup(t.db, file, t.app.config.dataDir);
    const target = await createDatabase({ databaseUrl: null, embeddedDbDir: null, blank: true });
    const restoredDir = path.join(dir, 'data');
    try {
      await restoreBackup(target, file, () => {}, undefined, restoredDir);
      const [back] = await target.db.select().from(attachments).where(eq(attachments.id, att.id));
      assert.equal(back?.sha256, sha);
      const restored = path.join(restoredDir, 'attachments', sha.slice(0, 2), sha);
      assert.deepEqual(readFileSync(restored), readFileSync(fileOnDisk(sha)));
      assert.ok(existsSync(`${restored}.thumb.webp`));
    } finally {
      await target.close();
    }
  });

  it('exports the attachments of a period as a zip with an index of their entries', async () => {
    const erin = await createUser(t.db);
    const e = t.as(erin);
    const inside = await createTransaction(t.db, erin.id, { date: '2026-02-03', amountMinor: 2850, note: '午饭' });
    const outside = await createTransaction(t.db, erin.id, { date: '2026-04-01' });
    const pic = await png();
    const att = (await e.post(`/api/transactions/${inside.id}/attachments`, upload(pic, '小票.png'))).json();
    await e.post(`/api/transactions/${outside.id}/attachments`, upload(await photoWithLocation(), 'later.jpg'));
    const res = await e.get('/api/attachments/export', { query: { start_date: '2026-02-01', end_date: '2026-02-28' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/zip');
    assert.match(String(res.headers['content-disposition']), /attachments-2026-02-01-2026-02-28\.zip/);
    const zip = await JSZip.loadAsync(res.rawPayload);
    const name = `2026-02-03/${inside.id}-${att.id}-小票.png`;
    assert.deepEqual(Object.keys(zip.files).sort(), ['2026-02-03/', name, 'index.csv'].sort());
    assert.deepEqual(await zip.file(name)!.async('nodebuffer'), pic);
    const index = (await zip.file('index.csv')!.async('string'))
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r?\n/);
    assert.equal(index[1], `${name},${inside.id},2026-02-03,expense,28.50,CNY,午饭`);
    assertError(
      await e.get('/api/attachments/export', { query: { start_date: '2026-03-01', end_date: '2026-02-01' } }),
      400,
      40001,
    );
  });

  it('holds each person to the storage quota', async () => {
    const dave = await createUser(t.db);
    const d = t.as(dave);
    const row = await createTransaction(t.db, dave.id);
    // noise compresses badly: about 1.9 MB of PNG each
    const noisy = (seed: number) =>
      sharp(Buffer.from(Array.from({ length: 800 * 800 * 3 }, (_, i) => (i * 2654435761 + seed * 97) % 251)), {
        raw: { width: 800, height: 800, channels: 3 },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
    assert.equal(
      (await d.post(`/api/transactions/${row.id}/attachments`, upload(await noisy(1), '1.png'))).statusCode,
      201,
    );
    const over = await d.post(`/api/transactions/${row.id}/attachments`, upload(await noisy(2), '2.png'));
    assertError(over, 422, 42201);
    assert.match(over.json().message, /3 MiB/);
    const usage = (await d.get('/api/attachments/usage')).json();
    assert.equal(usage.quota_bytes, 3 * 1024 * 1024);
    assert.ok(usage.used_bytes > 1_000_000 && usage.used_bytes < usage.quota_bytes);
  });
});

async function shaOf(t: TestApp, id: number): Promise<string> {
  const [row] = await t.db.select({ sha: attachments.sha256 }).from(attachments).where(eq(attachments.id, id));
  return row!.sha;
}

async function waitFor(ok: () => boolean, ms = 3000) {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) assert.fail('the file was not removed in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
