import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { categories, recurringRules, savedFilters, transactions } from '../src/db/schema/index.ts';
import { DEFAULT_CATEGORIES } from '../src/modules/categories/categories.defaults.ts';
import {
  aliceAndBob,
  assertError,
  build,
  type Client,
  createCategory,
  createTransaction,
  createUser,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Json = Record<string, unknown>;

describe('categories', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let asAlice: Client;
  let asBob: Client;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice, asBob } = await aliceAndBob(t));
  });
  after(async () => t.close());

  const listOf = async (h: Client, kind?: string) => {
    const res = await h.get('/api/categories', { query: { kind } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().list as Json[];
  };
  const addRule = async (userId: number, categoryId: number) => {
    const [row] = await t.db
      .insert(recurringRules)
      .values({
        userId,
        kind: 'expense',
        amountMinor: 100,
        categoryId,
        frequency: 'monthly',
        startDate: '2026-01-01',
        nextDate: '2026-02-01',
      })
      .returning();
    return row!;
  };
  const addFilter = async (userId: number, criteria: Record<string, unknown>) => {
    const [row] = await t.db.insert(savedFilters).values({ userId, name: 'f', criteria }).returning();
    return row!;
  };
  const filterCriteria = async (id: number) =>
    (await t.db.select().from(savedFilters).where(eq(savedFilters.id, id)))[0]!.criteria;

  describe('GET /api/categories', () => {
    it('lists the default set ordered by sort, optionally of one kind', async () => {
      const all = await listOf(asAlice);
      assert.equal(all.length, DEFAULT_CATEGORIES.length);
      const first = all[0]!;
      assert.deepEqual(Object.keys(first).sort(), ['color', 'created_at', 'icon', 'id', 'kind', 'name', 'sort']);
      assert.match(first.created_at as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [all[i - 1]!, all[i]!];
        assert.ok(
          (a.sort as number) < (b.sort as number) || (a.sort === b.sort && (a.id as number) < (b.id as number)),
          'ordered by sort then id',
        );
      }
      const expense = await listOf(asAlice, 'expense');
      const income = await listOf(asAlice, 'income');
      assert.ok(expense.every((c) => c.kind === 'expense'));
      assert.ok(income.every((c) => c.kind === 'income'));
      assert.equal(expense.length + income.length, all.length);
      assert.deepEqual(
        expense.map((c) => c.name),
        DEFAULT_CATEGORIES.filter((c) => c.kind === 'expense').map((c) => c.name),
      );
    });

    it('rejects an unknown kind and requires a token', async () => {
      assertError(await asAlice.get('/api/categories?kind=all'), 400, 40001);
      const anon = await t.anon.get('/api/categories');
      assertError(anon, 401, 40101);
    });

    it("never shows another user's categories", async () => {
      const mine = new Set((await listOf(asAlice)).map((c) => c.id));
      const theirs = await listOf(asBob);
      assert.ok(theirs.every((c) => !mine.has(c.id)));
    });
  });

  describe('POST /api/categories', () => {
    it('creates a category last in its kind, trimming the name and upper-casing the color', async () => {
      const before = await listOf(asAlice, 'expense');
      const res = await asAlice.post('/api/categories', {
        name: '  Coffee  ',
        color: '#a1b2c3',
        kind: 'expense',
        icon: 'cup',
      });
      assert.equal(res.statusCode, 201, res.body);
      const c = res.json();
      assert.equal(c.name, 'Coffee');
      assert.equal(c.color, '#A1B2C3');
      assert.equal(c.kind, 'expense');
      assert.equal(c.icon, 'cup');
      assert.ok(c.sort > Math.max(...before.map((x) => x.sort as number)));
      const after = await listOf(asAlice, 'expense');
      assert.equal(after.at(-1)!.id, c.id);
    });

    it('defaults the icon to empty and accepts 20 characters of Chinese', async () => {
      const res = await asAlice.post('/api/categories', { name: '餐饮'.repeat(10), color: '#000000', kind: 'income' });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().icon, '');
      assert.equal(res.json().name.length, 20);
    });

    it('answers 40901 for the same kind and name, but allows the name in the other kind', async () => {
      await asAlice.post('/api/categories', { name: 'Gifts', color: '#111111', kind: 'expense' });
      assertError(
        await asAlice.post('/api/categories', { name: 'Gifts', color: '#222222', kind: 'expense' }),
        409,
        40901,
      );
      assertError(
        await asAlice.post('/api/categories', { name: ' Gifts ', color: '#222222', kind: 'expense' }),
        409,
        40901,
      );
      const other = await asAlice.post('/api/categories', { name: 'Gifts', color: '#222222', kind: 'income' });
      assert.equal(other.statusCode, 201, other.body);
      // another user may use the same name
      const bobs = await asBob.post('/api/categories', { name: 'Gifts', color: '#222222', kind: 'expense' });
      assert.equal(bobs.statusCode, 201, bobs.body);
    });

    it('validates name, color, kind and icon with 40001', async () => {
      const good = { name: 'Valid', color: '#123456', kind: 'expense' };
      const bad: Json[] = [
        { ...good, name: '' },
        { ...good, name: '   ' },
        { ...good, name: 'x'.repeat(21) },
        { ...good, name: 12 },
        { ...good, color: 'red' },
        { ...good, color: '#12345' },
        { ...good, color: '#1234567' },
        { ...good, color: '123456' },
        { ...good, color: '#GGGGGG' },
        { ...good, kind: 'all' },
        { ...good, icon: 'i'.repeat(51) },
        { name: 'x', color: '#123456' },
        { color: '#123456', kind: 'expense' },
      ];
      for (const body of bad) assertError(await asAlice.post('/api/categories', body), 400, 40001);
      const maxIcon = await asAlice.post('/api/categories', { ...good, icon: 'i'.repeat(50) });
      assert.equal(maxIcon.statusCode, 201, maxIcon.body);
    });

    it('refuses the 201st category of a user with 42201', async () => {
      const user = await createUser(t.db);
      const h = t.as(user);
      const have = (await listOf(h)).length;
      await t.db.insert(categories).values(
        Array.from({ length: 199 - have }, (_, i) => ({
          userId: user.id,
          name: `bulk${i}`,
          color: '#123456',
          kind: 'expense' as const,
        })),
      );
      const last = await h.post('/api/categories', { name: 'number200', color: '#123456', kind: 'income' });
      assert.equal(last.statusCode, 201, last.body);
      assertError(await h.post('/api/categories', { name: 'number201', color: '#123456', kind: 'income' }), 422, 42201);
      assert.equal((await listOf(h)).length, 200);
    });
  });

  describe('PUT /api/categories/:id', () => {
    it('changes name, color and icon', async () => {
      const c = await createCategory(t.db, alice.id, { name: 'Old name' });
      const res = await asAlice.put(`/api/categories/${c.id}`, { name: ' New name ', color: '#abcdef', icon: 'star' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().name, 'New name');
      assert.equal(res.json().color, '#ABCDEF');
      assert.equal(res.json().icon, 'star');
      assert.equal(res.json().kind, 'expense');
      const partial = await asAlice.put(`/api/categories/${c.id}`, { icon: '' });
      assert.equal(partial.json().name, 'New name');
      assert.equal(partial.json().icon, '');
      const same = await asAlice.put(`/api/categories/${c.id}`, { name: 'New name' });
      assert.equal(same.statusCode, 200, same.body);
      const empty = await asAlice.put(`/api/categories/${c.id}`, {});
      assert.equal(empty.statusCode, 200);
      assert.equal(empty.json().name, 'New name');
    });

    it('refuses a kind key, bad values and a duplicate name', async () => {
      const c = await createCategory(t.db, alice.id, { name: 'Kind fixed' });
      assertError(await asAlice.put(`/api/categories/${c.id}`, { kind: 'income' }), 400, 40001);
      assertError(await asAlice.put(`/api/categories/${c.id}`, { kind: 'expense', name: 'x' }), 400, 40001);
      assertError(await asAlice.put(`/api/categories/${c.id}`, { name: '' }), 400, 40001);
      assertError(await asAlice.put(`/api/categories/${c.id}`, { name: 'y'.repeat(21) }), 400, 40001);
      assertError(await asAlice.put(`/api/categories/${c.id}`, { color: 'blue' }), 400, 40001);
      assertError(await asAlice.put(`/api/categories/${c.id}`, { icon: 'z'.repeat(51) }), 400, 40001);
      assertError(await asAlice.put('/api/categories/abc', { name: 'x' }), 400, 40001);
      const food = await firstCategory(t.db, alice.id, 'expense');
      assertError(await asAlice.put(`/api/categories/${c.id}`, { name: food.name }), 409, 40901);
      const row = (await t.db.select().from(categories).where(eq(categories.id, c.id)))[0]!;
      assert.equal(row.kind, 'expense');
      assert.equal(row.name, 'Kind fixed');
    });

    it("answers 404 for another user's or a missing category", async () => {
      const bobs = await createCategory(t.db, bob.id, { name: 'Bob only' });
      assertError(await asAlice.put(`/api/categories/${bobs.id}`, { name: 'Stolen' }), 404, 40401);
      assertError(await asAlice.put('/api/categories/2147483647', { name: 'Nothing' }), 404, 40401);
      const row = (await t.db.select().from(categories).where(eq(categories.id, bobs.id)))[0]!;
      assert.equal(row.name, 'Bob only');
    });
  });

  describe('PUT /api/categories/sort', () => {
    it('reorders all categories of one kind in one go', async () => {
      const user = await createUser(t.db);
      const h = t.as(user);
      const income = await listOf(h, 'income');
      const reversed = income.map((c) => c.id as number).reverse();
      const res = await h.put('/api/categories/sort', { ids: reversed });
      assert.equal(res.statusCode, 204, res.body);
      assert.equal(res.body, '');
      const after = await listOf(h, 'income');
      assert.deepEqual(
        after.map((c) => c.id),
        reversed,
      );
      assert.deepEqual(
        after.map((c) => c.sort),
        reversed.map((_, i) => i),
      );
      // the other kind is untouched
      const expense = await listOf(h, 'expense');
      assert.deepEqual(
        expense.map((c) => c.name),
        DEFAULT_CATEGORIES.filter((c) => c.kind === 'expense').map((c) => c.name),
      );
    });

    it('refuses anything but every category of one kind, each once, with 40001 and changes nothing', async () => {
      const user = await createUser(t.db);
      const h = t.as(user);
      const expense = (await listOf(h, 'expense')).map((c) => c.id as number);
      const income = (await listOf(h, 'income')).map((c) => c.id as number);
      const bobsIncome = (await listOf(asBob, 'income')).map((c) => c.id as number);
      const bad: unknown[] = [
        [],
        expense.slice(1),
        [...expense, expense[0]],
        [...expense.slice(1), expense[0], expense[0]],
        [...expense, income[0]],
        [...income.slice(1), bobsIncome[0]],
        [...income, 2147483647],
        bobsIncome,
        [...expense.slice(0, -1), 'x'],
        'all',
      ];
      for (const ids of bad) assertError(await h.put('/api/categories/sort', { ids }), 400, 40001);
      assertError(await h.put('/api/categories/sort', {}), 400, 40001);
      assert.deepEqual(
        (await listOf(h, 'expense')).map((c) => c.id),
        expense,
      );
      assert.deepEqual(
        (await listOf(asBob, 'income')).map((c) => c.id),
        bobsIncome,
      );
    });
  });

  describe('POST /api/categories/:id/migrate', () => {
    it('moves transactions, recurring rules and saved filter references to the target', async () => {
      const src = await createCategory(t.db, alice.id, { name: 'Source A' });
      const dst = await createCategory(t.db, alice.id, { name: 'Target A' });
      const keep = await createCategory(t.db, alice.id, { name: 'Keep A' });
      for (let i = 0; i < 3; i++) await createTransaction(t.db, alice.id, { categoryId: src.id, amountMinor: 100 + i });
      const untouched = await createTransaction(t.db, alice.id, { categoryId: keep.id });
      const rule = await addRule(alice.id, src.id);
      const f1 = await addFilter(alice.id, { category_ids: [keep.id, src.id, dst.id], kind: 'expense' });
      const f2 = await addFilter(alice.id, { category_ids: [src.id], min_amount: 0 });
      const f3 = await addFilter(alice.id, { category_ids: [keep.id] });
      const f4 = await addFilter(alice.id, { keyword: 'x' });

      const res = await asAlice.post(`/api/categories/${src.id}/migrate`, { target_id: dst.id });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { moved: 3 });

      const moved = await t.db.select().from(transactions).where(eq(transactions.categoryId, dst.id));
      assert.equal(moved.length, 3);
      assert.equal((await t.db.select().from(transactions).where(eq(transactions.categoryId, src.id))).length, 0);
      assert.equal(
        (await t.db.select().from(transactions).where(eq(transactions.id, untouched.id)))[0]!.categoryId,
        keep.id,
      );
      assert.equal(
        (await t.db.select().from(recurringRules).where(eq(recurringRules.id, rule.id)))[0]!.categoryId,
        dst.id,
      );
      assert.deepEqual(await filterCriteria(f1.id), { category_ids: [keep.id, dst.id], kind: 'expense' });
      assert.deepEqual(await filterCriteria(f2.id), { category_ids: [dst.id], min_amount: 0 });
      assert.deepEqual(await filterCriteria(f3.id), { category_ids: [keep.id] });
      assert.deepEqual(await filterCriteria(f4.id), { keyword: 'x' });
      // the source still exists after a migrate
      assert.equal((await t.db.select().from(categories).where(eq(categories.id, src.id))).length, 1);

      const again = await asAlice.post(`/api/categories/${src.id}/migrate`, { target_id: dst.id });
      assert.deepEqual(again.json(), { moved: 0 });
    });

    it("refuses a target of another kind (42201), not the caller's or the same one (40001), and changes nothing", async () => {
      const src = await createCategory(t.db, alice.id, { name: 'Source B' });
      await createTransaction(t.db, alice.id, { categoryId: src.id });
      const income = await firstCategory(t.db, alice.id, 'income');
      const bobs = await firstCategory(t.db, bob.id, 'expense');
      assertError(await asAlice.post(`/api/categories/${src.id}/migrate`, { target_id: income.id }), 422, 42201);
      assertError(await asAlice.post(`/api/categories/${src.id}/migrate`, { target_id: bobs.id }), 400, 40001);
      assertError(await asAlice.post(`/api/categories/${src.id}/migrate`, { target_id: 2147483647 }), 400, 40001);
      assertError(await asAlice.post(`/api/categories/${src.id}/migrate`, { target_id: src.id }), 400, 40001);
      assertError(
        await asAlice.post(`/api/categories/${src.id}/migrate`, { target_id: String(income.id) }),
        400,
        40001,
      );
      assertError(await asAlice.post(`/api/categories/${src.id}/migrate`, {}), 400, 40001);
      assert.equal((await t.db.select().from(transactions).where(eq(transactions.categoryId, src.id))).length, 1);
    });

    it("answers 404 when the source is another user's", async () => {
      const bobsSrc = await createCategory(t.db, bob.id, { name: 'Bob source' });
      const bobsTx = await createTransaction(t.db, bob.id, { categoryId: bobsSrc.id });
      const mine = await firstCategory(t.db, alice.id, 'expense');
      assertError(await asAlice.post(`/api/categories/${bobsSrc.id}/migrate`, { target_id: mine.id }), 404, 40401);
      assert.equal(
        (await t.db.select().from(transactions).where(eq(transactions.id, bobsTx.id)))[0]!.categoryId,
        bobsSrc.id,
      );
    });
  });

  describe('DELETE /api/categories/:id', () => {
    it('deletes an unused category and removes it from saved filters', async () => {
      const c = await createCategory(t.db, alice.id, { name: 'Unused' });
      const other = await firstCategory(t.db, alice.id, 'expense');
      const f = await addFilter(alice.id, { category_ids: [c.id, other.id] });
      const res = await asAlice.delete(`/api/categories/${c.id}`);
      assert.equal(res.statusCode, 204, res.body);
      assert.equal(res.body, '');
      assert.equal((await t.db.select().from(categories).where(eq(categories.id, c.id))).length, 0);
      assert.deepEqual(await filterCriteria(f.id), { category_ids: [other.id] });
      assertError(await asAlice.delete(`/api/categories/${c.id}`), 404, 40401);
    });

    it('refuses to delete a category with transactions or recurring rules and no target (42201)', async () => {
      const c = await createCategory(t.db, alice.id, { name: 'Has tx' });
      await createTransaction(t.db, alice.id, { categoryId: c.id });
      assertError(await asAlice.delete(`/api/categories/${c.id}`), 422, 42201);
      const r = await createCategory(t.db, alice.id, { name: 'Has rule' });
      await addRule(alice.id, r.id);
      assertError(await asAlice.delete(`/api/categories/${r.id}`), 422, 42201);
      assert.equal((await t.db.select().from(categories).where(eq(categories.id, c.id))).length, 1);
      assert.equal((await t.db.select().from(categories).where(eq(categories.id, r.id))).length, 1);
    });

    it('moves everything to migrate_to, then deletes, in one transaction', async () => {
      const src = await createCategory(t.db, alice.id, { name: 'Delete me' });
      const dst = await createCategory(t.db, alice.id, { name: 'Receiver' });
      const tx1 = await createTransaction(t.db, alice.id, { categoryId: src.id });
      const tx2 = await createTransaction(t.db, alice.id, { categoryId: src.id });
      const rule = await addRule(alice.id, src.id);
      const f = await addFilter(alice.id, { category_ids: [src.id, dst.id] });
      const res = await asAlice.delete(`/api/categories/${src.id}?migrate_to=${dst.id}`);
      assert.equal(res.statusCode, 204, res.body);
      assert.equal((await t.db.select().from(categories).where(eq(categories.id, src.id))).length, 0);
      const rows = await t.db
        .select()
        .from(transactions)
        .where(and(eq(transactions.userId, alice.id), eq(transactions.categoryId, dst.id)));
      assert.deepEqual(
        rows.map((r) => r.id).sort((a, b) => a - b),
        [tx1.id, tx2.id],
      );
      assert.equal(
        (await t.db.select().from(recurringRules).where(eq(recurringRules.id, rule.id)))[0]!.categoryId,
        dst.id,
      );
      assert.deepEqual(await filterCriteria(f.id), { category_ids: [dst.id] });
    });

    it('rolls back when the target is refused', async () => {
      const src = await createCategory(t.db, alice.id, { name: 'Stays' });
      const tx = await createTransaction(t.db, alice.id, { categoryId: src.id });
      const income = await firstCategory(t.db, alice.id, 'income');
      const bobs = await firstCategory(t.db, bob.id, 'expense');
      assertError(await asAlice.delete(`/api/categories/${src.id}?migrate_to=${income.id}`), 422, 42201);
      assertError(await asAlice.delete(`/api/categories/${src.id}?migrate_to=${bobs.id}`), 400, 40001);
      assertError(await asAlice.delete(`/api/categories/${src.id}?migrate_to=${src.id}`), 400, 40001);
      assertError(await asAlice.delete(`/api/categories/${src.id}?migrate_to=abc`), 400, 40001);
      assertError(await asAlice.delete(`/api/categories/${src.id}?migrate_to=0`), 400, 40001);
      assert.equal((await t.db.select().from(categories).where(eq(categories.id, src.id))).length, 1);
      assert.equal((await t.db.select().from(transactions).where(eq(transactions.id, tx.id)))[0]!.categoryId, src.id);
    });

    it("answers 404 for another user's category and leaves it alone", async () => {
      const bobs = await createCategory(t.db, bob.id, { name: 'Bob keeps' });
      const mine = await createCategory(t.db, alice.id, { name: 'Alice target' });
      assertError(await asAlice.delete(`/api/categories/${bobs.id}`), 404, 40401);
      assertError(await asAlice.delete(`/api/categories/${bobs.id}?migrate_to=${mine.id}`), 404, 40401);
      assert.equal((await t.db.select().from(categories).where(eq(categories.id, bobs.id))).length, 1);
    });

    it("does not touch another user's saved filters naming the same id", async () => {
      const src = await createCategory(t.db, alice.id, { name: 'Shared id' });
      const dst = await createCategory(t.db, alice.id, { name: 'Shared dst' });
      const bobsFilter = await addFilter(bob.id, { category_ids: [src.id] });
      const res = await asAlice.delete(`/api/categories/${src.id}?migrate_to=${dst.id}`);
      assert.equal(res.statusCode, 204, res.body);
      assert.deepEqual(await filterCriteria(bobsFilter.id), { category_ids: [src.id] });
    });
  });
});
