import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema/index.ts';
import { createTokenService } from '../src/modules/identity/index.ts';
import { EXPORT_PAGE, exportPages } from '../src/modules/export/export.service.ts';
import {
  addMember,
  aliceAndBob,
  assertError,
  build,
  bulkTransactions,
  type Client,
  createCategory,
  createGroup,
  createTag,
  createTransaction,
  createUser,
  firstCategory,
  readCsv,
  tagTransaction,
  TEST_SECRET,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

const HEADER = [
  'date',
  'kind',
  'amount',
  'category',
  'note',
  'tags',
  'group_id',
  'created_at',
  'account',
  'currency',
  'to_account',
  'to_amount',
  'rate',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('export', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let asAlice: Client;
  let food: number;
  let salary: number;
  let groupId: number;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice } = await aliceAndBob(t));
    food = (await firstCategory(t.db, alice.id, 'expense')).id;
    salary = (await firstCategory(t.db, alice.id, 'income')).id;
    const group = await createGroup(t.db, bob.id);
    groupId = group.id;
    await addMember(t.db, group.id, alice.id);

    // alice's data in January 2026
    const danger = await createCategory(t.db, alice.id, { name: '=HYPERLINK("x")', kind: 'expense' });
    const a1 = await createTransaction(t.db, alice.id, {
      date: '2026-01-10',
      amountMinor: 1250,
      categoryId: food,
      note: 'lunch, with "friends"\nsecond line',
    });
    await createTransaction(t.db, alice.id, {
      date: '2026-01-05',
      amountMinor: 500000,
      categoryId: salary,
      kind: 'income',
      note: 'salary',
    });
    await createTransaction(t.db, alice.id, {
      date: '2026-01-20',
      amountMinor: 7,
      categoryId: danger.id,
      note: '+SUM(A1:A9)',
    });
    await createTransaction(t.db, alice.id, {
      date: '2026-01-20',
      amountMinor: 300,
      categoryId: food,
      note: '-minus',
      groupId: group.id,
    });
    await createTransaction(t.db, alice.id, {
      date: '2026-01-31',
      amountMinor: 100,
      categoryId: food,
      note: '@mention',
    });
    await createTransaction(t.db, alice.id, {
      date: '2026-01-01',
      amountMinor: 100,
      categoryId: food,
      note: '\tTabbed',
    });
    // outside the range, and other people's rows (bob's, even in the shared group)
    await createTransaction(t.db, alice.id, {
      date: '2025-12-31',
      amountMinor: 100,
      categoryId: food,
      note: 'too early',
    });
    await createTransaction(t.db, alice.id, {
      date: '2026-02-01',
      amountMinor: 100,
      categoryId: food,
      note: 'too late',
    });
    await createTransaction(t.db, bob.id, { date: '2026-01-15', amountMinor: 999, note: 'bob private' });
    await createTransaction(t.db, bob.id, {
      date: '2026-01-15',
      amountMinor: 999,
      note: 'bob in group',
      groupId: group.id,
    });
    const zeta = await createTag(t.db, alice.id, { name: 'zeta' });
    const alpha = await createTag(t.db, alice.id, { name: 'alpha' });
    const at = await createTag(t.db, alice.id, { name: '=tag' });
    await tagTransaction(t.db, a1.id, [zeta.id, alpha.id]);
    const tx2 = await createTransaction(t.db, alice.id, {
      date: '2026-01-11',
      amountMinor: 42,
      categoryId: food,
      note: 'tagged',
    });
    await tagTransaction(t.db, tx2.id, [at.id]);
  });
  after(async () => t.close());

  const JAN = 'startDate=2026-01-01&endDate=2026-01-31';

  it('streams the CSV: BOM, header, own rows in date order, download headers', async () => {
    const res = await asAlice.get(`/api/export?${JAN}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="transactions-2026-01-01-2026-01-31.csv"');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const { header, rows } = readCsv(res.rawPayload);
    assert.deepEqual(header, HEADER);
    assert.deepEqual(
      rows.map((r) => r.slice(0, 7)),
      [
        ['2026-01-01', 'expense', '1.00', 'Food', "'\tTabbed", '', ''],
        ['2026-01-05', 'income', '5000.00', 'Salary', 'salary', '', ''],
        ['2026-01-10', 'expense', '12.50', 'Food', 'lunch, with "friends"\nsecond line', 'alpha|zeta', ''],
        ['2026-01-11', 'expense', '0.42', 'Food', 'tagged', "'=tag", ''],
        ['2026-01-20', 'expense', '0.07', '\'=HYPERLINK("x")', "'+SUM(A1:A9)", '', ''],
        ['2026-01-20', 'expense', '3.00', 'Food', "'-minus", '', String(groupId)],
        ['2026-01-31', 'expense', '1.00', 'Food', "'@mention", '', ''],
      ],
    );
    for (const r of rows) assert.match(r[7]!, ISO);
  });

  it('filters by type', async () => {
    const inc = readCsv((await asAlice.get(`/api/export?${JAN}&type=income`)).rawPayload).rows;
    assert.deepEqual(
      inc.map((r) => r[4]),
      ['salary'],
    );
    const exp = readCsv((await asAlice.get(`/api/export?${JAN}&type=expense`)).rawPayload).rows;
    assert.equal(exp.length, 6);
    assert.ok(exp.every((r) => r[1] === 'expense'));
    assert.equal(readCsv((await asAlice.get(`/api/export?${JAN}&type=all`)).rawPayload).rows.length, 7);
  });

  it('includes both ends of the range', async () => {
    const rows = readCsv((await asAlice.get('/api/export?startDate=2026-01-31&endDate=2026-02-01')).rawPayload).rows;
    assert.deepEqual(
      rows.map((r) => r[0]),
      ['2026-01-31', '2026-02-01'],
    );
  });

  it('streams JSON: one array of objects with the same keys', async () => {
    const res = await asAlice.get(`/api/export?${JAN}&format=json`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="transactions-2026-01-01-2026-01-31.json"');
    assert.equal(res.headers['cache-control'], 'no-store');
    const list = res.json();
    assert.ok(Array.isArray(list));
    assert.equal(list.length, 7);
    for (const row of list) assert.deepEqual(Object.keys(row), HEADER);
    const lunch = list.find((r: { note: string }) => r.note.startsWith('lunch'));
    assert.deepEqual(
      { ...lunch, created_at: 'x' },
      {
        date: '2026-01-10',
        kind: 'expense',
        amount: 12.5,
        category: 'Food',
        note: 'lunch, with "friends"\nsecond line',
        tags: ['alpha', 'zeta'],
        group_id: null,
        created_at: 'x',
        account: 'Cash',
        currency: 'CNY',
        to_account: null,
        to_amount: null,
        rate: null,
      },
    );
    assert.match(lunch.created_at, ISO);
    // JSON is not opened by spreadsheets: text is exported as is
    assert.ok(
      list.some((r: { note: string; group_id: number | null }) => r.note === '-minus' && r.group_id === groupId),
    );
    const empty = await asAlice.get('/api/export?startDate=2000-01-01&endDate=2000-01-02&format=json');
    assert.deepEqual(empty.json(), []);
  });

  it('answers an empty range with only the header', async () => {
    const res = await asAlice.get('/api/export?startDate=2000-01-01&endDate=2000-12-31');
    assert.equal(res.statusCode, 200);
    assert.equal(
      res.body,
      '\ufeffdate,kind,amount,category,note,tags,group_id,created_at,account,currency,to_account,to_amount,rate\n',
    );
  });

  it('validates ExportParams with 40001', async () => {
    const bad = [
      'endDate=2026-01-31',
      'startDate=2026-01-01',
      'startDate=2026-02-30&endDate=2026-03-01',
      'startDate=2026-01-01&endDate=2026-13-01',
      'startDate=20260101&endDate=2026-01-31',
      'startDate=2026-02-01&endDate=2026-01-31',
      `${JAN}&type=gift`,
      `${JAN}&format=xml`,
      // the database has no year 0: refused before the download starts
      'startDate=0000-01-01&endDate=2026-01-31',
      'startDate=0000-01-01&endDate=0000-12-31',
    ];
    for (const q of bad) assertError(await asAlice.get(`/api/export?${q}`), 400, 40001, q);
  });

  it('needs a valid token in the header or the query (40101); a token problem wins over bad parameters', async () => {
    assertError(await t.anon.get(`/api/export?${JAN}`), 401, 40101, 'none');
    assertError(
      await t.withHeaders({ authorization: 'Bearer nope' }).get(`/api/export?${JAN}`),
      401,
      40101,
      'bad bearer',
    );
    assertError(await t.anon.get(`/api/export?${JAN}&token=garbage`), 401, 40101, 'bad query token');
    assertError(await t.anon.get('/api/export?startDate=x'), 401, 40101, 'before validation');
    const foreign = createTokenService('another-secret-that-is-long-enough-0123456789');
    assertError(
      await t.anon.get(`/api/export?${JAN}&token=${await foreign.signAccess(alice.id, 'user')}`),
      401,
      40101,
      'foreign key',
    );
    assertError(
      await t.anon.get(`/api/export?${JAN}&token=${await foreign.signPurpose('export', String(alice.id), 300, {})}`),
      401,
      40101,
      'foreign export token',
    );
    const refresh = await t.app.tokens.signRefresh(alice.id, 'fam');
    assertError(await t.anon.get(`/api/export?${JAN}&token=${refresh.token}`), 401, 40101, 'refresh token');
    const other = await t.app.tokens.signPurpose('backup', String(alice.id), 300, {});
    assertError(await t.anon.get(`/api/export?${JAN}&token=${other}`), 401, 40101, 'other purpose');
    const past = createTokenService(TEST_SECRET, () => Date.now() - 301_000);
    const expired = await past.signPurpose('export', String(alice.id), 300, {
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    assertError(await t.anon.get(`/api/export?token=${expired}`), 401, 40101, 'expired export token');
    const expiredAccess = createTokenService(TEST_SECRET, () => Date.now() - 7201_000);
    assertError(
      await t.anon.get(`/api/export?${JAN}&token=${await expiredAccess.signAccess(alice.id, 'user')}`),
      401,
      40101,
      'expired access token',
    );
  });

  it('accepts an access token in ?token=', async () => {
    const token = await t.tokenFor(alice);
    const res = await t.anon.get(`/api/export?${JAN}&token=${token}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(readCsv(res.rawPayload).rows.length, 7);
  });

  it('prepares a 5-minute token whose download URL works without a header', async () => {
    const res = await asAlice.post('/api/export/prepare', {
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      type: 'income',
      format: 'json',
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.expires_in, 300);
    assert.ok(body.downloadUrl.startsWith(`/api/export?token=${body.token}&`));
    const claims = JSON.parse(Buffer.from(body.token.split('.')[1], 'base64url').toString());
    assert.equal(claims.typ, 'export');
    assert.equal(claims.sub, String(alice.id));
    assert.equal(claims.exp - claims.iat, 300);
    const dl = await t.anon.get(body.downloadUrl);
    assert.equal(dl.statusCode, 200, dl.body);
    assert.equal(dl.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(dl.headers['cache-control'], 'no-store');
    assert.deepEqual(
      dl.json().map((r: { note: string }) => r.note),
      ['salary'],
    );
  });

  it("lets the prepared token's parameters win over the query", async () => {
    const { token } = (
      await asAlice.post('/api/export/prepare', { startDate: '2026-01-05', endDate: '2026-01-05' })
    ).json();
    const res = await t.anon.get(
      `/api/export?token=${token}&startDate=2025-01-01&endDate=2027-01-01&format=json&type=expense`,
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="transactions-2026-01-05-2026-01-05.csv"');
    const rows = readCsv(res.rawPayload).rows;
    assert.deepEqual(
      rows.map((r) => [r[0], r[1]]),
      [['2026-01-05', 'income']],
    );
    // only the token: the parameters come from it
    const alone = await t.anon.get(`/api/export?token=${token}`);
    assert.equal(alone.statusCode, 200);
    assert.equal(readCsv(alone.rawPayload).rows.length, 1);
  });

  it("exports only the token owner's data", async () => {
    const { token } = (
      await t.as(bob).post('/api/export/prepare', { startDate: '2026-01-01', endDate: '2026-01-31' })
    ).json();
    const rows = readCsv((await asAlice.get(`/api/export?token=${token}`)).rawPayload).rows;
    assert.deepEqual(rows.map((r) => r[4]).sort(), ['bob in group', 'bob private']);
  });

  it('validates the prepare body with 40001 and needs a user (40101)', async () => {
    const bad: unknown[] = [
      {},
      { startDate: '2026-01-01' },
      { startDate: '2026-01-31', endDate: '2026-01-01' },
      { startDate: '2026-02-29', endDate: '2026-03-01' },
      { startDate: '2026-01-01', endDate: '2026-01-31', type: 'gift' },
      { startDate: '2026-01-01', endDate: '2026-01-31', format: 'xlsx' },
      { startDate: 20260101, endDate: '2026-01-31' },
    ];
    for (const b of bad) assertError(await asAlice.post('/api/export/prepare', b), 400, 40001, JSON.stringify(b));
    assertError(
      await t.anon.post('/api/export/prepare', { startDate: '2026-01-01', endDate: '2026-01-31' }),
      401,
      40101,
    );
  });

  it('refuses deleted or disabled users, with the header or a prepared token (40104)', async () => {
    const carol = await createUser(t.db);
    const asCarol = t.as(carol);
    const carolToken = await t.tokenFor(carol);
    const { token } = (
      await asCarol.post('/api/export/prepare', { startDate: '2026-01-01', endDate: '2026-01-31' })
    ).json();
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, carol.id));
    t.app.userState.invalidate(carol.id);
    assertError(await t.anon.get(`/api/export?token=${token}`), 401, 40104, 'disabled, prepared');
    await t.db.update(users).set({ status: 'active', deletedAt: new Date() }).where(eq(users.id, carol.id));
    t.app.userState.invalidate(carol.id);
    assertError(await t.anon.get(`/api/export?token=${token}`), 401, 40104, 'deleted, prepared');
    assertError(await asCarol.get(`/api/export?${JAN}`), 401, 40104, 'deleted, header');
    assertError(
      await t.anon.get(`/api/export?${JAN}&token=${carolToken}`),
      401,
      40104,
      'deleted, access token in query',
    );
  });

  it('pages through many rows by (date, id): every row once, in order, pages bounded', async () => {
    const dave = await createUser(t.db);
    const cat = (await firstCategory(t.db, dave.id)).id;
    const n = 2 * EXPORT_PAGE + 7;
    await bulkTransactions(t.db, dave.id, cat, n, '2026-03-01', 3);
    let pages = 0;
    let largest = 0;
    for await (const page of exportPages(t.db, dave.id, {
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      type: 'all',
      format: 'csv',
    })) {
      pages++;
      largest = Math.max(largest, page.rows.length);
    }
    assert.equal(pages, 3);
    assert.equal(largest, EXPORT_PAGE);

    const res = await t.as(dave).get('/api/export?startDate=2026-01-01&endDate=2026-12-31');
    const rows = readCsv(res.rawPayload).rows;
    assert.equal(rows.length, n);
    const notes = new Set(rows.map((r) => r[4]));
    assert.equal(notes.size, n, 'no row twice');
    const dates = rows.map((r) => r[0]!);
    assert.deepEqual(dates, [...dates].sort());
    assert.deepEqual([...new Set(dates)], ['2026-03-01', '2026-03-02', '2026-03-03']);
    const json = (await t.as(dave).get('/api/export?startDate=2026-01-01&endDate=2026-12-31&format=json')).json();
    assert.equal(json.length, n);
  });
});
