import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { budgets, categories, transactions } from '../src/db/schema/index.ts';
import { addDays } from '../src/lib/dates.ts';
import { pickLocale } from '../src/modules/categories/categories.defaults.ts';
import { DEMO_DAYS, seedDemoData, seededRandom } from '../src/modules/demo/demo.service.ts';
import { build, createUser, expectOk, type TestApp } from './helpers/index.ts';

describe('demo data', () => {
  let t: TestApp;

  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  const rowsOf = async (userId: number) =>
    t.db
      .select({
        date: transactions.date,
        kind: transactions.kind,
        amount: transactions.amountMinor,
        categoryId: transactions.categoryId,
        note: transactions.note,
      })
      .from(transactions)
      .where(eq(transactions.userId, userId))
      .orderBy(asc(transactions.id))
      // sample rows are expenses and incomes: each has a category
      .then((rows) => rows.map((r) => ({ ...r, categoryId: r.categoryId! })));

  it('gives a demo login statistics and a budget to show', async () => {
    const login = await t.anon.post('/api/auth/demo-login');
    assert.equal(login.statusCode, 200, login.body);
    const demo = t.withToken(login.json().access_token);
    const summary = expectOk(await demo.get('/api/stats/summary'));
    assert.ok(summary.overview.expense > 0);
    assert.ok(summary.overview.count > 0);
    assert.ok(summary.overview.daily_average > 0);
    assert.ok(summary.category_share.list.length > 0);
    assert.ok(summary.trend.list.some((p: { amount: number }) => p.amount > 0));
    assert.ok(summary.max.transaction);
    assert.equal(summary.max.transaction.user_id, login.json().user.id);
    const budget = expectOk(await demo.get('/api/budget'));
    assert.ok(budget.amount > 0);
    assert.ok(budget.spent > 0);
    assert.equal(Math.round(budget.remaining * 100), Math.round(budget.amount * 100) - Math.round(budget.spent * 100));
    // the salary of the last 30 days falls in this year or, early in January, in the last one
    const thisYear = expectOk(await demo.get('/api/stats/overview?period=year'));
    const lastYear = expectOk(
      await demo.get('/api/stats/overview', {
        query: { period: 'year', date: `${Number(thisYear.start.slice(0, 4)) - 1}-06-01` },
      }),
    );
    assert.ok(thisYear.income + lastYear.income > 0);
    const suggest = expectOk(await demo.get('/api/categories/suggest?note=Lunch&amount=25'));
    assert.equal(suggest.list[0].name, 'Food');
  });

  it('sets a demo account up in Chinese when the browser asks for it first', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo-login',
      headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' },
    });
    assert.equal(login.statusCode, 200, login.body);
    const headers = { authorization: `Bearer ${login.json().access_token}` };
    const cats = (await t.app.inject({ url: '/api/categories?kind=expense', headers }))
      .json()
      .list.map((c: { name: string }) => c.name);
    assert.equal(cats[0], '餐饮');
    assert.ok(cats.includes('交通'));
    const list = (await t.app.inject({ url: '/api/transactions?pageSize=100&startDate=2000-01-01', headers })).json()
      .list as { note: string; category: { name: string } }[];
    assert.ok(list.length > 0);
    assert.ok(
      list.every((tx) => !/[A-Za-z]/.test(tx.note) && !/[A-Za-z]/.test(tx.category.name)),
      'no English in the sample data',
    );
    assert.match(login.json().user.nickname, /^体验用户 /);
    const english = await t.app.inject({
      method: 'POST',
      url: '/api/auth/demo-login',
      headers: { 'accept-language': 'fr-FR,en;q=0.5,zh;q=0.1' },
    });
    const enCats = (
      await t.app.inject({
        url: '/api/categories?kind=expense',
        headers: { authorization: `Bearer ${english.json().access_token}` },
      })
    ).json().list;
    assert.equal(enCats[0].name, 'Food');
  });

  it('picks the language from Accept-Language by quality, English by default', () => {
    assert.equal(pickLocale(undefined), 'en');
    assert.equal(pickLocale(''), 'en');
    assert.equal(pickLocale('zh-CN'), 'zh');
    assert.equal(pickLocale('zh-Hans-CN;q=0.9, en;q=0.8'), 'zh');
    assert.equal(pickLocale('en-US,zh;q=0.5'), 'en');
    assert.equal(pickLocale('en;q=0.4, zh-TW;q=0.6'), 'zh');
    assert.equal(pickLocale('de, fr'), 'en');
    assert.equal(pickLocale('zh;q=0, en'), 'en');
  });

  it('covers the last 30 days up to today in the zone, with meals, transport, rent, salary and shopping', async () => {
    const user = await createUser(t.db);
    const now = new Date('2026-03-10T12:00:00.000Z');
    await seedDemoData(t.db, user.id, now, 'UTC');
    const rows = await rowsOf(user.id);
    const cats = await t.db.select().from(categories).where(eq(categories.userId, user.id));
    const byId = new Map(cats.map((c) => [c.id, c]));
    const first = addDays('2026-03-10', 1 - DEMO_DAYS);
    assert.ok(rows.length >= 60 && rows.length <= 200, `${rows.length} rows`);
    for (const r of rows) {
      assert.ok(r.date >= first && r.date <= '2026-03-10', r.date);
      const c = byId.get(r.categoryId);
      assert.ok(c, 'a category of the user');
      assert.equal(c.kind, r.kind);
      assert.ok(r.amount > 0);
    }
    const named = (name: string) => rows.filter((r) => byId.get(r.categoryId)!.name === name);
    const mealDays = new Set(named('Food').map((r) => r.date));
    assert.ok(mealDays.size >= 25, `meals on ${mealDays.size} days`);
    assert.ok(mealDays.has('2026-03-10'), 'a meal today');
    assert.ok(named('Transport').length >= 10);
    assert.equal(named('Housing').length, 1);
    assert.equal(named('Housing')[0]!.date, '2026-03-01');
    assert.ok(named('Shopping').length >= 1);
    const income = rows.filter((r) => r.kind === 'income');
    assert.equal(income.length, 1);
    assert.equal(byId.get(income[0]!.categoryId)!.name, 'Salary');
    assert.equal(income[0]!.date, '2026-03-10');
    const [budget] = await t.db
      .select()
      .from(budgets)
      .where(and(eq(budgets.userId, user.id), isNull(budgets.groupId)));
    assert.equal(budget!.month, '2026-03');
    assert.ok((budget!.amountMinor ?? 0) > 0);
  });

  it('is the same for the same user id and differs between users', async () => {
    const user = await createUser(t.db);
    const now = new Date('2026-07-20T08:00:00.000Z');
    await seedDemoData(t.db, user.id, now, 'Asia/Shanghai');
    const firstRun = await rowsOf(user.id);
    await t.db.delete(transactions).where(eq(transactions.userId, user.id));
    await t.db.delete(budgets).where(eq(budgets.userId, user.id));
    await seedDemoData(t.db, user.id, now, 'Asia/Shanghai');
    assert.deepEqual(await rowsOf(user.id), firstRun);

    const other = await createUser(t.db);
    await seedDemoData(t.db, other.id, now, 'Asia/Shanghai');
    const strip = (rows: { date: string; amount: number; note: string }[]) =>
      rows.map((r) => `${r.date} ${r.amount} ${r.note}`);
    assert.notDeepEqual(strip(await rowsOf(other.id)), strip(firstRun));
    assert.deepEqual(Array.from({ length: 5 }, seededRandom(42)), Array.from({ length: 5 }, seededRandom(42)));
  });

  it('takes "today" in the given zone', async () => {
    const now = new Date('2026-01-01T05:00:00.000Z');
    const east = await createUser(t.db);
    const west = await createUser(t.db);
    await seedDemoData(t.db, east.id, now, 'Pacific/Kiritimati');
    await seedDemoData(t.db, west.id, now, 'Etc/GMT+12');
    const last = (rows: { date: string }[]) =>
      rows
        .map((r) => r.date)
        .sort()
        .at(-1);
    const firstDate = (rows: { date: string }[]) => rows.map((r) => r.date).sort()[0];
    const eastRows = await rowsOf(east.id);
    const westRows = await rowsOf(west.id);
    assert.equal(last(eastRows), '2026-01-01');
    assert.ok(firstDate(eastRows)! >= '2025-12-03');
    assert.equal(last(westRows), '2025-12-31');
    assert.ok(firstDate(westRows)! >= '2025-12-02');
    const month = async (userId: number) =>
      (await t.db.select().from(budgets).where(eq(budgets.userId, userId)))[0]!.month;
    assert.equal(await month(east.id), '2026-01');
    assert.equal(await month(west.id), '2025-12');
  });
});
