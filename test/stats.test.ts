import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema/index.ts';
import { periodRange, todayIn } from '../src/lib/dates.ts';
import { changePercent, elapsedDays, percentOf } from '../src/modules/stats/stats.service.ts';
import {
  addMember,
  aliceAndBob,
  build,
  type Client,
  createCategory,
  createGroup,
  createTag,
  createTransaction,
  createUser,
  expectOk,
  tagTransaction,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('statistics helpers', () => {
  it('counts the elapsed days of a period', () => {
    const march = { start: '2025-03-01', end: '2025-03-31' };
    assert.equal(elapsedDays(march, '2025-04-10'), 31);
    assert.equal(elapsedDays(march, '2025-03-31'), 31);
    assert.equal(elapsedDays(march, '2025-03-10'), 10);
    assert.equal(elapsedDays(march, '2025-03-01'), 1);
    assert.equal(elapsedDays(march, '2025-02-01'), 1);
    assert.equal(elapsedDays({ start: '2024-01-01', end: '2024-12-31' }, '2025-01-01'), 366);
  });

  it('computes percentages with 2 decimals', () => {
    assert.equal(percentOf(1, 3), 33.33);
    assert.equal(percentOf(2, 3), 66.67);
    assert.equal(percentOf(5, 5), 100);
    assert.equal(percentOf(0, 0), 0);
    assert.equal(changePercent(12550, 10000), 25.5);
    assert.equal(changePercent(9000, 10000), -10);
    assert.equal(changePercent(10000, 10000), 0);
    assert.equal(changePercent(0, 10000), -100);
    assert.equal(changePercent(100, 0), null);
    assert.equal(changePercent(1, 3), -66.67);
    assert.equal(changePercent(2, 3), -33.33);
  });
});

describe('statistics', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let carol: UserRow;
  let asAlice: Client;
  let asBob: Client;
  let asCarol: Client;
  let food: number;
  let transport: number;
  let shopping: number;
  let salary: number;
  let groupId: number;
  let tagId: number;
  let bobTagId: number;
  let bigId: number;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice, asBob } = await aliceAndBob(t));
    carol = await createUser(t.db);
    asCarol = t.as(carol);
    food = (await createCategory(t.db, alice.id, { name: 'S-Food', color: '#AA0000' })).id;
    transport = (await createCategory(t.db, alice.id, { name: 'S-Transport', color: '#00AA00' })).id;
    shopping = (await createCategory(t.db, alice.id, { name: 'S-Shopping', color: '#0000AA' })).id;
    salary = (await createCategory(t.db, alice.id, { name: 'S-Salary', kind: 'income', color: '#AAAA00' })).id;
    const bobFood = (await createCategory(t.db, bob.id, { name: 'B-Food', color: '#BB0000' })).id;
    const group = await createGroup(t.db, alice.id);
    groupId = group.id;
    await addMember(t.db, groupId, bob.id);
    const tag = await createTag(t.db, alice.id);
    tagId = tag.id;
    bobTagId = (await createTag(t.db, bob.id)).id;

    const tx = (userId: number, categoryId: number, date: string, amountMinor: number, extra: Json = {}) =>
      createTransaction(t.db, userId, { categoryId, date, amountMinor, ...extra });
    // March 2025 (a past month of 31 days), alice personally
    const tagged = await tx(alice.id, food, '2025-03-03', 1250);
    await tx(alice.id, transport, '2025-03-03', 3000);
    await tx(alice.id, food, '2025-03-10', 10000, { note: 'earlier hundred' });
    bigId = (await tx(alice.id, food, '2025-03-15', 10000, { note: 'dinner party' })).id;
    await tx(alice.id, shopping, '2025-03-31', 725);
    await tx(alice.id, salary, '2025-03-10', 500000, { kind: 'income' });
    // alice in the group (counts personally and in the group)
    const groupTagged = await tx(alice.id, shopping, '2025-03-20', 2000, { groupId });
    await tagTransaction(t.db, tagged.id, [tagId]);
    await tagTransaction(t.db, groupTagged.id, [tagId]);
    // February 2025 and April 2025 for alice
    await tx(alice.id, food, '2025-02-10', 5000);
    await tx(alice.id, salary, '2025-02-25', 400000, { kind: 'income' });
    await tx(alice.id, food, '2025-04-01', 99900);
    // bob: personal (never in alice's numbers) and in the group
    await tx(bob.id, bobFood, '2025-03-05', 777700);
    await tx(bob.id, bobFood, '2025-03-06', 4000, { groupId });
    // carol: nothing in the group
  });
  after(async () => t.close());

  it('summarises a custom range, compared with as many days just before it, per day up to 62 days and per month beyond', async () => {
    const s = expectOk<Json>(
      await asAlice.get('/api/stats/summary', { query: { period: 'custom', start: '2025-03-10', end: '2025-04-01' } }),
    );
    // 03-10 100.00 + 03-15 100.00 + 03-20 20.00 (group, paid by alice) + 03-31 7.25 + 04-01 999.00
    assert.deepEqual(
      [s.overview.start, s.overview.end, s.overview.expense, s.overview.income],
      ['2025-03-10', '2025-04-01', 1226.25, 5000],
    );
    // the 23 days before: 2025-02-15 to 2025-03-09, the two rows of 03-03 (12.50 + 30.00) and the salary of 02-25
    assert.deepEqual(s.compare.previous, { start: '2025-02-15', end: '2025-03-09', income: 4000, expense: 42.5 });
    assert.equal(s.trend.unit, 'day');
    assert.equal(s.trend.list.length, 23);
    assert.deepEqual(s.trend.list.at(-1), { date: '2025-04-01', amount: 999, count: 1 });
    const long = expectOk<Json>(
      await asAlice.get('/api/stats/trend', { query: { period: 'custom', start: '2025-01-15', end: '2025-04-30' } }),
    );
    assert.equal(long.unit, 'month');
    assert.deepEqual(
      long.list.map((p: Json) => [p.date, p.amount]),
      [
        ['2025-01', 0],
        ['2025-02', 50],
        ['2025-03', 269.75],
        ['2025-04', 999],
      ],
    );
    for (const query of [
      { period: 'custom', start: '2025-03-10' },
      { period: 'custom', end: '2025-03-10' },
      { period: 'custom', start: '2025-03-10', end: '2025-03-09' },
      { period: 'custom', start: '2025-02-30', end: '2025-03-09' },
      { period: 'custom', start: '2000-01-01', end: '2010-12-31' },
      { period: 'month', start: '2025-03-10', end: '2025-03-20' },
    ]) {
      const res = await asAlice.get('/api/stats/summary', { query });
      assert.equal(res.statusCode, 400, JSON.stringify(query));
      assert.equal(res.json().code, 40001, JSON.stringify(query));
    }
  });

  it('gives the overview of a past month', async () => {
    const o = expectOk(await asAlice.get('/api/stats/overview?period=month&date=2025-03-18'));
    assert.deepEqual(o, {
      start: '2025-03-01',
      end: '2025-03-31',
      income: 5000,
      expense: 269.75,
      balance: 4730.25,
      count: 7,
      // 26975 cents over all 31 days
      daily_average: 8.7,
    });
    const income = expectOk(await asAlice.get('/api/stats/overview?date=2025-03-18&type=income'));
    assert.equal(income.daily_average, 161.29);
    assert.equal(income.expense, 269.75);
  });

  it('shares the type total by category, amount descending', async () => {
    const s = expectOk(await asAlice.get('/api/stats/category-share?date=2025-03-01'));
    assert.equal(s.total, 269.75);
    assert.deepEqual(s.list, [
      {
        category_id: food,
        category_ids: [food],
        name: 'S-Food',
        color: '#AA0000',
        amount: 212.5,
        count: 3,
        percent: 78.78,
      },
      {
        category_id: transport,
        category_ids: [transport],
        name: 'S-Transport',
        color: '#00AA00',
        amount: 30,
        count: 1,
        percent: 11.12,
      },
      {
        category_id: shopping,
        category_ids: [shopping],
        name: 'S-Shopping',
        color: '#0000AA',
        amount: 27.25,
        count: 2,
        percent: 10.1,
      },
    ]);
    const inc = expectOk(await asAlice.get('/api/stats/category-share?date=2025-03-01&type=income'));
    assert.deepEqual(inc, {
      total: 5000,
      list: [
        {
          category_id: salary,
          category_ids: [salary],
          name: 'S-Salary',
          color: '#AAAA00',
          amount: 5000,
          count: 1,
          percent: 100,
        },
      ],
    });
    const empty = expectOk(await asAlice.get('/api/stats/category-share?date=2030-03-01'));
    assert.deepEqual(empty, { total: 0, list: [] });
  });

  it('gives a zero-filled trend per day for weeks and months, per month for years', async () => {
    const m = expectOk(await asAlice.get('/api/stats/trend?date=2025-03-09'));
    assert.equal(m.unit, 'day');
    assert.equal(m.list.length, 31);
    assert.equal(m.list[0].date, '2025-03-01');
    assert.equal(m.list[30].date, '2025-03-31');
    assert.deepEqual(m.list[2], { date: '2025-03-03', amount: 42.5, count: 2 });
    assert.deepEqual(m.list[3], { date: '2025-03-04', amount: 0, count: 0 });
    assert.deepEqual(m.list[30], { date: '2025-03-31', amount: 7.25, count: 1 });
    const sum = m.list.reduce((s: number, p: Json) => s + Math.round(p.amount * 100), 0);
    assert.equal(sum, 26975);

    const w = expectOk(await asAlice.get('/api/stats/trend?period=week&date=2025-03-05'));
    assert.deepEqual(
      w.list.map((p: Json) => p.date),
      ['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07', '2025-03-08', '2025-03-09'],
    );
    assert.equal(w.list[0].amount, 42.5);

    const y = expectOk(await asAlice.get('/api/stats/trend?period=year&date=2025-07-01'));
    assert.equal(y.unit, 'month');
    assert.equal(y.list.length, 12);
    assert.deepEqual(y.list[0], { date: '2025-01', amount: 0, count: 0 });
    assert.deepEqual(y.list[1], { date: '2025-02', amount: 50, count: 1 });
    assert.deepEqual(y.list[2], { date: '2025-03', amount: 269.75, count: 6 });
    assert.deepEqual(y.list[3], { date: '2025-04', amount: 999, count: 1 });
    const yi = expectOk(await asAlice.get('/api/stats/trend?period=year&date=2025-07-01&type=income'));
    assert.deepEqual(yi.list[2], { date: '2025-03', amount: 5000, count: 1 });
  });

  it('finds the largest single transaction in the transaction shape (ties: the latest)', async () => {
    const { transaction } = expectOk(await asAlice.get('/api/stats/max?date=2025-03-02'));
    assert.equal(transaction.id, bigId);
    assert.equal(transaction.amount, 100);
    assert.equal(transaction.kind, 'expense');
    assert.equal(transaction.date, '2025-03-15');
    assert.equal(transaction.note, 'dinner party');
    assert.deepEqual(transaction.category, { id: food, name: 'S-Food', color: '#AA0000', kind: 'expense' });
    assert.equal(transaction.user_id, alice.id);
    assert.equal(transaction.owner.id, alice.id);
    assert.deepEqual(transaction.tags, []);
    assert.equal(transaction.group_id, null);
    const income = expectOk(await asAlice.get('/api/stats/max?date=2025-03-02&type=income'));
    assert.equal(income.transaction.amount, 5000);
    assert.deepEqual(expectOk(await asAlice.get('/api/stats/max?date=2030-01-01')), { transaction: null });
    // on the same day and amount the higher id wins
    const u = await createUser(t.db);
    const first = await createTransaction(t.db, u.id, { date: '2025-05-05', amountMinor: 500 });
    const second = await createTransaction(t.db, u.id, { date: '2025-05-05', amountMinor: 500 });
    await createTransaction(t.db, u.id, { date: '2025-05-06', amountMinor: 499 });
    const tie = expectOk(await t.as(u).get('/api/stats/max?date=2025-05-01'));
    assert.equal(tie.transaction.id, Math.max(first.id, second.id));
  });

  it('compares with the period just before', async () => {
    const c = expectOk(await asAlice.get('/api/stats/compare?date=2025-03-20'));
    assert.deepEqual(c, {
      current: { start: '2025-03-01', end: '2025-03-31', income: 5000, expense: 269.75 },
      previous: { start: '2025-02-01', end: '2025-02-28', income: 4000, expense: 50 },
      change: { income_percent: 25, expense_percent: 439.5 },
    });
    const april = expectOk(await asAlice.get('/api/stats/compare?date=2025-04-20'));
    assert.deepEqual(april.change, { income_percent: -100, expense_percent: 270.34 });
    const feb = expectOk(await asAlice.get('/api/stats/compare?date=2025-02-20'));
    assert.deepEqual(feb.change, { income_percent: null, expense_percent: null });
    const week = expectOk(await asAlice.get('/api/stats/compare?period=week&date=2025-03-12'));
    assert.deepEqual(week.previous, { start: '2025-03-03', end: '2025-03-09', income: 0, expense: 42.5 });
    assert.deepEqual(week.current, { start: '2025-03-10', end: '2025-03-16', income: 5000, expense: 200 });
    assert.deepEqual(week.change, { income_percent: null, expense_percent: 370.59 });
    const year = expectOk(await asAlice.get('/api/stats/compare?period=year&date=2026-01-01'));
    assert.deepEqual(year.previous, { start: '2025-01-01', end: '2025-12-31', income: 9000, expense: 1318.75 });
    assert.equal(year.change.expense_percent, -100);
  });

  it("shows every member's transactions of a group to its members only", async () => {
    const o = expectOk(await asBob.get(`/api/stats/overview?date=2025-03-01&group_id=${groupId}`));
    assert.equal(o.expense, 60);
    assert.equal(o.income, 0);
    assert.equal(o.count, 2);
    assert.deepEqual(expectOk(await asAlice.get(`/api/stats/overview?date=2025-03-01&group_id=${groupId}`)), o);
    const share = expectOk(await asAlice.get(`/api/stats/category-share?date=2025-03-01&group_id=${groupId}`));
    assert.deepEqual(
      share.list.map((r: Json) => [r.name, r.amount, r.percent]),
      [
        ['B-Food', 40, 66.67],
        ['S-Shopping', 20, 33.33],
      ],
    );
    const max = expectOk(await asAlice.get(`/api/stats/max?date=2025-03-01&group_id=${groupId}`));
    assert.equal(max.transaction.user_id, bob.id);
    assert.equal(max.transaction.group_id, groupId);
    for (const path of ['overview', 'category-share', 'trend', 'max', 'compare', 'summary']) {
      const res = await asCarol.get(`/api/stats/${path}?group_id=${groupId}`);
      assert.equal(res.statusCode, 403, `${path}: ${res.body}`);
      assert.equal(res.json().code, 40302);
    }
    const missing = await asAlice.get('/api/stats/overview?group_id=2147483647');
    assert.equal(missing.json().code, 40302);
  });

  it("filters by one of the caller's tags, and refuses another user's tag with 40001", async () => {
    const o = expectOk(await asAlice.get(`/api/stats/overview?date=2025-03-01&tag_id=${tagId}`));
    assert.equal(o.expense, 32.5);
    assert.equal(o.count, 2);
    const g = expectOk(await asAlice.get(`/api/stats/overview?date=2025-03-01&tag_id=${tagId}&group_id=${groupId}`));
    assert.equal(g.expense, 20);
    for (const id of [bobTagId, 2147483647]) {
      const res = await asAlice.get(`/api/stats/overview?tag_id=${id}`);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 40001);
    }
  });

  it("never counts another user's rows", async () => {
    const o = expectOk(await asBob.get('/api/stats/overview?date=2025-03-01'));
    assert.equal(o.expense, 7817);
    assert.equal(o.count, 2);
    const c = expectOk(await asCarol.get('/api/stats/overview?date=2025-03-01'));
    assert.deepEqual([c.income, c.expense, c.count, c.daily_average], [0, 0, 0, 0]);
    const carolTrend = expectOk(await asCarol.get('/api/stats/trend?date=2025-03-01'));
    assert.ok(carolTrend.list.every((p: Json) => p.amount === 0 && p.count === 0));
    assert.deepEqual(expectOk(await asCarol.get('/api/stats/max?date=2025-03-01')), { transaction: null });
  });

  it('answers the five statistics in one summary, each as its own operation does', async () => {
    for (const qs of [
      'date=2025-03-18',
      'period=week&date=2025-03-12&type=income',
      'period=year&date=2025-06-01',
      `date=2025-03-01&group_id=${groupId}`,
      `date=2025-03-01&tag_id=${tagId}`,
    ]) {
      const s = expectOk(await asAlice.get(`/api/stats/summary?${qs}`));
      assert.deepEqual(Object.keys(s).sort(), ['category_share', 'compare', 'max', 'overview', 'trend']);
      assert.deepEqual(s.overview, expectOk(await asAlice.get(`/api/stats/overview?${qs}`)), qs);
      assert.deepEqual(s.category_share, expectOk(await asAlice.get(`/api/stats/category-share?${qs}`)), qs);
      assert.deepEqual(s.trend, expectOk(await asAlice.get(`/api/stats/trend?${qs}`)), qs);
      assert.deepEqual(s.max, expectOk(await asAlice.get(`/api/stats/max?${qs}`)), qs);
      assert.deepEqual(s.compare, expectOk(await asAlice.get(`/api/stats/compare?${qs}`)), qs);
    }
  });

  it('validates the common query with 40001', async () => {
    for (const qs of [
      'type=all',
      'type=',
      'period=day',
      'date=2025-02-30',
      'date=2025-3-1',
      'date=today',
      'group_id=abc',
      'group_id=0',
      'tag_id=-1',
    ]) {
      for (const path of ['overview', 'summary']) {
        const res = await asAlice.get(`/api/stats/${path}?${qs}`);
        assert.equal(res.statusCode, 400, `${path}?${qs}: ${res.body}`);
        assert.equal(res.json().code, 40001);
      }
    }
    const anon = await t.anon.get('/api/stats/summary');
    assert.equal(anon.statusCode, 401);
  });

  it("defaults to today in the user's own zone, else APP_TIMEZONE, and averages over the days so far", async () => {
    const east = await createUser(t.db, { timezone: 'Pacific/Kiritimati' });
    const west = await createUser(t.db, { timezone: 'Etc/GMT+12' });
    const now = new Date();
    const eastToday = todayIn('Pacific/Kiritimati', now);
    const westToday = todayIn('Etc/GMT+12', now);
    await createTransaction(t.db, east.id, { date: eastToday, amountMinor: 3100 });
    const eo = expectOk(await t.as(east).get('/api/stats/overview?period=week'));
    assert.deepEqual([eo.start, eo.end], [periodRange('week', eastToday).start, periodRange('week', eastToday).end]);
    assert.equal(eo.expense, 31);
    const days = Number(eastToday.slice(8, 10));
    const em = expectOk(await t.as(east).get('/api/stats/overview'));
    assert.equal(em.start, periodRange('month', eastToday).start);
    assert.equal(em.daily_average, Math.round(3100 / days) / 100);
    const wo = expectOk(await t.as(west).get('/api/stats/overview?period=week'));
    assert.equal(wo.start, periodRange('week', westToday).start);
    // a future period divides by one day
    await createTransaction(t.db, east.id, { date: '2099-06-15', amountMinor: 1000 });
    const future = expectOk(await t.as(east).get('/api/stats/overview?date=2099-06-01'));
    assert.equal(future.daily_average, 10);

    // a user without a zone follows APP_TIMEZONE
    const other = await build({ appTimezone: 'Pacific/Kiritimati' }, { database: t.testDb });
    try {
      const plain = await createUser(t.db);
      const res = await other.as(plain).get('/api/stats/overview?period=week');
      assert.equal(res.json().start, periodRange('week', todayIn('Pacific/Kiritimati', new Date())).start);
      await t.db.update(users).set({ timezone: 'Etc/GMT+12' }).where(eq(users.id, plain.id));
      const res2 = await other.as(plain).get('/api/stats/overview?period=week');
      assert.equal(res2.json().start, periodRange('week', todayIn('Etc/GMT+12', new Date())).start);
    } finally {
      await other.close();
    }
  });
});
