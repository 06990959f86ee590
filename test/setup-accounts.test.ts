import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { todayIn } from '../src/lib/dates.ts';
import {
  assertError,
  build,
  createTransaction,
  createUser,
  expectOk,
  firstCategory,
  type TestApp,
} from './helpers/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('first-run setup, and an account over time', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  const usual = [
    { name: '微信', type: 'e_wallet', opening_balance: '320.50' },
    { name: '支付宝', type: 'e_wallet', opening_balance: 88 },
    { name: '银行卡', type: 'debit_card', opening_balance: '15000' },
    { name: 'Cash', type: 'cash', opening_balance: '200' },
  ];

  it('opens the usual accounts with their balances, switches the base currency and sets a repeating budget', async () => {
    const user = await createUser(t.db);
    const c = t.as(user);
    assert.deepEqual(expectOk(await c.get('/api/setup')), { state: 'pending', base_currency: 'CNY' });
    const done = expectOk<Json>(
      await c.post('/api/setup', { base_currency: 'HKD', accounts: usual, monthly_budget: '3000' }),
    );
    assert.deepEqual(done, { state: 'finished', base_currency: 'HKD' });
    const list = expectOk<Json>(await c.get('/api/accounts')).list as Json[];
    // the cash account every new user has takes its balance instead of a second one being opened
    assert.deepEqual(list.map((a) => [a.name, a.currency, a.balance]).sort(), [
      ['Cash', 'HKD', 200],
      ['微信', 'HKD', 320.5],
      ['支付宝', 'HKD', 88],
      ['银行卡', 'HKD', 15000],
    ]);
    const month = todayIn('UTC').slice(0, 7);
    const [y, m] = [Number(month.slice(0, 4)), Number(month.slice(5))];
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    assert.equal(expectOk<Json>(await c.get(`/api/budget?month=${month}`)).amount, 3000);
    assert.equal(expectOk<Json>(await c.get(`/api/budget?month=${next}`)).amount, 3000);
    assertError(await c.post('/api/setup', { accounts: usual }), 409, 40901);
    assert.equal(expectOk<Json>(await c.post('/api/setup/skip')).state, 'finished');
  });

  it('writes nothing when a part is refused', async () => {
    const user = await createUser(t.db);
    const c = t.as(user);
    const cases: [Json, number, number][] = [
      [{ accounts: [usual[0], { ...usual[1], opening_balance: '1.234' }] }, 400, 40001],
      [{ accounts: [usual[0], usual[0]] }, 400, 40001],
      [{ accounts: [{ ...usual[0], name: '  ' }] }, 400, 40001],
      [{ base_currency: 'XYZ' }, 400, 40001],
      [{ accounts: [usual[0]], monthly_budget: -5 }, 400, 40001],
    ];
    for (const [body, status, code] of cases)
      assertError(await c.post('/api/setup', body), status, code, JSON.stringify(body));
    assert.equal((expectOk<Json>(await c.get('/api/accounts')).list as Json[]).length, 1);
    assert.equal(expectOk<Json>(await c.get('/api/setup')).state, 'pending');
    // books with entries keep their base currency, and are not offered the setup
    await createTransaction(t.db, user.id, {
      date: '2026-01-02',
      amountMinor: 100,
      categoryId: (await firstCategory(t.db, user.id, 'expense')).id,
    });
    assert.equal(expectOk<Json>(await c.get('/api/setup')).state, 'not_needed');
    assertError(await c.post('/api/setup', { base_currency: 'USD' }), 422, 42201);
    assert.equal(expectOk<Json>(await c.post('/api/setup/skip')).state, 'skipped');
  });

  it("answers an account's balance at the end of each day it changed, from its opening balance", async () => {
    const user = await createUser(t.db);
    const c = t.as(user);
    const account = expectOk<Json>(
      await c.post('/api/accounts', {
        name: 'Bank',
        type: 'debit_card',
        opening_balance: '1000',
        opening_date: '2020-01-01',
      }),
      201,
    );
    const food = (await firstCategory(t.db, user.id, 'expense')).id;
    const today = todayIn('UTC');
    const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    const row = (date: string, amountMinor: number, kind: 'expense' | 'income' = 'expense') =>
      createTransaction(t.db, user.id, { date, amountMinor, kind, categoryId: food, accountId: account.id });
    await row('2019-06-01', 5000); // before the period: in the first point
    await row(day(10), 2550);
    await row(day(10), 1000, 'income');
    await row(day(3), 12000);
    const s = expectOk<Json>(await c.get(`/api/accounts/${account.id}/balance-series`, { query: { months: 1 } }));
    assert.equal(s.currency, 'CNY');
    const points = s.list.map((p: Json) => [p.date, p.balance]);
    // 1000 - 50 = 950 before; -25.50 + 10 = 934.50; -120 = 814.50
    assert.deepEqual(points.slice(1), [
      [day(10), 934.5],
      [day(3), 814.5],
      [today, 814.5],
    ]);
    assert.equal(points[0][1], 950);
    assert.ok(points[0][0] < day(27));
    const other = await createUser(t.db);
    assertError(await t.as(other).get(`/api/accounts/${account.id}/balance-series`), 404, 40401);
    assertError(await c.get(`/api/accounts/${account.id}/balance-series`, { query: { months: 0 } }), 400, 40001);
  });
});
