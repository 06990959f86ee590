import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accounts } from '../src/db/schema/index.ts';
import {
  aliceAndBob,
  assertError,
  build,
  type Client,
  createCategory,
  createTransaction,
  expectOk,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('budgets per category, with carry-over', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let asAlice: Client;
  let asBob: Client;
  let food: number;
  let trips: number;
  let salary: number;
  let bobFood: number;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice, asBob } = await aliceAndBob(t));
    food = (await firstCategory(t.db, alice.id, 'expense')).id;
    trips = (await createCategory(t.db, alice.id, { name: 'Trips', kind: 'expense', sort: 99 })).id;
    salary = (await firstCategory(t.db, alice.id, 'income')).id;
    bobFood = (await firstCategory(t.db, bob.id, 'expense')).id;
    const cash = (await t.db.select().from(accounts)).find((a) => a.userId === alice.id && a.isDefault)!.id;
    const [bank] = await t.db
      .insert(accounts)
      .values({ userId: alice.id, name: 'Bank', type: 'debit_card', currency: 'CNY', openingDate: '2026-01-01' })
      .returning();
    const [usd] = await t.db
      .insert(accounts)
      .values({ userId: alice.id, name: 'Dollars', type: 'cash', currency: 'USD', openingDate: '2026-01-01' })
      .returning();
    const row = (o: Parameters<typeof createTransaction>[2]) => createTransaction(t.db, alice.id, o);
    await row({ date: '2026-01-10', amountMinor: 3000, categoryId: food });
    await row({ date: '2026-02-10', amountMinor: 5000, categoryId: food });
    await row({ date: '2026-03-02', amountMinor: 10000, categoryId: food });
    await row({ kind: 'income', date: '2026-03-02', amountMinor: 900000, categoryId: salary });
    await row({
      date: '2026-03-05',
      amountMinor: 1000,
      categoryId: trips,
      accountId: usd!.id,
      currency: 'USD',
      baseAmount: 7100,
      rate: '7.1',
    });
    // money moved, never spent
    await row({
      kind: 'transfer',
      date: '2026-03-06',
      amountMinor: 30000,
      accountId: bank!.id,
      toAccountId: cash,
      toAmount: 30000,
      toCurrency: 'CNY',
    });
    await row({ kind: 'adjustment', date: '2026-03-07', amountMinor: -40000, accountId: cash });
  });
  after(async () => t.close());

  it('sets the total and the category lines in one request and answers spent and remaining per category', async () => {
    const b: Json = expectOk(
      await asAlice.put('/api/budgets/2026-03', {
        amount: 1000,
        categories: [
          { category_id: trips, amount: '50.00', carry_over: true },
          { category_id: food, amount: 150 },
        ],
      }),
    );
    assert.deepEqual(
      { ...b, categories: undefined },
      {
        month: '2026-03',
        currency: 'CNY',
        amount: 1000,
        spent: 171,
        remaining: 829,
        carry_over: false,
        repeat: false,
        carried_in: 0,
        categories: undefined,
      },
    );
    assert.deepEqual(b.categories, [
      {
        category_id: food,
        name: b.categories[0].name,
        color: b.categories[0].color,
        amount: 150,
        carry_over: false,
        repeat: false,
        carried_in: 0,
        available: 150,
        spent: 100,
        remaining: 50,
        percent: 66.67,
      },
      {
        category_id: trips,
        name: 'Trips',
        color: '#123456',
        amount: 50,
        carry_over: true,
        repeat: false,
        carried_in: 0,
        available: 50,
        spent: 71,
        remaining: -21,
        percent: 142,
      },
    ]);
    assert.deepEqual(expectOk(await asAlice.get('/api/budgets/2026-03')), b);
    // the older answer keeps its four fields
    assert.deepEqual(expectOk(await asAlice.get('/api/budget?month=2026-03')), {
      month: '2026-03',
      amount: 1000,
      spent: 171,
      remaining: 829,
    });
  });

  it('leaves out what is not given, and replaces the lines when they are', async () => {
    const only: Json = expectOk(await asAlice.put('/api/budgets/2026-03', { amount: 900 }));
    assert.equal(only.amount, 900);
    assert.equal(only.categories.length, 2);
    const fewer: Json = expectOk(
      await asAlice.put('/api/budgets/2026-03', { categories: [{ category_id: food, amount: 120 }] }),
    );
    assert.deepEqual(
      [fewer.amount, fewer.categories.map((c: Json) => [c.category_id, c.amount])],
      [900, [[food, 120]]],
    );
    const none: Json = expectOk(await asAlice.put('/api/budgets/2026-03', { categories: [] }));
    assert.deepEqual([none.amount, none.categories], [900, []]);
    const cleared: Json = expectOk(await asAlice.put('/api/budgets/2026-03', { amount: null }));
    assert.deepEqual([cleared.amount, cleared.remaining, cleared.spent], [null, null, 171]);
  });

  it('refuses bad lines with 40001 and writes nothing of the request', async () => {
    const bad: [string, unknown][] = [
      ['income category', { categories: [{ category_id: salary, amount: 10 }] }],
      ["another user's category", { categories: [{ category_id: bobFood, amount: 10 }] }],
      ['unknown category', { categories: [{ category_id: 2147483000, amount: 10 }] }],
      [
        'twice',
        {
          categories: [
            { category_id: food, amount: 10 },
            { category_id: food, amount: 20 },
          ],
        },
      ],
      ['zero', { categories: [{ category_id: food, amount: 0 }] }],
      ['three decimals', { categories: [{ category_id: food, amount: '1.234' }] }],
      ['negative total', { amount: -5 }],
      ['not a list', { categories: { category_id: food, amount: 1 } }],
      ['no amount', { categories: [{ category_id: food }] }],
      ['carry-over without a total', { carry_over: true, categories: [{ category_id: food, amount: 10 }] }],
    ];
    for (const [label, body] of bad) assertError(await asAlice.put('/api/budgets/2026-05', body), 400, 40001, label);
    const may: Json = expectOk(await asAlice.get('/api/budgets/2026-05'));
    assert.deepEqual([may.amount, may.categories], [null, []], 'nothing written');
    assertError(await asAlice.put('/api/budgets/2026-13', { amount: 1 }), 400, 40001);
    assertError(await asAlice.put('/api/budgets/0000-01', { amount: 1 }), 400, 40001);
    assertError(await asAlice.get('/api/budgets/May'), 400, 40001);
  });

  it('carries what remains into the next month along a chain of carrying months, never a deficit', async () => {
    // food: January 100 (spent 30) carries 70; February 200 + 70 (spent 50) carries 220 into March
    expectOk(
      await asAlice.put('/api/budgets/2026-01', {
        amount: 500,
        carry_over: true,
        categories: [{ category_id: food, amount: 100, carry_over: true }],
      }),
    );
    expectOk(
      await asAlice.put('/api/budgets/2026-02', {
        amount: 500,
        carry_over: true,
        categories: [{ category_id: food, amount: 200, carry_over: true }],
      }),
    );
    const march: Json = expectOk(
      await asAlice.put('/api/budgets/2026-03', {
        amount: 1000,
        categories: [
          { category_id: food, amount: 150 },
          { category_id: trips, amount: 50, carry_over: true },
        ],
      }),
    );
    const foodLine = march.categories.find((c: Json) => c.category_id === food);
    assert.deepEqual(
      [foodLine.carried_in, foodLine.available, foodLine.spent, foodLine.remaining],
      [220, 370, 100, 270],
    );
    // the total: January 500 - 30 = 470 carried; February 500 + 470 - 50 = 920 carried into March
    assert.deepEqual([march.carried_in, march.remaining], [920, 1000 + 920 - 171]);
    assert.deepEqual(expectOk(await asAlice.get('/api/budget?month=2026-03')), {
      month: '2026-03',
      amount: 1000,
      spent: 171,
      remaining: 1749,
    });

    // trips overspent in March (71 of 50): April starts from its own amount
    const april: Json = expectOk(
      await asAlice.put('/api/budgets/2026-04', {
        categories: [
          { category_id: trips, amount: 50 },
          { category_id: food, amount: 10 },
        ],
      }),
    );
    const tripsApril = april.categories.find((c: Json) => c.category_id === trips);
    assert.equal(tripsApril.carried_in, 0);
    // March food does not carry over: nothing comes into April
    assert.equal(april.categories.find((c: Json) => c.category_id === food).carried_in, 0);

    // a gap (no February line) breaks the chain
    expectOk(await asAlice.put('/api/budgets/2026-02', { categories: [] }));
    const again: Json = expectOk(await asAlice.get('/api/budgets/2026-03'));
    assert.equal(again.categories.find((c: Json) => c.category_id === food).carried_in, 0);
    // the flag can be turned off again
    const off: Json = expectOk(await asAlice.put('/api/budgets/2026-02', { carry_over: false }));
    assert.equal(off.carry_over, false);
    assert.equal((expectOk(await asAlice.get('/api/budgets/2026-03')) as Json).carried_in, 0);
  });

  it("keeps each user's budgets to themselves", async () => {
    const mine: Json = expectOk(await asBob.get('/api/budgets/2026-03'));
    assert.deepEqual([mine.amount, mine.spent, mine.categories], [null, 0, []]);
    expectOk(await asBob.put('/api/budgets/2026-03', { categories: [{ category_id: bobFood, amount: 5 }] }));
    const hers: Json = expectOk(await asAlice.get('/api/budgets/2026-03'));
    assert.ok(hers.categories.every((c: Json) => c.category_id !== bobFood));
    assertError(await t.anon.get('/api/budgets/2026-03'), 401, 40101);
  });

  it('drops the lines of a deleted category', async () => {
    const temp = (await createCategory(t.db, alice.id, { name: 'Temp', kind: 'expense' })).id;
    expectOk(await asAlice.put('/api/budgets/2026-06', { categories: [{ category_id: temp, amount: 5 }] }));
    const res = await asAlice.delete(`/api/categories/${temp}`);
    assert.ok(res.statusCode < 300, res.body);
    assert.deepEqual((expectOk(await asAlice.get('/api/budgets/2026-06')) as Json).categories, []);
  });
});
