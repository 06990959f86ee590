import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, asc, eq, sql } from 'drizzle-orm';
import iconv from 'iconv-lite';
import { categories, tags, transactions, transactionTags } from '../src/db/schema/index.ts';
import { query } from '../src/db/client.ts';
import type { AppError } from '../src/lib/errors.ts';
import { importFile } from '../src/modules/import/import.service.ts';
import {
  addMember,
  aliceAndBob,
  assertError,
  build,
  bulkTransactions,
  type Client,
  countTransactions,
  createGroup,
  createTag,
  createTransaction,
  createUser,
  firstCategory,
  multipart,
  tagTransaction,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

const HEADER = 'date,kind,amount,category,note,tags,group_id,created_at';

describe('import', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let asAlice: Client;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice } = await aliceAndBob(t));
  });
  after(async () => t.close());

  const csv = (...rows: string[]) => `${HEADER}\n${rows.join('\n')}\n`;
  const rowsOf = (userId: number) =>
    t.db
      .select({ t: transactions, category: categories.name, ckind: categories.kind })
      .from(transactions)
      .innerJoin(categories, eq(categories.id, transactions.categoryId))
      .where(eq(transactions.userId, userId))
      .orderBy(asc(transactions.date), asc(transactions.id));
  const tagNamesOf = async (txId: number) =>
    (
      await t.db
        .select({ name: tags.name })
        .from(transactionTags)
        .innerJoin(tags, eq(tags.id, transactionTags.tagId))
        .where(eq(transactionTags.transactionId, txId))
        .orderBy(asc(tags.name))
    ).map((r) => r.name);

  it('imports a CSV: categories and tags by name (created when missing), formula prefix removed, group kept only for live memberships', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const mine = await createGroup(t.db, bob.id);
    await addMember(t.db, mine.id, u.id);
    const notMine = await createGroup(t.db, bob.id);
    const dissolved = await createGroup(t.db, u.id, { dissolvedAt: new Date() });
    await createTag(t.db, u.id, { name: 'existing' });
    const file =
      '\ufeff' +
      csv(
        `2026-01-02,expense,12.50,Food,"lunch, ""good""",existing|new tag,,2025-12-31T10:00:00.000Z`,
        `2026-01-03,income,5000,Salary,,,,`,
        `2026-01-04,expense,3,'=Weird,'-minus,'@at|x,${mine.id},`,
        `2026-01-05,income,1.5,Gift,from grandma,,${notMine.id},`,
        `2026-01-06,expense,0.01,Gift,an expense gift,,${dissolved.id},`,
        `2026-01-07,expense,7,Food,"two
lines",,,`,
      );
    const res = await asU.post('/api/import', multipart(file));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { imported: 6, skipped: 0, errors: [] });
    const rows = await rowsOf(u.id);
    assert.deepEqual(
      rows.map((r) => [r.t.date, r.t.kind, r.t.amountMinor, r.category, r.ckind, r.t.note, r.t.groupId]),
      [
        ['2026-01-02', 'expense', 1250, 'Food', 'expense', 'lunch, "good"', null],
        ['2026-01-03', 'income', 500000, 'Salary', 'income', '', null],
        ['2026-01-04', 'expense', 300, '=Weird', 'expense', '-minus', mine.id],
        ['2026-01-05', 'income', 150, 'Gift', 'income', 'from grandma', null],
        ['2026-01-06', 'expense', 1, 'Gift', 'expense', 'an expense gift', null],
        ['2026-01-07', 'expense', 700, 'Food', 'expense', 'two\nlines', null],
      ],
    );
    assert.equal(rows[0]!.t.createdAt.toISOString(), '2025-12-31T10:00:00.000Z');
    assert.ok(Date.now() - rows[1]!.t.createdAt.getTime() < 60_000, 'no created_at: the import time');
    assert.deepEqual(await tagNamesOf(rows[0]!.t.id), ['existing', 'new tag']);
    assert.deepEqual(await tagNamesOf(rows[2]!.t.id), ['@at', 'x']);
    // "Gift" created once per kind, after the user's own categories
    const gifts = await t.db
      .select()
      .from(categories)
      .where(and(eq(categories.userId, u.id), eq(categories.name, 'Gift')));
    assert.deepEqual(gifts.map((g) => g.kind).sort(), ['expense', 'income']);
    const tagRows = await t.db.select().from(tags).where(eq(tags.userId, u.id));
    assert.deepEqual(tagRows.map((r) => r.name).sort(), ['@at', 'existing', 'new tag', 'x']);
  });

  it('skips duplicates: the same file twice adds nothing; counts per key', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const food = (await firstCategory(t.db, u.id)).id;
    await createTransaction(t.db, u.id, { date: '2026-02-01', amountMinor: 1000, categoryId: food, note: 'same' });
    const file = csv(
      '2026-02-01,expense,10,Food,same,,,',
      '2026-02-01,expense,10.00,Food,same,,,',
      '2026-02-01,expense,10,Food,other note,,,',
      '2026-02-01,income,10,Food,same,,,',
    );
    const first = await asU.post('/api/import', multipart(file));
    assert.deepEqual(first.json(), { imported: 3, skipped: 1, errors: [] });
    assert.equal(await countTransactions(t.db, u.id), 4);
    const again = await asU.post('/api/import', multipart(file));
    assert.deepEqual(again.json(), { imported: 0, skipped: 4, errors: [] });
    assert.equal(await countTransactions(t.db, u.id), 4);
    // a third copy of the row inside one file is imported, the two known ones skipped
    const more = await asU.post(
      '/api/import',
      multipart(
        csv(
          '2026-02-01,expense,10,Food,same,,,',
          '2026-02-01,expense,10,Food,same,,,',
          '2026-02-01,expense,10,Food,same,,,',
        ),
      ),
    );
    assert.deepEqual(more.json(), { imported: 1, skipped: 2, errors: [] });
  });

  it("re-importing one's own export (CSV or JSON) adds nothing; into another account it recreates the same data", async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const food = (await firstCategory(t.db, u.id)).id;
    const tag = await createTag(t.db, u.id, { name: '=formula' });
    const t1 = await createTransaction(t.db, u.id, {
      date: '2026-03-01',
      amountMinor: 1999,
      categoryId: food,
      note: '+danger "quoted", line\nbreak',
    });
    await tagTransaction(t.db, t1.id, [tag.id]);
    await createTransaction(t.db, u.id, { date: '2026-03-02', amountMinor: 5, categoryId: food, note: '' });
    await createTransaction(t.db, u.id, { date: '2026-03-02', amountMinor: 5, categoryId: food, note: '' });
    await bulkTransactions(t.db, u.id, food, 50, '2026-03-03', 5);
    const total = await countTransactions(t.db, u.id);
    for (const format of ['csv', 'json']) {
      const exp = await asU.get('/api/export', { query: { startDate: '2026-01-01', endDate: '2026-12-31', format } });
      assert.equal(exp.statusCode, 200);
      const res = await asU.post('/api/import', multipart(exp.rawPayload));
      assert.deepEqual(res.json(), { imported: 0, skipped: total, errors: [] }, format);
      assert.equal(await countTransactions(t.db, u.id), total);

      const v = await createUser(t.db);
      const asV = t.as(v);
      const into = await asV.post('/api/import', multipart(exp.rawPayload));
      assert.deepEqual(into.json(), { imported: total, skipped: 0, errors: [] }, format);
      const back = await asV.get('/api/export', { query: { startDate: '2026-01-01', endDate: '2026-12-31', format } });
      assert.equal(back.body, exp.body, `${format}: the second account exports the same file`);
    }
  });

  it('imports a JSON array (numbers or strings, tags as an array or joined)', async () => {
    const u = await createUser(t.db);
    const file = JSON.stringify([
      {
        date: '2026-04-01',
        kind: 'expense',
        amount: 12.5,
        category: 'Food',
        note: '=not a formula in JSON',
        tags: ['a', 'b'],
        group_id: null,
        created_at: '2026-04-01T08:00:00.000Z',
      },
      { date: '2026-04-02', kind: 'income', amount: '3.10', category: 'Salary', tags: 'c|d' },
    ]);
    const res = await t.as(u).post('/api/import', multipart(file));
    assert.deepEqual(res.json(), { imported: 2, skipped: 0, errors: [] });
    const rows = await rowsOf(u.id);
    assert.deepEqual(
      rows.map((r) => [r.t.amountMinor, r.t.note, r.category]),
      [
        [1250, '=not a formula in JSON', 'Food'],
        [310, '', 'Salary'],
      ],
    );
    assert.deepEqual(await tagNamesOf(rows[1]!.t.id), ['c', 'd']);
    // a tag name cannot hold the CSV's tag separator
    const piped = JSON.stringify([{ date: '2026-04-03', kind: 'expense', amount: 1, category: 'Food', tags: ['x|y'] }]);
    const refused = await t.as(u).post('/api/import', multipart(piped));
    assert.equal(refused.statusCode, 422);
    assert.equal(refused.json().code, 42203);
    assert.match(refused.json().errors[0].message, /cannot contain "\|"/);
  });

  it('reads GB18030/GBK files as Excel writes them, and UTF-8 without BOM', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const text = csv('2026-05-01,expense,8,餐饮,早餐 包子,早饭,,', '2026-05-02,expense,9,交通,地铁,,,');
    const gbk = await asU.post('/api/import', multipart(iconv.encode(text, 'gbk')));
    assert.deepEqual(gbk.json(), { imported: 2, skipped: 0, errors: [] });
    const rows = await rowsOf(u.id);
    assert.deepEqual(
      rows.map((r) => [r.category, r.t.note]),
      [
        ['餐饮', '早餐 包子'],
        ['交通', '地铁'],
      ],
    );
    assert.deepEqual(await tagNamesOf(rows[0]!.t.id), ['早饭']);
    // the same content in UTF-8 (no BOM) is recognised as the same rows
    const utf8 = await asU.post('/api/import', multipart(Buffer.from(text, 'utf8')));
    assert.deepEqual(utf8.json(), { imported: 0, skipped: 2, errors: [] });
  });

  it('accepts columns in any order, ignores unknown ones, and needs only the required ones', async () => {
    const u = await createUser(t.db);
    const res = await t
      .as(u)
      .post(
        '/api/import',
        multipart('Amount,Category,extra,Kind,Date\n1.25,Food,ignored,expense,2026-06-01\n\n,,,,\n'),
      );
    assert.deepEqual(res.json(), { imported: 1, skipped: 0, errors: [] });
    const [row] = await rowsOf(u.id);
    assert.equal(row!.t.amountMinor, 125);
    assert.equal(row!.t.note, '');
  });

  it('refuses the whole file when any row is invalid: 42203 with every bad row, nothing written', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const elevenTags = Array.from({ length: 11 }, (_, i) => `t${i}`).join('|');
    const file = csv(
      '2026-07-01,expense,10,Food,fine,,,',
      '2026-02-30,expense,10,Food,bad date,,,',
      '2026-07-01,gift,10,Food,bad kind,,,',
      '2026-07-01,expense,0,Food,zero,,,',
      '2026-07-01,expense,1.234,Food,three decimals,,,',
      '2026-07-01,expense,,Food,empty amount,,,',
      '2026-07-01,expense,-5,Food,negative,,,',
      `2026-07-01,expense,10,Food,${'x'.repeat(201)},,,`,
      '2026-07-01,expense,10,,no category,,,',
      `2026-07-01,expense,10,${'c'.repeat(21)},long category,,,`,
      `2026-07-01,expense,10,Food,long tag,${'t'.repeat(21)},,`,
      `2026-07-01,expense,10,Food,eleven tags,${elevenTags},,`,
      '2026-07-01,expense,10,Food,bad group,,abc,',
      '2026-07-01,expense,10,Food,bad created_at,,,yesterday',
      '2026-07-01,expense,10,Food,too many cells,,,,surplus',
      '2026-07-01,expense,10,Food,ancient created_at,,,0999-12-31T00:00:00Z',
      '2026/07/01,income,1e3,Salary,two problems,,,',
      '2026-07-02,expense,10,NewCategory,fine too,,,',
    );
    const res = await asU.post('/api/import', multipart(file));
    assertError(res, 422, 42203);
    const errors: { row: number; message: string }[] = res.json().errors;
    assert.deepEqual(
      errors.map((e) => e.row),
      [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    );
    const msg = (row: number) => errors.find((e) => e.row === row)!.message;
    assert.match(msg(2), /date/);
    assert.match(msg(3), /kind/);
    assert.match(msg(4), /amount/);
    assert.match(msg(8), /note/);
    assert.match(msg(9), /category/);
    assert.match(msg(11), /tag/);
    assert.match(msg(12), /at most 10 tags/);
    assert.match(msg(13), /group_id/);
    assert.match(msg(14), /created_at/);
    assert.match(msg(15), /more cells/);
    assert.match(msg(16), /created_at/);
    assert.match(msg(17), /date.*; .*amount/);
    assert.equal(await countTransactions(t.db, u.id), 0);
    const cats = await t.db
      .select()
      .from(categories)
      .where(and(eq(categories.userId, u.id), eq(categories.name, 'NewCategory')));
    assert.equal(cats.length, 0, 'no category created either');
  });

  it('dry_run answers what a real run would do and writes nothing', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const food = (await firstCategory(t.db, u.id)).id;
    await createTransaction(t.db, u.id, { date: '2026-08-01', amountMinor: 100, categoryId: food, note: 'dup' });
    const good = csv('2026-08-01,expense,1,Food,dup,,,', '2026-08-02,expense,2,Brand new,x,newtag,,');
    const dry = await asU.post('/api/import', multipart(good), { query: { dry_run: true } });
    assert.equal(dry.statusCode, 200, dry.body);
    assert.deepEqual(dry.json(), { imported: 1, skipped: 1, errors: [] });
    assert.equal(await countTransactions(t.db, u.id), 1);
    assert.equal(
      (
        await t.db
          .select()
          .from(categories)
          .where(and(eq(categories.userId, u.id), eq(categories.name, 'Brand new')))
      ).length,
      0,
    );
    assert.equal((await t.db.select().from(tags).where(eq(tags.userId, u.id))).length, 0);

    const bad = await asU.post(
      '/api/import',
      multipart(csv('2026-08-01,expense,1,Food,ok,,,', '2026-08-01,expense,abc,Food,bad,,,')),
      { query: { dry_run: true } },
    );
    assert.equal(bad.statusCode, 200);
    assert.equal(bad.json().imported, 0);
    assert.equal(bad.json().skipped, 0);
    assert.deepEqual(
      bad.json().errors.map((e: { row: number }) => e.row),
      [2],
    );
    assert.equal(await countTransactions(t.db, u.id), 1);
    // the real run does what the dry run said
    assert.deepEqual((await asU.post('/api/import', multipart(good))).json(), { imported: 1, skipped: 1, errors: [] });
  });

  it('refuses files that are not an import at all with 40001', async () => {
    const cases: [string, string | Buffer][] = [
      ['empty', ''],
      ['blank', '  \n \n'],
      ['no header', '2026-01-01,expense,1,Food,,,,\n'],
      ['missing column', 'date,kind,category\n2026-01-01,expense,Food\n'],
      ['column twice', 'date,kind,amount,category,date\n2026-01-01,expense,1,Food,2026-01-01\n'],
      ['broken quote', `${HEADER}\n2026-01-01,expense,1,"Food,,,,\n`],
      ['invalid JSON', '[{"date": '],
      ['JSON object', '{"date":"2026-01-01"}'],
      ['binary', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01])],
    ];
    for (const [label, content] of cases)
      assertError(await asAlice.post('/api/import', multipart(content)), 400, 40001, label);
    // a JSON element that is not an object is a bad row
    const res = await asAlice.post(
      '/api/import',
      multipart('[1, {"date":"2026-01-01","kind":"expense","amount":1,"category":"Food"}]'),
    );
    assertError(res, 422, 42203, 'element');
    assert.deepEqual(res.json().errors, [{ row: 1, message: 'must be an object' }]);
  });

  it('needs multipart with a `file` field (41501, 40001) and a user (40101)', async () => {
    assertError(await asAlice.post('/api/import', { file: 'x' }), 415, 41501, 'json body');
    assertError(
      await asAlice.post('/api/import', multipart(csv('2026-01-01,expense,1,Food,,,,'), { field: 'upload' })),
      400,
      40001,
      'other field',
    );
    assertError(
      await t.anon.post('/api/import', multipart(csv('2026-01-01,expense,1,Food,,,,'))),
      401,
      40101,
      'no token',
    );
  });

  it('refuses files over 20 MiB and over 100,000 rows with 41301', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 'a');
    assertError(await asAlice.post('/api/import', multipart(big)), 413, 41301, 'size');
    const line = '2026-01-01,expense,1,F,,,,\n';
    const many = `${HEADER}\n${line.repeat(100_001)}`;
    assertError(await asAlice.post('/api/import', multipart(many)), 413, 41301, 'rows');
    const manyJson = `[${Array.from({ length: 100_001 }, () => '{}').join(',')}]`;
    assertError(await asAlice.post('/api/import', multipart(manyJson)), 413, 41301, 'json rows');
    assert.equal(await countTransactions(t.db, alice.id), 0);
  });

  it('creates categories only up to 200 per user; rows past that are invalid', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const have = (await t.db.select().from(categories).where(eq(categories.userId, u.id))).length;
    await query(
      t.db,
      sql`insert into categories (user_id, name, color, kind) select ${u.id}::int, 'filler ' || g, '#000000', 'expense' from generate_series(1, ${199 - have}::int) g`,
    );
    const res = await asU.post(
      '/api/import',
      multipart(
        csv(
          '2026-01-01,expense,1,One more,,,,',
          '2026-01-02,expense,1,Food,,,,',
          '2026-01-03,income,1,Too many,,,,',
          '2026-01-04,income,2,Too many,,,,',
        ),
      ),
    );
    assertError(res, 422, 42203);
    assert.deepEqual(
      res.json().errors.map((e: { row: number }) => e.row),
      [3, 4],
    );
    assert.match(res.json().errors[0].message, /200/);
    const ok = await asU.post('/api/import', multipart(csv('2026-01-01,expense,1,One more,,,,')));
    assert.deepEqual(ok.json(), { imported: 1, skipped: 0, errors: [] });
  });

  it('honours Idempotency-Key: a repeat replays the first answer, another file is 42202, a bad key 40001', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const file = csv('2026-09-01,expense,4,Food,idem,,,');
    const first = await asU.post('/api/import', multipart(file), { headers: { 'idempotency-key': 'import-1' } });
    assert.deepEqual(first.json(), { imported: 1, skipped: 0, errors: [] });
    const replay = await asU.post('/api/import', multipart(file), { headers: { 'idempotency-key': 'import-1' } });
    assert.equal(replay.statusCode, 200);
    assert.deepEqual(replay.json(), { imported: 1, skipped: 0, errors: [] }, 'the first answer, not a new run');
    assert.equal(await countTransactions(t.db, u.id), 1);
    assertError(
      await asU.post('/api/import', multipart(csv('2026-09-02,expense,4,Food,other,,,')), {
        headers: { 'idempotency-key': 'import-1' },
      }),
      422,
      42202,
      'other body',
    );
    assertError(
      await asU.post('/api/import', multipart(file), { headers: { 'idempotency-key': 'has space' } }),
      400,
      40001,
      'bad key',
    );
    // a refused import does not keep the key
    const badFile = csv('2026-09-01,expense,0,Food,bad,,,');
    assertError(
      await asU.post('/api/import', multipart(badFile), { headers: { 'idempotency-key': 'import-2' } }),
      422,
      42203,
    );
    assertError(
      await asU.post('/api/import', multipart(badFile), { headers: { 'idempotency-key': 'import-2' } }),
      422,
      42203,
    );
  });

  it('two concurrent imports of the same file write it once', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const file = csv(
      ...Array.from(
        { length: 50 },
        (_, i) => `2026-10-${String((i % 28) + 1).padStart(2, '0')},expense,${i + 1},Food,row ${i},,,`,
      ),
    );
    const [a, b] = await Promise.all([
      asU.post('/api/import', multipart(file)),
      asU.post('/api/import', multipart(file)),
    ]);
    assert.equal(a.statusCode, 200);
    assert.equal(b.statusCode, 200);
    assert.deepEqual([a.json().imported, b.json().imported].sort(), [0, 50]);
    assert.equal(await countTransactions(t.db, u.id), 50);
  });

  it('round-trips notes and categories that already start with an apostrophe and a formula character', async () => {
    const u = await createUser(t.db);
    const v = await createUser(t.db);
    const asU = t.as(u);
    const texts = ["'=x", "''+1", "'-", "'", "'plain", '=y'];
    for (const [i, note] of texts.entries())
      await createTransaction(t.db, u.id, { date: '2026-03-01', amountMinor: 100 + i, note });
    const file = await asU.get('/api/export?startDate=2026-03-01&endDate=2026-03-01');
    assert.equal(file.statusCode, 200);
    const again = await asU.post('/api/import', multipart(file.rawPayload));
    assert.deepEqual(again.json(), { imported: 0, skipped: texts.length, errors: [] });
    const other = await t.as(v).post('/api/import', multipart(file.rawPayload));
    assert.deepEqual(other.json(), { imported: texts.length, skipped: 0, errors: [] });
    assert.deepEqual(
      (await rowsOf(v.id)).map((r) => r.t.note),
      texts,
    );
  });

  it('refuses rows with a NUL character, a year-0 date or a created_at past year 9999 UTC with 42203 (dry run: 200 with the errors)', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const file = csv(
      '2026-01-01,expense,1,Food,a\u0000b,,,',
      '2026-01-01,expense,1,F\u0000d,,,,',
      '2026-01-01,expense,1,Food,,t\u0000g,,',
      '0000-01-01,expense,1,Food,,,,',
      '2026-01-01,expense,1,Food,,,,9999-12-31T23:00:00-14:00',
      '2026-01-01,expense,1,Food,ok,,,',
    );
    for (const dryRun of [true, false]) {
      const res = await asU.post('/api/import', multipart(file), { query: { dry_run: dryRun || undefined } });
      assert.equal(res.statusCode, dryRun ? 200 : 422, res.body);
      assert.deepEqual(
        res.json().errors.map((e: { row: number }) => e.row),
        [1, 2, 3, 4, 5],
      );
    }
    assert.equal(await countTransactions(t.db, u.id), 0);
  });

  it('imports thousands of rows with their tags', async () => {
    const u = await createUser(t.db);
    const n = 12_000;
    const lines = Array.from(
      { length: n },
      (_, i) =>
        `2026-${String((i % 12) + 1).padStart(2, '0')}-01,expense,${(i % 900) + 1}.${String(i % 100).padStart(2, '0')},Cat ${i % 7},n${i},t${i % 3}|shared,,`,
    );
    const res = await t.as(u).post('/api/import', multipart(csv(...lines)));
    assert.deepEqual(res.json(), { imported: n, skipped: 0, errors: [] });
    assert.equal(await countTransactions(t.db, u.id), n);
    const [links] = await query<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from transaction_tags tt join transactions x on x.id = tt.transaction_id where x.user_id = ${u.id}`,
    );
    assert.equal(Number(links!.n), 2 * n);
  });

  it('stops when the client goes away: the rows already written are undone, nothing is kept', async () => {
    const u = await createUser(t.db);
    const n = 12_000;
    const lines = Array.from({ length: n }, (_, i) => `2026-03-01,expense,${(i % 900) + 1}.00,Food,gone ${i},,,`);
    // a signal that says "gone" from its fourth look on (after reading, before writing, before each
    // batch of 5,000 rows): the first batch is written, then the client is gone
    let looks = 0;
    const signal = {
      get aborted() {
        looks++;
        return looks > 3;
      },
    } as AbortSignal;
    await assert.rejects(
      importFile(t.db, u.id, Buffer.from(csv(...lines)), false, signal),
      (err: AppError) => err.code === 40001 && /abandoned/.test(err.message),
    );
    assert.equal(looks, 4, 'the work stopped at the first look after the signal turned');
    assert.equal(await countTransactions(t.db, u.id), 0);
    // the same file with its client still there is imported in full
    assert.deepEqual(await importFile(t.db, u.id, Buffer.from(csv(...lines)), false, new AbortController().signal), {
      imported: n,
      skipped: 0,
      errors: [],
    });
  });
});
