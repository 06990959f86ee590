import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accounts } from '../src/db/schema/index.ts';
import {
  addMember,
  aliceAndBob,
  assertError,
  build,
  type Client,
  createAccount,
  createCategory,
  createGroup,
  createTransaction,
  expectOk,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Statistics only ever count income and expense: transfers (and their amounts on both sides) and
 * balance adjustments move money between or within accounts and must never appear as spending.
 */
describe('statistics, budgets and list sums with accounts, transfers and adjustments', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let asAlice: Client;
  let asBob: Client;
  let cash: number;
  let bank: number;
  let wallet: number;
  let bobBank: number;
  let food: number;
  let shopping: number;
  let salary: number;
  let groupId: number;
  const M = 'period=month&date=2026-03-15';

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice, asBob } = await aliceAndBob(t));
    food = (await firstCategory(t.db, alice.id, 'expense')).id;
    salary = (await firstCategory(t.db, alice.id, 'income')).id;
    shopping = (await createCategory(t.db, alice.id, { name: 'Trips', kind: 'expense' })).id;
    const own = (await t.db.select().from(accounts)).filter((a) => a.userId === alice.id);
    cash = own.find((a) => a.isDefault)!.id;
    bank = (await createAccount(t.db, alice.id, { name: 'Bank' })).id;
    wallet = (await createAccount(t.db, alice.id, { name: 'Dollars', currency: 'USD', sort: 2 })).id;
    bobBank = (await createAccount(t.db, bob.id, { name: 'Bob bank' })).id;

    const row = (o: Parameters<typeof createTransaction>[2]) => createTransaction(t.db, alice.id, o);
    await row({ date: '2026-03-02', amountMinor: 10000, categoryId: food, accountId: cash });
    await row({ date: '2026-03-03', amountMinor: 5000, categoryId: food, accountId: bank });
    await row({ kind: 'income', date: '2026-03-05', amountMinor: 100000, categoryId: salary, accountId: bank });
    const transfer = await row({
      kind: 'transfer',
      date: '2026-03-06',
      amountMinor: 30000,
      accountId: bank,
      toAccountId: cash,
      toAmount: 30000,
      toCurrency: 'CNY',
    });
    // the transfer's fee is an expense of its own
    await row({ date: '2026-03-06', amountMinor: 200, categoryId: food, accountId: bank, parentId: transfer.id });
    // a very large transfer and adjustments: each would be the largest "expense" or "income" if counted
    await row({
      kind: 'transfer',
      date: '2026-03-08',
      amountMinor: 9999900,
      accountId: cash,
      toAccountId: bank,
      toAmount: 9999900,
      toCurrency: 'CNY',
    });
    await row({ kind: 'adjustment', date: '2026-03-07', amountMinor: -2000, accountId: cash });
    await row({ kind: 'adjustment', date: '2026-03-09', amountMinor: 500000, accountId: bank });
    // 10.00 USD booked at 7.1: 71.00 in the base currency
    await row({
      date: '2026-03-10',
      amountMinor: 1000,
      categoryId: shopping,
      accountId: wallet,
      currency: 'USD',
      baseAmount: 7100,
      rate: '7.1',
    });
    // a transfer in the previous month, for compare
    await row({
      kind: 'transfer',
      date: '2026-02-10',
      amountMinor: 7000,
      accountId: bank,
      toAccountId: cash,
      toAmount: 7000,
      toCurrency: 'CNY',
    });
    await row({ date: '2026-02-10', amountMinor: 1000, categoryId: food, accountId: cash });

    const group = await createGroup(t.db, alice.id);
    groupId = group.id;
    await addMember(t.db, groupId, bob.id);
    await createTransaction(t.db, bob.id, { date: '2026-03-11', amountMinor: 4000, groupId });
    const bobCash = (await t.db.select().from(accounts)).find((a) => a.userId === bob.id && a.isDefault)!.id;
    await createTransaction(t.db, bob.id, {
      kind: 'transfer',
      date: '2026-03-11',
      amountMinor: 8000,
      accountId: bobBank,
      toAccountId: bobCash,
      toAmount: 8000,
      toCurrency: 'CNY',
    });
  });
  after(async () => t.close());

  it('overview, share, trend, max and compare leave transfers and adjustments out and sum base amounts', async () => {
    const s: Json = expectOk(await asAlice.get(`/api/stats/summary?${M}`));
    // 100 + 50 + 2 (fee) + 71 (10 USD at 7.1)
    assert.deepEqual(
      { income: s.overview.income, expense: s.overview.expense, balance: s.overview.balance, count: s.overview.count },
      { income: 1000, expense: 223, balance: 777, count: 5 },
    );
    assert.deepEqual(
      s.category_share.list.map((l: Json) => [l.category_id, l.amount]),
      [
        [food, 152],
        [shopping, 71],
      ],
    );
    assert.equal(s.category_share.total, 223);
    const days = Object.fromEntries(s.trend.list.filter((p: Json) => p.count > 0).map((p: Json) => [p.date, p.amount]));
    assert.deepEqual(days, { '2026-03-02': 100, '2026-03-03': 50, '2026-03-06': 2, '2026-03-10': 71 });
    assert.equal(s.max.transaction.amount, 100);
    assert.equal(s.max.transaction.kind, 'expense');
    assert.deepEqual([s.compare.current.expense, s.compare.previous.expense, s.compare.previous.income], [223, 10, 0]);
    const income: Json = expectOk(await asAlice.get(`/api/stats/max?${M}&type=income`));
    assert.equal(income.transaction.amount, 1000);
  });

  it('budget spending counts only expenses, in the base currency', async () => {
    const b: Json = expectOk(await asAlice.put('/api/budget', { month: '2026-03', amount: 500 }));
    assert.deepEqual([b.spent, b.remaining], [223, 277]);
  });

  it('list sums count income and expense only (in the base currency), while transfers stay listed', async () => {
    const l: Json = expectOk(
      await asAlice.get('/api/transactions?startDate=2026-03-01&endDate=2026-03-31&pageSize=100'),
    );
    assert.deepEqual(l.sums, { income: 1000, expense: 223, balance: 777, count: 9 });
    assert.ok(l.list.some((r: Json) => r.kind === 'transfer' && r.category === null));
    assert.ok(l.list.some((r: Json) => r.kind === 'adjustment'));
  });

  it("filters by account (the caller's own: another user's is 40001, like any reference)", async () => {
    const b: Json = expectOk(await asAlice.get(`/api/stats/overview?${M}&account_id=${bank}`));
    assert.deepEqual([b.income, b.expense, b.count], [1000, 52, 3]);
    const w: Json = expectOk(await asAlice.get(`/api/stats/category-share?${M}&account_id=${wallet}`));
    assert.deepEqual(
      w.list.map((l: Json) => [l.category_id, l.amount]),
      [[shopping, 71]],
    );
    const c: Json = expectOk(await asAlice.get(`/api/stats/summary?${M}&account_id=${cash}`));
    assert.deepEqual([c.overview.expense, c.overview.income, c.max.transaction.amount], [100, 0, 100]);
    assertError(await asAlice.get(`/api/stats/overview?${M}&account_id=${bobBank}`), 400, 40001);
    assertError(await asAlice.get(`/api/stats/overview?${M}&account_id=2147483000`), 400, 40001);
    assertError(await asAlice.get(`/api/stats/overview?${M}&account_id=${bank}&group_id=${groupId}`), 400, 40001);
    assertError(await asAlice.get(`/api/stats/overview?${M}&account_id=abc`), 400, 40001);
  });

  it('breaks a period down by account', async () => {
    const r: Json = expectOk(await asAlice.get(`/api/stats/accounts?${M}`));
    assert.equal(r.base_currency, 'CNY');
    assert.deepEqual([r.income, r.expense], [1000, 223]);
    assert.deepEqual(
      r.list.map((a: Json) => [a.account_id, a.currency, a.income, a.expense, a.balance, a.count]),
      [
        [cash, 'CNY', 0, 100, -100, 1],
        [bank, 'CNY', 1000, 52, 948, 3],
        [wallet, 'USD', 0, 71, -71, 1],
      ],
    );
    assert.equal(
      r.list.reduce((s: number, a: Json) => s + a.expense_percent, 0),
      100,
    );
    const empty: Json = expectOk(await asAlice.get('/api/stats/accounts?period=month&date=2020-01-01'));
    assert.deepEqual(empty.list, []);
    assertError(await asAlice.get(`/api/stats/accounts?${M}&group_id=${groupId}`), 400, 40001);
    // bob sees only his own accounts
    const bobs: Json = expectOk(await asBob.get(`/api/stats/accounts?${M}`));
    assert.ok(bobs.list.every((a: Json) => a.account_id !== bank && a.account_id !== cash));
  });

  it('filters a group view by member, as the list does', async () => {
    const all: Json = expectOk(await asAlice.get(`/api/stats/overview?${M}&group_id=${groupId}`));
    assert.equal(all.expense, 40);
    const bobs: Json = expectOk(await asAlice.get(`/api/stats/overview?${M}&group_id=${groupId}&user_id=${bob.id}`));
    assert.equal(bobs.expense, 40);
    const alices: Json = expectOk(
      await asAlice.get(`/api/stats/overview?${M}&group_id=${groupId}&user_id=${alice.id}`),
    );
    assert.equal(alices.expense, 0);
    assertError(await asAlice.get(`/api/stats/overview?${M}&user_id=${bob.id}`), 400, 40001);
  });
});
