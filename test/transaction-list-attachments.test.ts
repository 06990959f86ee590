// The list of transactions names each row's attachments (additive field `attachments`): what a row
// needs to show thumbnails and open the files, only on rows the reader may see, counts exact.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
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

type RowFile = { id: number; mime: string; name: string; has_thumbnail: boolean };
type Row = { id: number; attachments: RowFile[] } & Record<string, unknown>;

const image = (background: string, width = 200) =>
  sharp({ create: { width, height: 120, channels: 3, background } })
    .png()
    .toBuffer();
const pdf = () => readFileSync(new URL('./fixtures/receipts/invoice.pdf', import.meta.url));

describe('attachments on the rows of the transaction list', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let a: Client;
  let b: Client;

  before(async () => {
    t = await build({ receipts: { ocr: false, queue: 0, quotaBytes: 20 * 1024 * 1024 } });
    ({ alice, bob, asAlice: a, asBob: b } = await aliceAndBob(t));
  });
  after(async () => t.close());

  /** Attaches a file as `who`; answers the attachment as the upload route gave it. */
  async function attach(who: Client, transactionId: number, bytes: Buffer, name: string) {
    const res = await who.post(`/api/transactions/${transactionId}/attachments`, multipart(bytes, { filename: name }));
    assert.equal(res.statusCode, 201, res.body);
    return res.json<{ id: number; mime: string; name: string; has_thumbnail: boolean }>();
  }
  const rowFile = (x: RowFile): RowFile => ({ id: x.id, mime: x.mime, name: x.name, has_thumbnail: x.has_thumbnail });

  async function list(who: Client, query: Record<string, string | number> = {}): Promise<Row[]> {
    const res = await who.get('/api/transactions', { query: { pageSize: 100, ...query } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ list: Row[] }>().list;
  }

  it("shows the owner each row's files, oldest first, and [] on a row without any", async () => {
    const withFiles = await createTransaction(t.db, alice.id, { date: '2026-03-02' });
    const without = await createTransaction(t.db, alice.id, { date: '2026-03-01' });
    const photo = await attach(a, withFiles.id, await image('#336699'), '小票.png');
    const invoice = await attach(a, withFiles.id, pdf(), 'invoice.pdf');

    const rows = await list(a, { startDate: '2026-03-01', endDate: '2026-03-02' });
    assert.deepEqual(
      rows.map((r) => r.id),
      [withFiles.id, without.id],
    );
    assert.deepEqual(rows[0]!.attachments, [
      { id: photo.id, mime: 'image/png', name: '小票.png', has_thumbnail: true },
      { id: invoice.id, mime: 'application/pdf', name: 'invoice.pdf', has_thumbnail: false },
    ]);
    assert.deepEqual(rows[1]!.attachments, []);

    // additive: every other field is what the transaction itself answers
    for (const row of rows) {
      const { attachments: _files, ...rest } = row;
      const one = await a.get(`/api/transactions/${row.id}`);
      assert.deepEqual(rest, one.json());
    }
    // what the row names opens: the thumbnail of the image, the file of the PDF
    assert.equal((await a.get(`/api/attachments/${photo.id}/thumbnail`)).statusCode, 200);
    assert.equal((await a.get(`/api/attachments/${invoice.id}/file`)).statusCode, 200);
  });

  it("counts each row's own files exactly over a whole page, the same file on two rows included", async () => {
    const date = '2026-04-10';
    const wanted = [0, 3, 1, 0, 2, 10];
    const shared = await image('#aa0000');
    const expected = new Map<number, number[]>();
    for (const n of wanted) {
      const row = await createTransaction(t.db, alice.id, { date });
      const ids: number[] = [];
      // the first file of each row is the same picture: one stored file, an attachment on each row
      for (let i = 0; i < n; i++)
        ids.push((await attach(a, row.id, i === 0 ? shared : await image('#00aa00', 100 + i), `f${i}.png`)).id);
      expected.set(row.id, ids);
    }
    const rows = await list(a, { startDate: date, endDate: date });
    assert.equal(rows.length, wanted.length);
    for (const row of rows) {
      assert.deepEqual(
        row.attachments.map((x) => x.id),
        expected.get(row.id),
        `row ${row.id}`,
      );
    }
    const counts = rows.map((r) => r.attachments.length).sort((x, y) => x - y);
    assert.deepEqual(
      counts,
      [...wanted].sort((x, y) => x - y),
    );
    // a file removed leaves the list at once
    const six = rows.find((r) => r.attachments.length === 10)!;
    assert.equal((await a.delete(`/api/attachments/${six.attachments[0]!.id}`)).statusCode, 204);
    const after = (await list(a, { startDate: date, endDate: date })).find((r) => r.id === six.id)!;
    assert.deepEqual(after.attachments.map(rowFile), six.attachments.slice(1).map(rowFile));
  });

  it("never shows another person's rows or files", async () => {
    const date = '2026-05-05';
    const hers = await createTransaction(t.db, alice.id, { date });
    await attach(a, hers.id, await image('#123456'), 'alice.png');
    const his = await createTransaction(t.db, bob.id, { date });
    const bobs = await attach(b, his.id, await image('#654321'), 'bob.png');

    const bobRows = await list(b, { startDate: date, endDate: date });
    assert.deepEqual(
      bobRows.map((r) => [r.id, r.attachments.map((x) => x.id)]),
      [[his.id, [bobs.id]]],
    );
    const aliceRows = await list(a, { startDate: date, endDate: date });
    assert.deepEqual(
      aliceRows.map((r) => r.id),
      [hers.id],
    );
    assert.ok(!aliceRows.some((r) => r.attachments.some((x) => x.id === bobs.id)));
  });

  it("shows a group row's files to the group's members, and the group list to nobody else", async () => {
    const group = await createGroup(t.db, alice.id);
    await addMember(t.db, group.id, bob.id);
    const carol = await createUser(t.db);
    const row = await createTransaction(t.db, alice.id, { groupId: group.id, paidBy: alice.id, date: '2026-06-01' });
    const file = await attach(a, row.id, await image('#0a0a0a'), 'dinner.png');
    // a member attaches too: the row carries both, the owner sees both
    const bobsFile = await attach(b, row.id, await image('#fafafa'), 'bill.png');

    for (const who of [a, b]) {
      const rows = await list(who, { group_id: group.id });
      assert.deepEqual(
        rows.map((r) => [r.id, r.attachments.map(rowFile)]),
        [
          [
            row.id,
            [
              { id: file.id, mime: 'image/png', name: 'dinner.png', has_thumbnail: true },
              { id: bobsFile.id, mime: 'image/png', name: 'bill.png', has_thumbnail: true },
            ],
          ],
        ],
      );
      assert.equal((await who.get(`/api/attachments/${file.id}/thumbnail`)).statusCode, 200);
    }
    // the one who recorded it also sees it in their own list, with its files
    const own = (await list(a, { startDate: '2026-06-01', endDate: '2026-06-01' })).find((r) => r.id === row.id);
    assert.equal(own?.attachments.length, 2);
    // the member's own list holds only their own rows
    assert.ok(!(await list(b, { startDate: '2026-06-01', endDate: '2026-06-01' })).some((r) => r.id === row.id));

    const c = t.as(carol);
    assertError(await c.get('/api/transactions', { query: { group_id: group.id } }), 403, 40302);
    assertError(await c.get(`/api/attachments/${file.id}/thumbnail`), 404, 40401);
  });
});
