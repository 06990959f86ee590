import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { groupMembers, groups, idempotencyKeys, transactions, transactionTags } from '../src/db/schema/index.ts';
import { loadTransactionViews } from '../src/modules/transactions/transactions.repo.ts';
import {
  addMember,
  assertError,
  build,
  type Client,
  createCategory,
  createGroup,
  createTag,
  createTransaction,
  createUser,
  firstCategory,
  onPostgres,
  tagTransaction,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

const TX_KEYS = [
  'account_id',
  'currency',
  'to_account_id',
  'to_amount',
  'rate',
  'parent_id',
  'refund_of',
  'category_picked',
  // paid in another currency than the account's: null otherwise
  'original_amount',
  'original_currency',
  'amount',
  'category',
  'category_id',
  'created_at',
  'date',
  'group_id',
  'id',
  'kind',
  'note',
  'owner',
  'paid_by',
  'recurring_id',
  'shares',
  'split',
  'tags',
  'updated_at',
  'user_id',
].sort();

describe('transactions', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let carol: UserRow;
  let a: Client;
  let b: Client;
  let c: Client;
  let food: { id: number; name: string; color: string };
  let salary: { id: number };

  before(async () => {
    t = await build();
    alice = await createUser(t.db, { nickname: 'Alice', avatarUrl: 'https://img.example/a.png' });
    bob = await createUser(t.db, { nickname: 'Bob' });
    carol = await createUser(t.db, { nickname: 'Carol' });
    a = t.as(alice);
    b = t.as(bob);
    c = t.as(carol);
    food = await firstCategory(t.db, alice.id, 'expense');
    salary = await firstCategory(t.db, alice.id, 'income');
  });
  after(async () => t.close());

  const valid = () => ({ kind: 'expense', amount: 12.5, category_id: food.id, date: '2026-11-21' });

  describe('create', () => {
    it('answers 201 with the exact transaction shape', async () => {
      const tagB = await createTag(t.db, alice.id, { name: 'zeta' });
      const tagA = await createTag(t.db, alice.id, { name: 'alpha' });
      const res = await a.post('/api/transactions', {
        ...valid(),
        note: '  lunch  ',
        tag_ids: [tagB.id, tagA.id, tagB.id],
      });
      assert.equal(res.statusCode, 201, res.body);
      const tx = res.json();
      assert.deepEqual(Object.keys(tx).sort(), TX_KEYS);
      assert.equal(typeof tx.id, 'number');
      assert.equal(tx.kind, 'expense');
      assert.equal(tx.amount, 12.5);
      assert.equal(tx.category_id, food.id);
      assert.deepEqual(tx.category, { id: food.id, name: food.name, color: food.color, kind: 'expense' });
      assert.equal(tx.note, 'lunch');
      assert.equal(tx.date, '2026-11-21');
      assert.equal(tx.group_id, null);
      assert.deepEqual(tx.tags, [
        { id: tagA.id, name: 'alpha' },
        { id: tagB.id, name: 'zeta' },
      ]);
      assert.equal(tx.user_id, alice.id);
      assert.deepEqual(tx.owner, { id: alice.id, nickname: 'Alice', avatar_url: 'https://img.example/a.png' });
      assert.equal(tx.recurring_id, null);
      assert.match(tx.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.match(tx.updated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const [row] = await t.db.select().from(transactions).where(eq(transactions.id, tx.id));
      assert.equal(row!.amountMinor, 1250);
      const get = await a.get(`/api/transactions/${tx.id}`);
      assert.equal(get.statusCode, 200);
      assert.deepEqual(get.json(), tx);
    });

    it('accepts amounts as numbers and decimal strings, stored as exact cents', async () => {
      const cases: [unknown, number, number][] = [
        [12, 1200, 12],
        [12.5, 1250, 12.5],
        ['12.50', 1250, 12.5],
        ['0.01', 1, 0.01],
        [0.1, 10, 0.1],
        ['999999999999.99', 99999999999999, 999999999999.99],
        [19.99, 1999, 19.99],
      ];
      for (const [amount, cents, major] of cases) {
        const res = await a.post('/api/transactions', { ...valid(), amount });
        assert.equal(res.statusCode, 201, `${JSON.stringify(amount)} ${res.body}`);
        assert.equal(res.json().amount, major);
        const [row] = await t.db.select().from(transactions).where(eq(transactions.id, res.json().id));
        assert.equal(row!.amountMinor, cents, JSON.stringify(amount));
      }
    });

    it('rejects every malformed amount with 40001', async () => {
      const before = (await t.db.select({ n: sql<string>`count(*)` }).from(transactions))[0]!.n;
      for (const amount of [
        '',
        null,
        'NaN',
        'Infinity',
        '-Infinity',
        0,
        '0',
        '0.00',
        -1,
        '-1',
        -0.5,
        '1e3',
        '1E3',
        '12.345',
        12.345,
        '1234567890123',
        1234567890123,
        ' 12',
        '12 ',
        '12.',
        '.5',
        '+12',
        'abc',
        true,
        [],
        {},
        '１２',
      ]) {
        const res = await a.post('/api/transactions', { ...valid(), amount });
        assertError(res, 400, 40001, JSON.stringify(amount));
      }
      const { amount: _omit, ...missing } = valid();
      assertError(await a.post('/api/transactions', missing), 400, 40001, 'missing');
      // NaN and Infinity are not JSON at all
      const raw = await a.post(
        '/api/transactions',
        `{"kind":"expense","amount":NaN,"category_id":${food.id},"date":"2026-11-21"}`,
        {
          headers: { 'content-type': 'application/json' },
        },
      );
      assertError(raw, 400, 40001, 'raw NaN');
      const after = (await t.db.select({ n: sql<string>`count(*)` }).from(transactions))[0]!.n;
      assert.equal(after, before);
    });

    it('validates kind, date and note', async () => {
      for (const kind of ['spend', '', null, 'all'])
        assertError(await a.post('/api/transactions', { ...valid(), kind }), 400, 40001, `kind ${kind}`);
      for (const date of [
        '2026-02-30',
        '2026-13-01',
        '2026-00-10',
        '2025-02-29',
        '20261121',
        '2026-11-21T00:00:00Z',
        '',
        null,
        20261121,
      ]) {
        assertError(await a.post('/api/transactions', { ...valid(), date }), 400, 40001, `date ${date}`);
      }
      assert.equal((await a.post('/api/transactions', { ...valid(), date: '2024-02-29' })).statusCode, 201);
      assertError(await a.post('/api/transactions', { ...valid(), note: 'x'.repeat(201) }), 400, 40001, 'note 201');
      assertError(await a.post('/api/transactions', { ...valid(), note: 5 }), 400, 40001, 'note number');
      const long = await a.post('/api/transactions', { ...valid(), note: '记'.repeat(200) });
      assert.equal(long.statusCode, 201, long.body);
      assert.equal([...long.json().note].length, 200);
      const emoji = await a.post('/api/transactions', { ...valid(), note: '🍜'.repeat(200) });
      assert.equal(emoji.statusCode, 201, 'counts characters, not UTF-16 units');
      const none = await a.post('/api/transactions', valid());
      assert.equal(none.json().note, '');
    });

    it("checks tags: at most 10, each the caller's own", async () => {
      const mine = [];
      for (let i = 0; i < 11; i++) mine.push((await createTag(t.db, alice.id, { name: `lim${i}` })).id);
      const ten = await a.post('/api/transactions', { ...valid(), tag_ids: mine.slice(0, 10) });
      assert.equal(ten.statusCode, 201, ten.body);
      assert.equal(ten.json().tags.length, 10);
      assertError(await a.post('/api/transactions', { ...valid(), tag_ids: mine }), 400, 40001, '11 tags');
      const bobs = await createTag(t.db, bob.id, { name: 'bobtag' });
      const res = await a.post('/api/transactions', { ...valid(), tag_ids: [mine[0], bobs.id] });
      assertError(res, 400, 40001, 'foreign tag');
      assert.equal(res.json().details[0].field, 'tag_ids');
      assertError(await a.post('/api/transactions', { ...valid(), tag_ids: [999999] }), 400, 40001, 'missing tag');
      assertError(await a.post('/api/transactions', { ...valid(), tag_ids: ['1'] }), 400, 40001, 'string id');
    });

    it("checks the category: the caller's own and of the same kind", async () => {
      const bobsFood = await firstCategory(t.db, bob.id, 'expense');
      const res = await a.post('/api/transactions', { ...valid(), category_id: bobsFood.id });
      assertError(res, 400, 40001, 'foreign category');
      assert.equal(res.json().details[0].field, 'category_id');
      assertError(
        await a.post('/api/transactions', { ...valid(), category_id: salary.id }),
        400,
        40001,
        'kind mismatch',
      );
      assertError(await a.post('/api/transactions', { ...valid(), kind: 'income' }), 400, 40001, 'kind mismatch 2');
      assertError(
        await a.post('/api/transactions', { ...valid(), category_id: 99999999 }),
        400,
        40001,
        'missing category',
      );
      const inc = await a.post('/api/transactions', {
        ...valid(),
        kind: 'income',
        category_id: salary.id,
        amount: '3000',
      });
      assert.equal(inc.statusCode, 201);
      assert.equal(inc.json().category.kind, 'income');
    });

    it('writes into a group only as a member of a live group', async () => {
      const g = await createGroup(t.db, alice.id);
      await addMember(t.db, g.id, bob.id);
      const ok = await a.post('/api/transactions', { ...valid(), group_id: g.id });
      assert.equal(ok.statusCode, 201);
      assert.equal(ok.json().group_id, g.id);
      const bobsCat = await firstCategory(t.db, bob.id);
      assert.equal(
        (await b.post('/api/transactions', { ...valid(), category_id: bobsCat.id, group_id: g.id })).statusCode,
        201,
      );
      const carolsCat = await firstCategory(t.db, carol.id);
      assertError(
        await c.post('/api/transactions', { ...valid(), category_id: carolsCat.id, group_id: g.id }),
        403,
        40302,
        'non-member',
      );
      assertError(
        await c.post('/api/transactions', { ...valid(), category_id: carolsCat.id, group_id: 987654 }),
        403,
        40302,
        'no such group',
      );
      await t.db.update(groups).set({ dissolvedAt: new Date() }).where(eq(groups.id, g.id));
      assertError(await a.post('/api/transactions', { ...valid(), group_id: g.id }), 409, 40902, 'dissolved');
      // validation comes before permission
      assertError(await c.post('/api/transactions', { ...valid(), amount: 0, group_id: g.id }), 400, 40001, 'order');
    });
  });

  describe('read, update, delete', () => {
    it('updates any subset of fields and keeps the rest', async () => {
      const tag1 = await createTag(t.db, alice.id, { name: 'upd1' });
      const tag2 = await createTag(t.db, alice.id, { name: 'upd2' });
      const created = (await a.post('/api/transactions', { ...valid(), note: 'first', tag_ids: [tag1.id] })).json();
      await new Promise((r) => setTimeout(r, 5));
      const r1 = await a.put(`/api/transactions/${created.id}`, { amount: '99.99' });
      assert.equal(r1.statusCode, 200, r1.body);
      assert.equal(r1.json().amount, 99.99);
      assert.equal(r1.json().note, 'first');
      assert.deepEqual(r1.json().tags, [{ id: tag1.id, name: 'upd1' }]);
      assert.equal(r1.json().created_at, created.created_at);
      assert.ok(r1.json().updated_at > created.updated_at);
      const r2 = await a.put(`/api/transactions/${created.id}`, {
        note: ' second ',
        date: '2026-01-31',
        tag_ids: [tag2.id],
      });
      assert.equal(r2.json().note, 'second');
      assert.equal(r2.json().date, '2026-01-31');
      assert.deepEqual(r2.json().tags, [{ id: tag2.id, name: 'upd2' }]);
      assert.equal(r2.json().amount, 99.99);
      const r3 = await a.put(`/api/transactions/${created.id}`, { tag_ids: [] });
      assert.deepEqual(r3.json().tags, []);
      const same = await a.put(`/api/transactions/${created.id}`, {});
      assert.equal(same.statusCode, 200);
      assert.equal(same.json().amount, 99.99);
      assert.deepEqual(
        await t.db.select().from(transactionTags).where(eq(transactionTags.transactionId, created.id)),
        [],
      );
    });

    it('needs a category of the new kind when the kind changes', async () => {
      const created = (await a.post('/api/transactions', valid())).json();
      assertError(await a.put(`/api/transactions/${created.id}`, { kind: 'income' }), 400, 40001, 'kind alone');
      assertError(
        await a.put(`/api/transactions/${created.id}`, { category_id: salary.id }),
        400,
        40001,
        'category alone',
      );
      const res = await a.put(`/api/transactions/${created.id}`, { kind: 'income', category_id: salary.id });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().kind, 'income');
      assert.equal(res.json().category.id, salary.id);
      const other = await createCategory(t.db, alice.id, { kind: 'income', name: 'Gifts in' });
      const moved = await a.put(`/api/transactions/${created.id}`, { category_id: other.id });
      assert.equal(moved.json().category.name, 'Gifts in');
    });

    it('validates update fields like create', async () => {
      const created = (await a.post('/api/transactions', valid())).json();
      for (const body of [
        { amount: 0 },
        { amount: '' },
        { amount: null },
        { amount: '1e3' },
        { date: '2026-02-31' },
        { note: 'y'.repeat(201) },
        { kind: 'x' },
        { tag_ids: Array.from({ length: 11 }, (_, i) => i + 1) },
      ]) {
        assertError(
          await a.put(`/api/transactions/${created.id}`, body),
          400,
          40001,
          JSON.stringify(body).slice(0, 40),
        );
      }
      const bobsTag = await createTag(t.db, bob.id, { name: 'bobonly' });
      assertError(await a.put(`/api/transactions/${created.id}`, { tag_ids: [bobsTag.id] }), 400, 40001, 'foreign tag');
      const bobsCat = await firstCategory(t.db, bob.id);
      assertError(
        await a.put(`/api/transactions/${created.id}`, { category_id: bobsCat.id }),
        400,
        40001,
        'foreign category',
      );
      const unchanged = await a.get(`/api/transactions/${created.id}`);
      assert.equal(unchanged.json().amount, 12.5);
      assert.equal(unchanged.json().category_id, food.id);
    });

    it('moves between groups with the group rules and out with null', async () => {
      const g1 = await createGroup(t.db, alice.id);
      const g2 = await createGroup(t.db, bob.id);
      const created = (await a.post('/api/transactions', { ...valid(), group_id: g1.id })).json();
      assertError(await a.put(`/api/transactions/${created.id}`, { group_id: g2.id }), 403, 40302, 'not a member');
      await addMember(t.db, g2.id, alice.id);
      assert.equal((await a.put(`/api/transactions/${created.id}`, { group_id: g2.id })).json().group_id, g2.id);
      await t.db.update(groups).set({ dissolvedAt: new Date() }).where(eq(groups.id, g1.id));
      assertError(await a.put(`/api/transactions/${created.id}`, { group_id: g1.id }), 409, 40902, 'dissolved');
      await t.db.update(groups).set({ dissolvedAt: new Date() }).where(eq(groups.id, g2.id));
      // staying in a dissolved group is allowed: the transaction can still be corrected
      const fix = await a.put(`/api/transactions/${created.id}`, { group_id: g2.id, amount: 1 });
      assert.equal(fix.statusCode, 200, fix.body);
      const out = await a.put(`/api/transactions/${created.id}`, { group_id: null });
      assert.equal(out.json().group_id, null);
    });

    it('deletes, after which the id is gone', async () => {
      const tag = await createTag(t.db, alice.id, { name: 'deltag' });
      const created = (await a.post('/api/transactions', { ...valid(), tag_ids: [tag.id] })).json();
      const del = await a.delete(`/api/transactions/${created.id}`);
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      assertError(await a.get(`/api/transactions/${created.id}`), 404, 40401);
      assertError(await a.delete(`/api/transactions/${created.id}`), 404, 40401);
      assertError(await a.put(`/api/transactions/${created.id}`, { amount: 1 }), 404, 40401);
      assert.deepEqual(
        await t.db.select().from(transactionTags).where(eq(transactionTags.transactionId, created.id)),
        [],
      );
    });

    it('lets group members read a group transaction but only its owner change or delete it', async () => {
      const g = await createGroup(t.db, alice.id);
      await addMember(t.db, g.id, bob.id);
      const created = (await a.post('/api/transactions', { ...valid(), group_id: g.id })).json();
      const read = await b.get(`/api/transactions/${created.id}`);
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().owner.nickname, 'Alice');
      assertError(await b.put(`/api/transactions/${created.id}`, { amount: 1 }), 404, 40401, 'member put');
      assertError(await b.delete(`/api/transactions/${created.id}`), 404, 40401, 'member delete');
      assertError(await c.get(`/api/transactions/${created.id}`), 404, 40401, 'outsider get');
      assert.equal((await a.get(`/api/transactions/${created.id}`)).json().amount, 12.5);
    });

    it('rejects malformed ids with 40001 and unknown ones with 40401', async () => {
      assertError(await a.get('/api/transactions/abc'), 400, 40001);
      assertError(await a.get('/api/transactions/0'), 400, 40001);
      assertError(await a.get('/api/transactions/99999999'), 404, 40401);
    });
  });

  describe('privacy', () => {
    it("hides every other user's transaction and refuses their ids as references", async () => {
      const bobsCat = await firstCategory(t.db, bob.id);
      const bobsTag = await createTag(t.db, bob.id, { name: 'secret' });
      const bobsTx = (
        await b.post('/api/transactions', {
          ...valid(),
          category_id: bobsCat.id,
          note: 'bob private',
          tag_ids: [bobsTag.id],
        })
      ).json();
      assertError(await a.get(`/api/transactions/${bobsTx.id}`), 404, 40401, 'get');
      assertError(await a.put(`/api/transactions/${bobsTx.id}`, { note: 'mine now' }), 404, 40401, 'put');
      assertError(await a.delete(`/api/transactions/${bobsTx.id}`), 404, 40401, 'delete');
      assertError(
        await a.post('/api/transactions', { ...valid(), category_id: bobsCat.id }),
        400,
        40001,
        'category ref',
      );
      assertError(await a.post('/api/transactions', { ...valid(), tag_ids: [bobsTag.id] }), 400, 40001, 'tag ref');
      const mine = (await a.post('/api/transactions', valid())).json();
      assertError(
        await a.put(`/api/transactions/${mine.id}`, { category_id: bobsCat.id }),
        400,
        40001,
        'category ref put',
      );
      assertError(await a.put(`/api/transactions/${mine.id}`, { tag_ids: [bobsTag.id] }), 400, 40001, 'tag ref put');
      const list = (await a.get('/api/transactions?pageSize=100&keyword=bob')).json();
      assert.equal(list.total, 0);
      const byTag = (await a.get(`/api/transactions?tag_ids=${bobsTag.id}`)).json();
      assert.equal(byTag.total, 0);
      const byCat = (await a.get(`/api/transactions?category_ids=${bobsCat.id}`)).json();
      assert.equal(byCat.total, 0);
      const still = await b.get(`/api/transactions/${bobsTx.id}`);
      assert.equal(still.json().note, 'bob private');
    });

    it('requires authentication', async () => {
      const res = await t.anon.get('/api/transactions');
      assertError(res, 401, 40101);
      const post = await t.anon.post('/api/transactions', valid());
      assertError(post, 401, 40101);
    });
  });

  describe('list', () => {
    let lena: UserRow;
    let l: Client;
    let cats: { food: number; travel: number; pay: number };
    let tagIds: { work: number; trip: number };
    let ids: Record<string, number>;

    before(async () => {
      lena = await createUser(t.db, { nickname: 'Lena' });
      l = t.as(lena);
      cats = {
        food: (await createCategory(t.db, lena.id, { name: 'L food', kind: 'expense' })).id,
        travel: (await createCategory(t.db, lena.id, { name: 'L travel', kind: 'expense' })).id,
        pay: (await createCategory(t.db, lena.id, { name: 'L pay', kind: 'income' })).id,
      };
      tagIds = {
        work: (await createTag(t.db, lena.id, { name: 'work' })).id,
        trip: (await createTag(t.db, lena.id, { name: 'trip' })).id,
      };
      const rows: [string, string, number, number, string, string, number[]][] = [
        ['e1', 'expense', 1000, cats.food, 'Lunch with team', '2026-03-01', [tagIds.work]],
        ['e2', 'expense', 2550, cats.food, '100% organic', '2026-03-02', []],
        ['e3', 'expense', 1000, cats.travel, 'taxi_ride', '2026-03-02', [tagIds.trip, tagIds.work]],
        ['e4', 'expense', 99999, cats.travel, 'Flight', '2026-03-15', [tagIds.trip]],
        ['e5', 'expense', 1, cats.food, 'taxiXride', '2026-04-01', []],
        ['i1', 'income', 500000, cats.pay, 'Salary March', '2026-03-31', []],
        ['i2', 'income', 1000, cats.pay, 'refund \\ back', '2026-03-02', [tagIds.work]],
      ];
      ids = {};
      for (const [name, kind, amountMinor, categoryId, note, date, tagList] of rows) {
        const tx = await createTransaction(t.db, lena.id, {
          kind: kind as 'expense' | 'income',
          amountMinor,
          categoryId,
          note,
          date,
        });
        ids[name] = tx.id;
        await tagTransaction(t.db, tx.id, tagList);
      }
    });

    const names = (body: { list: { id: number }[] }) =>
      body.list.map((x) => Object.entries(ids).find(([, id]) => id === x.id)?.[0] ?? `?${x.id}`);
    const get = async (qs: string) => {
      const res = await l.get(`/api/transactions${qs}`);
      assert.equal(res.statusCode, 200, `${qs} ${res.body}`);
      return res.json();
    };

    it("lists the caller's rows newest first with sums of the whole result", async () => {
      const body = await get('');
      assert.deepEqual(Object.keys(body).sort(), ['list', 'sums', 'total']);
      assert.deepEqual(names(body), ['e5', 'i1', 'e4', 'i2', 'e3', 'e2', 'e1']);
      assert.equal(body.total, 7);
      assert.deepEqual(body.sums, { income: 5010, expense: 1045.5, balance: 3964.5, count: 7 });
      // a row of the list is the transaction with its attachments (additive)
      assert.deepEqual(Object.keys(body.list[0]).sort(), [...TX_KEYS, 'attachments'].sort());
      const e3 = body.list.find((x: { id: number }) => x.id === ids.e3);
      assert.deepEqual(
        e3.tags.map((x: { name: string }) => x.name),
        ['trip', 'work'],
      );
      assert.equal(e3.category.name, 'L travel');
      assert.equal(e3.owner.nickname, 'Lena');
    });

    it('pages without changing the totals', async () => {
      const p1 = await get('?page=1&pageSize=3');
      const p2 = await get('?page=2&pageSize=3');
      const p3 = await get('?page=3&pageSize=3');
      const p4 = await get('?page=4&pageSize=3');
      assert.deepEqual([...names(p1), ...names(p2), ...names(p3)], ['e5', 'i1', 'e4', 'i2', 'e3', 'e2', 'e1']);
      assert.deepEqual(names(p4), []);
      for (const p of [p1, p2, p3, p4]) {
        assert.equal(p.total, 7);
        assert.equal(p.sums.count, 7);
        assert.equal(p.sums.expense, 1045.5);
      }
      assert.equal((await get('?pageSize=100')).list.length, 7);
      assert.deepEqual(names(await get('?page=1000000&pageSize=100')), [], 'the last allowed page');
      for (const qs of [
        '?pageSize=0',
        '?pageSize=101',
        '?page=0',
        '?page=-1',
        '?page=x',
        '?pageSize=1.5',
        '?page=1e300',
        '?page=1000001',
      ])
        assertError(await l.get(`/api/transactions${qs}`), 400, 40001, qs);
    });

    it('sorts four ways, ties broken by id', async () => {
      assert.deepEqual(names(await get('?sort=date_asc')), ['e1', 'e2', 'e3', 'i2', 'e4', 'i1', 'e5']);
      assert.deepEqual(names(await get('?sort=amount_desc')), ['i1', 'e4', 'e2', 'i2', 'e3', 'e1', 'e5']);
      assert.deepEqual(names(await get('?sort=amount_asc')), ['e5', 'e1', 'e3', 'i2', 'e2', 'e4', 'i1']);
      assert.deepEqual(names(await get('?sort=date_desc')), ['e5', 'i1', 'e4', 'i2', 'e3', 'e2', 'e1']);
      assertError(await l.get('/api/transactions?sort=newest'), 400, 40001);
    });

    it('filters by date range (inclusive) and kind', async () => {
      const march = await get('?startDate=2026-03-02&endDate=2026-03-15');
      assert.deepEqual(names(march), ['e4', 'i2', 'e3', 'e2']);
      assert.deepEqual(march.sums, { income: 10, expense: 1035.49, balance: -1025.49, count: 4 });
      assert.deepEqual(names(await get('?startDate=2026-03-31')), ['e5', 'i1']);
      assert.deepEqual(names(await get('?endDate=2026-03-01')), ['e1']);
      const inc = await get('?kind=income');
      assert.deepEqual(names(inc), ['i1', 'i2']);
      assert.deepEqual(inc.sums, { income: 5010, expense: 0, balance: 5010, count: 2 });
      assert.equal((await get('?kind=all')).total, 7);
      assert.equal((await get('?kind=expense')).total, 5);
      assertError(await l.get('/api/transactions?kind=both'), 400, 40001);
      for (const qs of [
        '?startDate=2026-02-30',
        '?endDate=2026-13-01',
        '?startDate=yesterday',
        '?startDate=2026-04-01&endDate=2026-03-01',
        '?endDate=',
      ]) {
        assertError(await l.get(`/api/transactions${qs}`), 400, 40001, qs);
      }
    });

    it('filters by several categories and by any of several tags', async () => {
      assert.deepEqual(names(await get(`?category_ids=${cats.travel}`)), ['e4', 'e3']);
      assert.deepEqual(names(await get(`?category_ids=${cats.travel},${cats.pay}`)), ['i1', 'e4', 'i2', 'e3']);
      assert.deepEqual(names(await get(`?tag_ids=${tagIds.trip}`)), ['e4', 'e3']);
      const any = await get(`?tag_ids=${tagIds.trip},${tagIds.work}`);
      assert.deepEqual(names(any), ['e4', 'i2', 'e3', 'e1']);
      assert.equal(any.sums.count, 4, 'a row with two matching tags counts once');
      assert.equal(any.sums.expense, 1019.99);
      assert.deepEqual(names(await get(`?tag_ids=${tagIds.work}&category_ids=${cats.food}`)), ['e1']);
      for (const v of ['', 'a', '1,,2', '1,', ',1', '0', '-1', '1.5', '1;2', '99999999999']) {
        assertError(
          await l.get(`/api/transactions?category_ids=${encodeURIComponent(v)}`),
          400,
          40001,
          `category_ids=${v}`,
        );
        assertError(await l.get(`/api/transactions?tag_ids=${encodeURIComponent(v)}`), 400, 40001, `tag_ids=${v}`);
      }
    });

    it('filters by amount bounds, 0 being a valid bound', async () => {
      assert.deepEqual(names(await get('?min_amount=10&max_amount=25.5')), ['i2', 'e3', 'e2', 'e1']);
      assert.equal((await get('?min_amount=0')).total, 7);
      const zero = await get('?max_amount=0');
      assert.equal(zero.total, 0);
      assert.deepEqual(zero.sums, { income: 0, expense: 0, balance: 0, count: 0 });
      assert.deepEqual(names(await get('?min_amount=0&max_amount=0.01')), ['e5']);
      assert.deepEqual(names(await get('?min_amount=999.99')), ['i1', 'e4']);
      assert.deepEqual(names(await get('?min_amount=10.00&max_amount=10')), ['i2', 'e3', 'e1']);
      for (const qs of [
        '?min_amount=abc',
        '?min_amount=-1',
        '?max_amount=1e3',
        '?min_amount=1.234',
        '?min_amount=',
        '?min_amount=20&max_amount=10',
        '?max_amount=Infinity',
      ]) {
        assertError(await l.get(`/api/transactions${qs}`), 400, 40001, qs);
      }
    });

    it('searches the note case-insensitively, % and _ taken literally', async () => {
      assert.deepEqual(names(await get('?keyword=LUNCH')), ['e1']);
      assert.deepEqual(names(await get(`?keyword=${encodeURIComponent('%')}`)), ['e2']);
      assert.deepEqual(names(await get('?keyword=taxi_')), ['e3']);
      assert.deepEqual(names(await get('?keyword=_')), ['e3']);
      assert.deepEqual(names(await get(`?keyword=${encodeURIComponent('\\')}`)), ['i2']);
      assert.deepEqual(names(await get('?keyword=taxi')), ['e5', 'e3']);
      assert.equal((await get('?keyword=%20%20')).total, 7, 'a blank keyword filters nothing');
      assert.equal((await get('?keyword=nothing-like-this')).total, 0);
    });
  });

  describe('group view', () => {
    it("shows every member's group transactions (also of members who left) to members only", async () => {
      const owner = await createUser(t.db, { nickname: 'Gowner' });
      const member = await createUser(t.db, { nickname: 'Gmember' });
      const leaver = await createUser(t.db, { nickname: 'Gleaver' });
      const outsider = await createUser(t.db, { nickname: 'Goutsider' });
      const g = await createGroup(t.db, owner.id);
      const other = await createGroup(t.db, owner.id);
      await addMember(t.db, g.id, member.id);
      await addMember(t.db, g.id, leaver.id);
      const o1 = await createTransaction(t.db, owner.id, { groupId: g.id, amountMinor: 100, date: '2026-05-01' });
      const m1 = await createTransaction(t.db, member.id, { groupId: g.id, amountMinor: 200, date: '2026-05-02' });
      const l1 = await createTransaction(t.db, leaver.id, { groupId: g.id, amountMinor: 400, date: '2026-05-03' });
      const personal = await createTransaction(t.db, member.id, { amountMinor: 800, date: '2026-05-04' });
      await createTransaction(t.db, owner.id, { groupId: other.id, amountMinor: 1600, date: '2026-05-05' });
      await t.db.delete(groupMembers).where(and(eq(groupMembers.groupId, g.id), eq(groupMembers.userId, leaver.id)));

      const m = t.as(member);
      const view = (await m.get(`/api/transactions?group_id=${g.id}`)).json();
      assert.deepEqual(
        view.list.map((x: { id: number }) => x.id),
        [l1.id, m1.id, o1.id],
      );
      assert.deepEqual(view.sums, { income: 0, expense: 7, balance: -7, count: 3 });
      assert.equal(view.list[0].owner.nickname, 'Gleaver');
      const one = (await m.get(`/api/transactions?group_id=${g.id}&user_id=${owner.id}`)).json();
      assert.deepEqual(
        one.list.map((x: { id: number }) => x.id),
        [o1.id],
      );
      const left = (await m.get(`/api/transactions?group_id=${g.id}&user_id=${leaver.id}`)).json();
      assert.equal(left.total, 1);
      // without group_id: exactly one's own, group ones included
      const own = (await m.get('/api/transactions')).json();
      assert.deepEqual(
        own.list.map((x: { id: number }) => x.id),
        [personal.id, m1.id],
      );
      assertError(await m.get(`/api/transactions?user_id=${owner.id}`), 400, 40001, 'user_id without group');
      const out = t.as(outsider);
      assertError(await out.get(`/api/transactions?group_id=${g.id}`), 403, 40302, 'outsider');
      const gone = t.as(leaver);
      assertError(await gone.get(`/api/transactions?group_id=${g.id}`), 403, 40302, 'leaver');
      assert.equal((await gone.get('/api/transactions')).json().total, 1, 'the leaver still sees their own');
      await t.db.update(groups).set({ dissolvedAt: new Date() }).where(eq(groups.id, g.id));
      assert.equal(
        (await m.get(`/api/transactions?group_id=${g.id}`)).json().total,
        3,
        'dissolved groups stay readable',
      );
    });
  });

  describe('loadTransactionViews', () => {
    it('answers views in the order of the ids and skips missing ones', async () => {
      const x = (await a.post('/api/transactions', { ...valid(), note: 'x' })).json();
      const y = (await a.post('/api/transactions', { ...valid(), note: 'y' })).json();
      const views = await loadTransactionViews(t.db, [y.id, 99999999, x.id]);
      assert.deepEqual(views, [y, x]);
      assert.deepEqual(await loadTransactionViews(t.db, []), []);
    });
  });

  describe('Idempotency-Key', () => {
    const count = async (userId: number) =>
      Number(
        (
          await t.db
            .select({ n: sql<string>`count(*)` })
            .from(transactions)
            .where(eq(transactions.userId, userId))
        )[0]!.n,
      );

    it('answers a repeat with the first response and writes nothing', async () => {
      const dave = await createUser(t.db);
      const d = t.as(dave);
      const cat = await firstCategory(t.db, dave.id);
      const body = { kind: 'expense', amount: '8.80', category_id: cat.id, date: '2026-06-01', note: 'coffee' };
      const first = await d.post('/api/transactions', body, { headers: { 'idempotency-key': 'key-1' } });
      assert.equal(first.statusCode, 201);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const again = await d.post(
        '/api/transactions',
        { note: 'coffee', date: '2026-06-01', category_id: cat.id, amount: '8.80', kind: 'expense' },
        { headers: { 'idempotency-key': 'key-1' } },
      );
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.json(), first.json());
      assert.equal(await count(dave.id), 1);
      const other = await d.post(
        '/api/transactions',
        { ...body, amount: '9' },
        { headers: { 'idempotency-key': 'key-1' } },
      );
      assertError(other, 422, 42202, 'different body');
      assert.equal(await count(dave.id), 1);
      const fresh = await d.post('/api/transactions', body, { headers: { 'idempotency-key': 'key-2' } });
      assert.equal(fresh.statusCode, 201);
      assert.notEqual(fresh.json().id, first.json().id);
      const none = await d.post('/api/transactions', body);
      assert.equal(none.statusCode, 201);
      assert.equal(await count(dave.id), 3);
      // keys are per user: the same key is free for someone else
      const eveCat = await firstCategory(t.db, carol.id);
      const eve = await c.post(
        '/api/transactions',
        { ...body, category_id: eveCat.id },
        { headers: { 'idempotency-key': 'key-1' } },
      );
      assert.equal(eve.statusCode, 201);
      assert.equal(eve.json().user_id, carol.id);
    });

    it('validates the key: 1 to 64 visible ASCII characters', async () => {
      const body = valid();
      for (const key of ['', 'x'.repeat(65), 'has space', 'tab\tkey', 'ключ', 'a\u007f']) {
        const res = await a.post('/api/transactions', body, { headers: { 'idempotency-key': key } });
        assertError(res, 400, 40001, JSON.stringify(key));
      }
      for (const key of ['x'.repeat(64), '!~#$%&*+-./:;<=>?@[]^_`{|}', 'a']) {
        assert.equal(
          (await a.post('/api/transactions', body, { headers: { 'idempotency-key': key } })).statusCode,
          201,
          key,
        );
      }
    });

    it('releases the key when the first attempt fails, so that a retry runs', async () => {
      const dave = await createUser(t.db);
      const d = t.as(dave);
      const cat = await firstCategory(t.db, dave.id);
      const g = await createGroup(t.db, alice.id);
      const body = { kind: 'expense', amount: 5, category_id: cat.id, date: '2026-06-02', group_id: g.id };
      assertError(
        await d.post('/api/transactions', body, { headers: { 'idempotency-key': 'retry-me' } }),
        403,
        40302,
        'not yet a member',
      );
      assert.equal((await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, dave.id))).length, 0);
      await addMember(t.db, g.id, dave.id);
      const retry = await d.post('/api/transactions', body, { headers: { 'idempotency-key': 'retry-me' } });
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(await count(dave.id), 1);
      // a failure with another body does not poison the key either
      assertError(
        await d.post('/api/transactions', { ...body, amount: 0 }, { headers: { 'idempotency-key': 'bad-then-good' } }),
        400,
        40001,
      );
      assert.equal(
        (await d.post('/api/transactions', body, { headers: { 'idempotency-key': 'bad-then-good' } })).statusCode,
        201,
      );
    });

    it('answers 40903 while the first request is still running, and forgets keys after 24 hours', async () => {
      const dave = await createUser(t.db);
      const d = t.as(dave);
      const cat = await firstCategory(t.db, dave.id);
      const body = { kind: 'expense', amount: 5, category_id: cat.id, date: '2026-06-03' };
      const first = await d.post('/api/transactions', body, { headers: { 'idempotency-key': 'busy' } });
      assert.equal(first.statusCode, 201);
      await t.db
        .update(idempotencyKeys)
        .set({ status: 'pending', responseStatus: null, responseBody: null })
        .where(eq(idempotencyKeys.userId, dave.id));
      assertError(
        await d.post('/api/transactions', body, { headers: { 'idempotency-key': 'busy' } }),
        409,
        40903,
        'pending',
      );
      assertError(
        await d.post('/api/transactions', { ...body, amount: 6 }, { headers: { 'idempotency-key': 'busy' } }),
        422,
        42202,
        'pending, other body',
      );
      await t.db
        .update(idempotencyKeys)
        .set({ status: 'done', createdAt: new Date(Date.now() - 25 * 3_600_000) })
        .where(eq(idempotencyKeys.userId, dave.id));
      const later = await d.post(
        '/api/transactions',
        { ...body, amount: 7 },
        { headers: { 'idempotency-key': 'busy' } },
      );
      assert.equal(later.statusCode, 201, 'an expired key is used afresh');
      assert.equal(later.json().amount, 7);
      assert.equal(await count(dave.id), 2);
      const replay = await d.post(
        '/api/transactions',
        { ...body, amount: 7 },
        { headers: { 'idempotency-key': 'busy' } },
      );
      assert.equal(replay.json().id, later.json().id);
    });

    it(`creates exactly one transaction from 10 parallel requests with one key (${onPostgres ? 'PostgreSQL, truly concurrent' : 'embedded database'})`, async () => {
      const dave = await createUser(t.db);
      const asDave = t.as(dave);
      const cat = await firstCategory(t.db, dave.id);
      const body = { kind: 'expense', amount: '42.00', category_id: cat.id, date: '2026-06-04', note: 'parallel' };
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          asDave.post('/api/transactions', body, { headers: { 'idempotency-key': 'same-key' } }),
        ),
      );
      assert.equal(await count(dave.id), 1);
      const created = results.filter((r) => r.statusCode === 201);
      assert.ok(created.length >= 1);
      for (const r of results) assert.ok(r.statusCode === 201 || r.json().code === 40903, r.body);
      const ids = new Set(created.map((r) => r.json().id));
      assert.equal(ids.size, 1);
      const after = await asDave.post('/api/transactions', body, { headers: { 'idempotency-key': 'same-key' } });
      assert.equal(after.statusCode, 201);
      assert.equal(after.json().id, [...ids][0]);
      assert.equal(await count(dave.id), 1);
    });
  });
});
