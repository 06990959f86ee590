import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { transactions } from '../src/db/schema/index.ts';
import { addDays, todayIn } from '../src/lib/dates.ts';
import {
  build,
  type Client,
  createCategory,
  createUser,
  expectOk,
  inDefaultAccount,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Suggestion = { category_id: number; name: string; color: string; score: number };
type Category = { id: number; name: string; color: string };

describe('GET /api/categories/suggest', () => {
  let t: TestApp;
  let user: UserRow;
  let asUser: Client;
  let today: string;

  before(async () => {
    t = await build();
    user = await createUser(t.db);
    asUser = t.as(user);
    today = todayIn('UTC', new Date());
  });
  after(async () => t.close());

  const record = async (
    userId: number,
    categoryId: number,
    rows: { amount: number; note?: string; daysAgo?: number; kind?: 'expense' | 'income' }[],
  ) => {
    const booking = await inDefaultAccount(t.db, userId, 0);
    await t.db.insert(transactions).values(
      rows.map((r) => ({
        userId,
        categoryId,
        kind: r.kind ?? ('expense' as const),
        amountMinor: r.amount,
        note: r.note ?? '',
        date: addDays(today, -(r.daysAgo ?? 0)),
        ...booking,
        baseAmount: r.amount,
      })),
    );
  };
  it('answers the first categories by sort with low scores when there is no history', async () => {
    const fresh = await createUser(t.db);
    const asFresh = t.as(fresh);
    const expense = expectOk<{ list: Category[] }>(
      await asFresh.get('/api/categories', { query: { kind: 'expense' } }),
    ).list;
    // a note no keyword of the lexicon knows
    const answer = expectOk<{ list: Suggestion[]; preselect: number | null }>(
      await asFresh.get('/api/categories/suggest?kind=expense&amount=12.5&note=qwerty'),
    );
    const list = answer.list;
    assert.equal(answer.preselect, null);
    assert.equal(list.length, 3);
    assert.deepEqual(
      list.map((s) => s.category_id),
      expense.slice(0, 3).map((c) => c.id),
    );
    assert.deepEqual(Object.keys(list[0]!).sort(), ['category_id', 'color', 'name', 'score']);
    assert.deepEqual(Object.keys(answer).sort(), ['list', 'preselect']);
    assert.equal(list[0]!.name, expense[0]!.name);
    assert.equal(list[0]!.color, expense[0]!.color);
    assert.ok(list.every((s) => s.score < 0.1));
    assert.ok(list[0]!.score > list[1]!.score && list[1]!.score > list[2]!.score);
    // the user's own order decides
    const order = expense.map((c) => c.id).reverse();
    await asFresh.put('/api/categories/sort', { ids: order });
    const reordered = expectOk<{ list: Suggestion[] }>(await asFresh.get('/api/categories/suggest')).list;
    assert.deepEqual(
      reordered.map((s) => s.category_id),
      order.slice(0, 3),
    );
    const income = expectOk<{ list: Category[] }>(
      await asFresh.get('/api/categories', { query: { kind: 'income' } }),
    ).list;
    assert.deepEqual(
      expectOk<{ list: Suggestion[] }>(await asFresh.get('/api/categories/suggest?kind=income')).list.map(
        (s) => s.category_id,
      ),
      income.slice(0, 3).map((c) => c.id),
    );
  });

  it('names the category a keyword means for a new user, in both languages, and preselects it', async () => {
    const fresh = await createUser(t.db);
    const asFresh = t.as(fresh);
    const byName = new Map(
      expectOk<{ list: Category[] }>(await asFresh.get('/api/categories', { query: { kind: 'expense' } })).list.map(
        (c) => [c.name, c.id],
      ),
    );
    const cases: [string, string][] = [
      ['地铁', 'Transport'],
      ['公交', 'Transport'],
      ['滴滴', 'Transport'],
      ['打车', 'Transport'],
      ['超市', 'Shopping'],
      ['盒马', 'Shopping'],
      ['电影票', 'Entertainment'],
      ['Netflix', 'Entertainment'],
      ['Subway fare', 'Transport'],
      ['话费', 'Other'],
      ['午饭', 'Food'],
    ];
    for (const [note, name] of cases) {
      const answer = expectOk<{ list: Suggestion[]; preselect: number | null }>(
        await asFresh.get(`/api/categories/suggest?note=${encodeURIComponent(note)}`),
      );
      assert.equal(answer.preselect, byName.get(name), note);
      assert.equal(answer.list[0]!.category_id, byName.get(name), note);
    }
    // an income word asked as an expense names nothing
    assert.equal(
      expectOk<{ preselect: number | null }>(
        await asFresh.get(`/api/categories/suggest?note=${encodeURIComponent('工资')}`),
      ).preselect,
      null,
    );
  });

  it('follows the note, in Chinese and in English', async () => {
    const coffee = await createCategory(t.db, user.id, { name: '咖啡' });
    const metro = await createCategory(t.db, user.id, { name: '交通' });
    const books = await createCategory(t.db, user.id, { name: 'Books' });
    await record(user.id, coffee.id, [{ amount: 3200, note: '星巴克咖啡', daysAgo: 3 }]);
    await record(user.id, metro.id, [
      { amount: 400, note: '地铁', daysAgo: 1 },
      { amount: 400, note: '地铁', daysAgo: 2 },
      { amount: 400, note: '地铁', daysAgo: 4 },
    ]);
    await record(user.id, books.id, [
      { amount: 5900, note: 'novel from the bookshop', daysAgo: 10 },
      { amount: 4500, note: 'paperback', daysAgo: 12 },
    ]);
    assert.equal(
      expectOk<{ list: Suggestion[] }>(await asUser.get(`/api/categories/suggest?note=${encodeURIComponent('星巴克')}`))
        .list[0]!.category_id,
      coffee.id,
    );
    assert.equal(
      expectOk<{ list: Suggestion[] }>(await asUser.get(`/api/categories/suggest?note=${encodeURIComponent('坐地铁')}`))
        .list[0]!.category_id,
      metro.id,
    );
    assert.equal(
      expectOk<{ list: Suggestion[] }>(await asUser.get('/api/categories/suggest?note=Bookshop')).list.at(0)!
        .category_id,
      books.id,
    );
    // without a note the most used category leads
    assert.equal(
      expectOk<{ list: Suggestion[] }>(await asUser.get('/api/categories/suggest')).list[0]!.category_id,
      metro.id,
    );
  });

  it('follows the amount on a log scale', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const rent = await createCategory(t.db, u.id, { name: 'Rent' });
    const food = await createCategory(t.db, u.id, { name: 'Food court' });
    await record(u.id, rent.id, [
      { amount: 300000, daysAgo: 5 },
      { amount: 300000, daysAgo: 35 },
    ]);
    await record(u.id, food.id, [
      { amount: 2500, daysAgo: 5 },
      { amount: 3000, daysAgo: 35 },
    ]);
    assert.equal(
      expectOk<{ list: Suggestion[] }>(await asU.get('/api/categories/suggest?amount=2900')).list[0]!.category_id,
      rent.id,
    );
    assert.equal(
      expectOk<{ list: Suggestion[] }>(await asU.get('/api/categories/suggest?amount=28.5')).list[0]!.category_id,
      food.id,
    );
    assert.equal(
      expectOk<{ list: Suggestion[] }>(await asU.get('/api/categories/suggest?amount=2800.00')).list[0]!.category_id,
      rent.id,
    );
  });

  it('prefers recent use when everything else is equal, and breaks exact ties by id', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const a = await createCategory(t.db, u.id, { name: 'Old habit' });
    const b = await createCategory(t.db, u.id, { name: 'New habit' });
    await record(u.id, a.id, [{ amount: 1000, note: 'x', daysAgo: 90 }]);
    await record(u.id, b.id, [{ amount: 1000, note: 'x', daysAgo: 1 }]);
    const list = expectOk<{ list: Suggestion[] }>(await asU.get('/api/categories/suggest?amount=10&note=x')).list;
    assert.equal(list[0]!.category_id, b.id);
    assert.equal(list[1]!.category_id, a.id);
    assert.ok(list[0]!.score > list[1]!.score);

    const v = await createUser(t.db);
    const asV = t.as(v);
    const c1 = await createCategory(t.db, v.id, { name: 'Twin one' });
    const c2 = await createCategory(t.db, v.id, { name: 'Twin two' });
    await record(v.id, c2.id, [{ amount: 700, note: 'same', daysAgo: 2 }]);
    await record(v.id, c1.id, [{ amount: 700, note: 'same', daysAgo: 2 }]);
    const twins = expectOk<{ list: Suggestion[] }>(await asV.get('/api/categories/suggest?amount=7&note=same')).list;
    assert.deepEqual(
      twins.slice(0, 2).map((s) => s.category_id),
      [Math.min(c1.id, c2.id), Math.max(c1.id, c2.id)],
    );
    assert.equal(twins[0]!.score, twins[1]!.score);
    // deterministic
    assert.deepEqual(
      expectOk<{ list: Suggestion[] }>(await asV.get('/api/categories/suggest?amount=7&note=same')).list,
      twins,
    );
  });

  it('answers at most 3, completing thin history with the category order, scores within 0..1 and 4 decimals', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const only = await createCategory(t.db, u.id, { name: 'Only used' });
    await record(u.id, only.id, [{ amount: 1234, note: 'something', daysAgo: 3 }]);
    const list = expectOk<{ list: Suggestion[] }>(
      await asU.get('/api/categories/suggest?amount=12.34&note=something'),
    ).list;
    assert.equal(list.length, 3);
    assert.equal(list[0]!.category_id, only.id);
    assert.ok(list[0]!.score >= 0.1);
    assert.ok(list.slice(1).every((s) => s.score < list[0]!.score && s.category_id !== only.id));
    const many = expectOk<{ list: Suggestion[] }>(await asUser.get('/api/categories/suggest?note=x')).list;
    assert.equal(many.length, 3);
    for (const s of [...list, ...many]) {
      assert.ok(s.score >= 0 && s.score <= 1);
      assert.equal(Math.round(s.score * 10000) / 10000, s.score);
    }
  });

  it("uses only the caller's own history and the requested kind", async () => {
    const stranger = await createUser(t.db);
    const sc = await createCategory(t.db, stranger.id, { name: 'Stranger cat' });
    await record(
      stranger.id,
      sc.id,
      Array.from({ length: 20 }, () => ({ amount: 1000, note: 'unique stranger note' })),
    );
    const mine = new Set(
      expectOk<{ list: Category[] }>(await asUser.get('/api/categories', { query: { kind: 'expense' } })).list.map(
        (c) => c.id,
      ),
    );
    const list = expectOk<{ list: Suggestion[] }>(
      await asUser.get(`/api/categories/suggest?note=${encodeURIComponent('unique stranger note')}&amount=10`),
    ).list;
    assert.ok(list.every((s) => mine.has(s.category_id)));

    const u = await createUser(t.db);
    const asU = t.as(u);
    const incomeCats = expectOk<{ list: Category[] }>(
      await asU.get('/api/categories', { query: { kind: 'income' } }),
    ).list;
    const salary = incomeCats.at(-1)!;
    await record(u.id, salary.id, [{ amount: 900000, note: 'salary', kind: 'income', daysAgo: 2 }]);
    const incomeList = expectOk<{ list: Suggestion[] }>(
      await asU.get('/api/categories/suggest?kind=income&note=salary'),
    ).list;
    assert.equal(incomeList[0]!.category_id, salary.id);
    const incomeIds = new Set(incomeCats.map((c) => c.id));
    assert.ok(incomeList.every((s) => incomeIds.has(s.category_id)));
    // the income history does not leak into expense suggestions
    const expenseList = expectOk<{ list: Suggestion[] }>(
      await asU.get('/api/categories/suggest?kind=expense&note=salary'),
    ).list;
    assert.ok(expenseList.every((s) => !incomeIds.has(s.category_id)));
  });

  it('validates kind, amount and note with 40001', async () => {
    for (const qs of [
      '?kind=all',
      '?amount=0',
      '?amount=-5',
      '?amount=abc',
      '?amount=1.234',
      '?amount=1e3',
      `?note=${'n'.repeat(201)}`,
    ]) {
      const res = await asUser.get(`/api/categories/suggest${qs}`);
      assert.equal(res.statusCode, 400, `${qs}: ${res.body}`);
      assert.equal(res.json().code, 40001);
    }
    const anon = await t.anon.get('/api/categories/suggest');
    assert.equal(anon.statusCode, 401);
  });
});
