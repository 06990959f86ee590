import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, asc, eq } from 'drizzle-orm';
import { accounts, transactions } from '../src/db/schema/index.ts';
import { addDays, todayIn } from '../src/lib/dates.ts';
import { recurringTask } from '../src/modules/recurring/recurring.task.ts';
import {
  aliceAndBob,
  assertError,
  build,
  type Client,
  expectOk,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

/** A 40001 about `field`. */
function refused(res: Parameters<typeof assertError>[0], field: string): void {
  assertError(res, 400, 40001, field);
  assert.ok(res.json().message.startsWith(`${field} `), `${field}: ${res.body}`);
}

const at = (date: string, time = '12:00:00') => new Date(`${date}T${time}Z`);

describe('recurring rules: accounts, transfers and past occurrences', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let asAlice: Client;
  let food: number;
  let cash: number;
  let bank: number;
  let savings: number;
  let usd: number;
  let bobsAccount: number;

  const openAccount = async (as: Client, name: string, currency = 'CNY') =>
    expectOk<{ id: number }>(
      await as.post('/api/accounts', { name, type: 'debit_card', currency, opening_date: '2020-01-01' }),
      201,
    ).id;
  const defaultOf = async (userId: number) =>
    (
      await t.db
        .select()
        .from(accounts)
        .where(and(eq(accounts.userId, userId), eq(accounts.isDefault, true)))
    )[0]!.id;
  const generated = (ruleId: number) =>
    t.db.select().from(transactions).where(eq(transactions.recurringId, ruleId)).orderBy(asc(transactions.date));
  const balance = async (as: Client, id: number) =>
    expectOk<{ balance: number }>(await as.get(`/api/accounts/${id}`)).balance;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice } = await aliceAndBob(t));
    food = (await firstCategory(t.db, alice.id, 'expense')).id;
    cash = await defaultOf(alice.id);
    bank = await openAccount(asAlice, 'Bank');
    savings = await openAccount(asAlice, 'Savings');
    usd = await openAccount(asAlice, 'Dollars', 'USD');
    bobsAccount = await defaultOf(bob.id);
  });
  after(async () => t.close());

  it('books into the default account when none is given, and into the chosen one otherwise', async () => {
    const plain = expectOk<{ id: number; account_id: number; to_account_id: null }>(
      await asAlice.post('/api/recurring', {
        kind: 'expense',
        amount: 12,
        category_id: food,
        frequency: 'monthly',
        start_date: '2030-01-10',
      }),
      201,
    );
    assert.equal(plain.account_id, cash);
    assert.equal(plain.to_account_id, null);
    const chosen = expectOk<{ id: number; account_id: number }>(
      await asAlice.post('/api/recurring', {
        kind: 'expense',
        amount: 30,
        category_id: food,
        frequency: 'monthly',
        start_date: '2030-01-10',
        account_id: bank,
      }),
      201,
    );
    assert.equal(chosen.account_id, bank);
    await recurringTask.run(t.app, at('2030-03-10'));
    assert.deepEqual(
      (await generated(plain.id)).map((r) => [r.date, r.accountId, r.amountMinor]),
      [
        ['2030-01-10', cash, 1200],
        ['2030-02-10', cash, 1200],
        ['2030-03-10', cash, 1200],
      ],
    );
    assert.deepEqual(
      (await generated(chosen.id)).map((r) => r.accountId),
      [bank, bank, bank],
    );
    // moving the rule to another account books the next occurrences there
    const moved = expectOk<{ account_id: number }>(
      await asAlice.put(`/api/recurring/${chosen.id}`, { account_id: savings }),
    );
    assert.equal(moved.account_id, savings);
    await recurringTask.run(t.app, at('2030-04-10'));
    assert.deepEqual(
      (await generated(chosen.id)).map((r) => r.accountId),
      [bank, bank, bank, savings],
    );
    assert.equal((await asAlice.delete(`/api/recurring/${chosen.id}`)).statusCode, 204);
  });

  it("refuses accounts that are not the caller's, and shapes that do not fit the kind", async () => {
    const base = { kind: 'expense', amount: 5, category_id: food, frequency: 'monthly', start_date: '2030-01-01' };
    refused(await asAlice.post('/api/recurring', { ...base, account_id: bobsAccount }), 'account_id');
    refused(await asAlice.post('/api/recurring', { ...base, to_account_id: bank }), 'to_account_id');
    const { category_id: _c, ...noCategory } = base;
    refused(await asAlice.post('/api/recurring', noCategory), 'category_id');
    const transfer = {
      kind: 'transfer',
      amount: 500,
      frequency: 'monthly',
      start_date: '2030-01-01',
      account_id: bank,
    };
    refused(await asAlice.post('/api/recurring', transfer), 'to_account_id');
    refused(await asAlice.post('/api/recurring', { ...transfer, to_account_id: bank }), 'to_account_id');
    refused(await asAlice.post('/api/recurring', { ...transfer, to_account_id: usd }), 'to_account_id');
    refused(await asAlice.post('/api/recurring', { ...transfer, to_account_id: bobsAccount }), 'to_account_id');
    refused(
      await asAlice.post('/api/recurring', { ...transfer, to_account_id: savings, category_id: food }),
      'category_id',
    );
  });

  it('a monthly savings transfer moves money between two accounts and is never an expense', async () => {
    const rule = expectOk<{ id: number; kind: string; category_id: null; account_id: number; to_account_id: number }>(
      await asAlice.post('/api/recurring', {
        kind: 'transfer',
        amount: '500',
        frequency: 'monthly',
        start_date: '2030-06-05',
        account_id: bank,
        to_account_id: savings,
        note: 'save',
      }),
      201,
    );
    assert.deepEqual(
      [rule.kind, rule.category_id, rule.account_id, rule.to_account_id],
      ['transfer', null, bank, savings],
    );
    const bankBefore = await balance(asAlice, bank);
    const savingsBefore = await balance(asAlice, savings);
    await recurringTask.run(t.app, at('2030-08-05'));
    const rows = await generated(rule.id);
    assert.deepEqual(
      rows.map((r) => [r.kind, r.date, r.accountId, r.toAccountId, r.amountMinor, r.toAmount, r.categoryId]),
      ['2030-06-05', '2030-07-05', '2030-08-05'].map((d) => ['transfer', d, bank, savings, 50000, 50000, null]),
    );
    // three moves of 500: the bank gives 1,500 and savings receives them
    assert.equal(await balance(asAlice, bank), bankBefore - 1500);
    assert.equal(await balance(asAlice, savings), savingsBefore + 1500);
    // turning it into an expense needs a category, and drops the receiving account
    refused(await asAlice.put(`/api/recurring/${rule.id}`, { kind: 'expense' }), 'category_id');
    const changed = expectOk<{ kind: string; to_account_id: null; category_id: number }>(
      await asAlice.put(`/api/recurring/${rule.id}`, { kind: 'expense', category_id: food }),
    );
    assert.deepEqual([changed.kind, changed.to_account_id, changed.category_id], ['expense', null, food]);
  });

  it('book_past: false starts at the first occurrence on or after today; absent or true books the past', async () => {
    const today = todayIn('UTC');
    const start = addDays(today, -20);
    const skip = expectOk<{ id: number; next_date: string; start_date: string }>(
      await asAlice.post('/api/recurring', {
        kind: 'expense',
        amount: 3,
        category_id: food,
        frequency: 'weekly',
        start_date: start,
        book_past: false,
      }),
      201,
    );
    // weekly from 20 days ago: 20, 13 and 6 days ago are past; the next one is in 1 day
    assert.equal(skip.start_date, start);
    assert.equal(skip.next_date, addDays(today, 1));
    const book = expectOk<{ id: number; next_date: string }>(
      await asAlice.post('/api/recurring', {
        kind: 'expense',
        amount: 3,
        category_id: food,
        frequency: 'weekly',
        start_date: start,
        book_past: true,
      }),
      201,
    );
    // the past occurrences are booked at once, and the rule says when the next one is
    assert.equal(book.next_date, addDays(start, 21));
    assert.equal((await generated(book.id)).length, 3);
    const old = expectOk<{ id: number; next_date: string }>(
      await asAlice.post('/api/recurring', {
        kind: 'expense',
        amount: 3,
        category_id: food,
        frequency: 'weekly',
        start_date: start,
      }),
      201,
    );
    assert.equal(old.next_date, addDays(start, 21));
    await recurringTask.run(t.app, new Date());
    assert.equal((await generated(skip.id)).length, 0);
    assert.deepEqual(
      (await generated(book.id)).map((r) => r.date),
      [start, addDays(start, 7), addDays(start, 14)],
    );
    // a start today or later is unaffected by book_past
    const future = expectOk<{ next_date: string }>(
      await asAlice.post('/api/recurring', {
        kind: 'expense',
        amount: 3,
        category_id: food,
        frequency: 'weekly',
        start_date: addDays(today, 3),
        book_past: false,
      }),
      201,
    );
    assert.equal(future.next_date, addDays(today, 3));
  });

  it('an account a rule uses cannot be deleted; a merge moves its rules and drops a transfer between the two', async () => {
    const spare = await openAccount(asAlice, 'Spare');
    const other = await openAccount(asAlice, 'Other');
    const r = expectOk<{ id: number }>(
      await asAlice.post('/api/recurring', {
        kind: 'expense',
        amount: 1,
        category_id: food,
        frequency: 'monthly',
        start_date: '2031-01-01',
        account_id: spare,
      }),
      201,
    );
    const tr = expectOk<{ id: number }>(
      await asAlice.post('/api/recurring', {
        kind: 'transfer',
        amount: 1,
        frequency: 'monthly',
        start_date: '2031-01-01',
        account_id: spare,
        to_account_id: other,
      }),
      201,
    );
    assertError(await asAlice.delete(`/api/accounts/${spare}`), 422, 42201);
    expectOk(await asAlice.post(`/api/accounts/${spare}/merge`, { target_id: other }));
    const list = expectOk<{ list: { id: number; account_id: number }[] }>(await asAlice.get('/api/recurring')).list;
    assert.equal(list.find((x) => x.id === r.id)?.account_id, other);
    assert.equal(
      list.find((x) => x.id === tr.id),
      undefined,
    );
  });
});
