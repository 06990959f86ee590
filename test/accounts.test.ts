import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { transactions, users } from '../src/db/schema/index.ts';
import { createAccountService } from '../src/modules/accounts/accounts.service.ts';
import * as accountsRepo from '../src/modules/accounts/accounts.repo.ts';
import { systemClock } from '../src/lib/clock.ts';
import {
  assertError,
  build,
  type Client,
  createUser,
  expectOk,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Account = {
  id: number;
  name: string;
  type: string;
  currency: string;
  opening_balance: number;
  opening_date: string;
  balance: number;
  balance_in_base: number | null;
  archived: boolean;
  is_default: boolean;
  sort: number;
  color: string;
  icon: string;
  note: string;
  created_at: string;
};
type Tx = {
  id: number;
  kind: string;
  amount: number;
  currency: string;
  account_id: number | null;
  to_account_id: number | null;
  to_amount: number | null;
  rate: string | null;
  parent_id: number | null;
  category_id: number | null;
};

const ACCOUNT_KEYS = [
  'id',
  'name',
  'type',
  'currency',
  'opening_balance',
  'opening_date',
  'balance',
  'balance_in_base',
  'archived',
  'is_default',
  'sort',
  'color',
  'icon',
  'note',
  'created_at',
].sort();

describe('money accounts', () => {
  let t: TestApp;
  let ann: UserRow;
  let bob: UserRow;
  let a: Client;
  let b: Client;
  let food: number;
  let salary: number;
  let cash: Account;

  const list = async (c: Client, q = '') =>
    expectOk<{ list: Account[]; base_currency: string; net_worth: number; missing_rates: string[] }>(
      await c.get(`/api/accounts${q}`),
    );
  const open = async (c: Client, body: Record<string, unknown>) =>
    expectOk<Account>(await c.post('/api/accounts', { type: 'debit_card', ...body }), 201);
  const record = async (c: Client, body: Record<string, unknown>) =>
    expectOk<Tx>(await c.post('/api/transactions', { date: '2026-03-01', ...body }), 201);
  const balanceOf = async (c: Client, id: number, date?: string) =>
    expectOk<Account>(await c.get(`/api/accounts/${id}${date ? `?date=${date}` : ''}`)).balance;

  before(async () => {
    t = await build();
    ann = await createUser(t.db, { nickname: 'Ann' });
    bob = await createUser(t.db, { nickname: 'Bob' });
    a = t.as(ann);
    b = t.as(bob);
    food = (await firstCategory(t.db, ann.id, 'expense')).id;
    salary = (await firstCategory(t.db, ann.id, 'income')).id;
    cash = (await list(a)).list[0]!;
  });
  after(async () => t.close());

  describe('accounts', () => {
    it('lists the default cash account with balances, base currency and net worth', async () => {
      const res = await list(a);
      assert.equal(res.base_currency, 'CNY');
      assert.equal(res.list.length, 1);
      assert.deepEqual(Object.keys(res.list[0]!).sort(), ACCOUNT_KEYS);
      assert.equal(res.list[0]!.is_default, true);
      assert.equal(res.list[0]!.currency, 'CNY');
      assert.equal(res.net_worth, 0);
      assert.deepEqual(res.missing_rates, []);
    });

    it('opens, changes and reorders accounts; validates with 40001', async () => {
      const card = await open(a, {
        name: ' Visa ',
        type: 'credit_card',
        opening_balance: '-120.50',
        opening_date: '2026-01-01',
        color: '#aabbcc',
        note: 'blue card',
      });
      assert.equal(card.name, 'Visa');
      assert.equal(card.opening_balance, -120.5);
      assert.equal(card.balance, -120.5);
      assert.equal(card.color, '#AABBCC');
      assert.equal(card.currency, 'CNY');
      assert.equal(card.is_default, false);
      for (const bad of [
        { name: '' },
        { name: 'x', type: 'piggy' },
        { name: 'x', currency: 'XYZ' },
        { name: 'x', currency: 'XAU' },
        { name: 'x', opening_balance: '1.234' },
        { name: 'x', currency: 'JPY', opening_balance: '1.5' },
        { name: 'x', opening_date: '2026-02-30' },
        { name: 'x', color: 'red' },
      ]) {
        assertError(await a.post('/api/accounts', { type: 'cash', ...bad }), 400, 40001, JSON.stringify(bad));
      }
      const upd = expectOk<Account>(
        await a.put(`/api/accounts/${card.id}`, { name: 'Visa Gold', opening_balance: -100 }),
      );
      assert.equal(upd.name, 'Visa Gold');
      assert.equal(upd.balance, -100);
      const ids = (await list(a, '?include_archived=true')).list.map((x) => x.id);
      assert.equal((await a.put('/api/accounts/sort', { ids: [...ids].reverse() })).statusCode, 204);
      assert.deepEqual(
        (await list(a, '?include_archived=true')).list.map((x) => x.id),
        [...ids].reverse(),
      );
      assertError(await a.put('/api/accounts/sort', { ids: ids.slice(1) }), 400, 40001, 'incomplete');
      assertError(await a.put('/api/accounts/sort', { ids: [ids[0], ids[0]] }), 400, 40001, 'repeated');
      await a.put('/api/accounts/sort', { ids });
    });

    it("answers 40401 for another user's account on every route, and 40001 for it in a body", async () => {
      const bobs = (await list(b)).list[0]!;
      assertError(await a.get(`/api/accounts/${bobs.id}`), 404, 40401, 'get');
      assertError(await a.put(`/api/accounts/${bobs.id}`, { name: 'mine' }), 404, 40401, 'put');
      assertError(await a.delete(`/api/accounts/${bobs.id}`), 404, 40401, 'delete');
      assertError(await a.get(`/api/accounts/${bobs.id}/ledger`), 404, 40401, 'ledger');
      assertError(await a.post(`/api/accounts/${bobs.id}/reconcile`, { balance: 1 }), 404, 40401, 'reconcile');
      assertError(await a.post(`/api/accounts/${bobs.id}/merge`, { target_id: cash.id }), 404, 40401, 'merge');
      assertError(await a.post(`/api/accounts/${cash.id}/merge`, { target_id: bobs.id }), 400, 40001, 'merge target');
      assertError(
        await a.post('/api/transactions', {
          kind: 'expense',
          amount: 1,
          category_id: food,
          account_id: bobs.id,
          date: '2026-03-01',
        }),
        400,
        40001,
        'tx account',
      );
      assertError(
        await a.post('/api/transactions', { kind: 'transfer', amount: 1, to_account_id: bobs.id, date: '2026-03-01' }),
        400,
        40001,
        'transfer target',
      );
      assert.equal((await list(b)).list[0]!.name, bobs.name);
    });

    it('keeps exactly one default account, movable; the default cannot be archived or deleted', async () => {
      const wallet = await open(a, { name: 'Alipay', type: 'e_wallet' });
      const moved = expectOk<Account>(await a.put(`/api/accounts/${wallet.id}`, { is_default: true }));
      assert.equal(moved.is_default, true);
      let all = (await list(a, '?include_archived=true')).list;
      assert.deepEqual(
        all.filter((x) => x.is_default).map((x) => x.id),
        [wallet.id],
      );
      // a row without account_id goes to the default account
      const tx = await record(a, { kind: 'expense', amount: 3, category_id: food });
      assert.equal(tx.account_id, wallet.id);
      assertError(await a.put(`/api/accounts/${wallet.id}`, { archived: true }), 422, 42201, 'archive default');
      assertError(await a.delete(`/api/accounts/${wallet.id}`), 422, 42201, 'delete default');
      expectOk(await a.put(`/api/accounts/${cash.id}`, { is_default: true }));
      all = (await list(a, '?include_archived=true')).list;
      assert.deepEqual(
        all.filter((x) => x.is_default).map((x) => x.id),
        [cash.id],
      );
      const created = await open(a, { name: 'New default', is_default: true });
      assert.equal(created.is_default, true);
      expectOk(await a.put(`/api/accounts/${cash.id}`, { is_default: true }));
      assert.equal((await a.delete(`/api/accounts/${created.id}`)).statusCode, 204);
      assert.equal((await a.delete(`/api/transactions/${tx.id}`)).statusCode, 204);
      assert.equal((await a.delete(`/api/accounts/${wallet.id}`)).statusCode, 204);
    });

    it('refuses to delete an account with transactions (42201); archived accounts leave the picker list but stay in history and net worth', async () => {
      const old = await open(a, { name: 'Old bank', opening_balance: 50 });
      const tx = await record(a, { kind: 'income', amount: 25, category_id: salary, account_id: old.id });
      assertError(await a.delete(`/api/accounts/${old.id}`), 422, 42201, 'with rows');
      const before = await list(a);
      expectOk(await a.put(`/api/accounts/${old.id}`, { archived: true }));
      const after = await list(a);
      assert.ok(!after.list.some((x) => x.id === old.id), 'hidden from the list');
      assert.equal(after.net_worth, before.net_worth, 'still in net worth');
      const withArchived = await list(a, '?include_archived=true');
      assert.equal(withArchived.list.find((x) => x.id === old.id)?.balance, 75);
      expectOk(await a.get(`/api/transactions/${tx.id}`));
      const ledger = expectOk<{ list: Tx[] }>(await a.get(`/api/accounts/${old.id}/ledger`));
      assert.deepEqual(
        ledger.list.map((x) => x.id),
        [tx.id],
      );
      // no new rows into an archived account
      assertError(
        await a.post('/api/transactions', {
          kind: 'expense',
          amount: 1,
          category_id: food,
          account_id: old.id,
          date: '2026-03-01',
        }),
        400,
        40001,
        'archived',
      );
      expectOk(await a.put(`/api/accounts/${old.id}`, { archived: false }));
    });

    it('changes the currency only of an account without transactions', async () => {
      const acc = await open(a, { name: 'Empty' });
      const usd = expectOk<Account>(await a.put(`/api/accounts/${acc.id}`, { currency: 'USD' }));
      assert.equal(usd.currency, 'USD');
      expectOk(await a.put('/api/rates', { rates: [{ currency: 'USD', date: '2026-01-01', rate: '7' }] }));
      await record(a, { kind: 'expense', amount: 1, category_id: food, account_id: acc.id });
      assertError(await a.put(`/api/accounts/${acc.id}`, { currency: 'EUR' }), 422, 42201, 'with rows');
    });
  });

  describe('balances and ledger', () => {
    it('computes balances from minor units: opening + incomes - expenses - transfers out + transfers in, also on a date', async () => {
      const bank = await open(a, { name: 'Bank', opening_balance: 1000, opening_date: '2026-01-01' });
      const wallet = await open(a, { name: 'WeChat', type: 'e_wallet', opening_date: '2026-01-01' });
      await record(a, { kind: 'income', amount: '0.10', category_id: salary, account_id: bank.id, date: '2026-02-01' });
      await record(a, { kind: 'expense', amount: '0.20', category_id: food, account_id: bank.id, date: '2026-02-02' });
      await record(a, {
        kind: 'transfer',
        amount: '300.30',
        account_id: bank.id,
        to_account_id: wallet.id,
        date: '2026-02-03',
      });
      await record(a, { kind: 'expense', amount: '0.1', category_id: food, account_id: wallet.id, date: '2026-02-04' });
      assert.equal(await balanceOf(a, bank.id), 699.6);
      assert.equal(await balanceOf(a, wallet.id), 300.2);
      assert.equal(await balanceOf(a, bank.id, '2026-02-02'), 999.9);
      assert.equal(await balanceOf(a, bank.id, '2025-12-31'), 0, 'before the opening date');
      assert.equal(await balanceOf(a, wallet.id, '2026-02-03'), 300.3);

      const page1 = expectOk<{ list: (Tx & { delta: number; balance: number })[]; total: number; account: Account }>(
        await a.get(`/api/accounts/${bank.id}/ledger?pageSize=2`),
      );
      assert.equal(page1.total, 3);
      assert.deepEqual(
        page1.list.map((x) => [x.kind, x.delta, x.balance]),
        [
          ['transfer', -300.3, 699.6],
          ['expense', -0.2, 999.9],
        ],
      );
      const page2 = expectOk<{ list: (Tx & { delta: number; balance: number })[] }>(
        await a.get(`/api/accounts/${bank.id}/ledger?pageSize=2&page=2`),
      );
      assert.deepEqual(
        page2.list.map((x) => [x.kind, x.delta, x.balance]),
        [['income', 0.1, 1000.1]],
      );
      const inWallet = expectOk<{ list: (Tx & { delta: number })[] }>(await a.get(`/api/accounts/${wallet.id}/ledger`));
      assert.deepEqual(
        inWallet.list.map((x) => [x.kind, x.delta]),
        [
          ['expense', -0.1],
          ['transfer', 300.3],
        ],
      );
    });

    it('reconciles: the difference to the bank is booked as an adjustment that counts in the balance only', async () => {
      const acc = await open(a, { name: 'Reconciled', opening_balance: 100, opening_date: '2026-01-01' });
      await record(a, { kind: 'expense', amount: 30, category_id: food, account_id: acc.id, date: '2026-03-05' });
      const sumsBefore = expectOk<{ sums: { income: number; expense: number } }>(
        await a.get('/api/transactions?pageSize=1'),
      ).sums;
      const res = expectOk<{ account: Account; adjustment: Tx | null }>(
        await a.post(`/api/accounts/${acc.id}/reconcile`, { balance: '65.50', date: '2026-03-10', note: 'statement' }),
      );
      assert.equal(res.account.balance, 65.5);
      assert.equal(res.adjustment?.kind, 'adjustment');
      assert.equal(res.adjustment?.amount, -4.5);
      assert.equal(res.adjustment?.category_id, null);
      const same = expectOk<{ adjustment: Tx | null }>(
        await a.post(`/api/accounts/${acc.id}/reconcile`, { balance: 65.5, date: '2026-03-10' }),
      );
      assert.equal(same.adjustment, null);
      const up = expectOk<{ account: Account; adjustment: Tx | null }>(
        await a.post(`/api/accounts/${acc.id}/reconcile`, { balance: 70, date: '2026-03-11' }),
      );
      assert.equal(up.adjustment?.amount, 4.5);
      assert.equal(up.account.balance, 70);
      const sumsAfter = expectOk<{ sums: { income: number; expense: number } }>(
        await a.get('/api/transactions?pageSize=1'),
      ).sums;
      assert.deepEqual(
        [sumsAfter.income, sumsAfter.expense],
        [sumsBefore.income, sumsBefore.expense],
        'adjustments are never income or expense',
      );
      assertError(await a.post(`/api/accounts/${acc.id}/reconcile`, { balance: '1.234' }), 400, 40001, 'decimals');
      assertError(
        await a.post('/api/transactions', { kind: 'adjustment', amount: 1, date: '2026-03-01' }),
        400,
        40001,
        'no adjustment by hand',
      );
      // an adjustment can be deleted like any row
      assert.equal((await a.delete(`/api/transactions/${up.adjustment!.id}`)).statusCode, 204);
      assert.equal(await balanceOf(a, acc.id), 65.5);
    });

    it('answers the monthly net worth history', async () => {
      const u = await createUser(t.db, { nickname: 'Hist' });
      const c = t.as(u);
      const def = (await list(c)).list[0]!;
      const cat = (await firstCategory(t.db, u.id, 'expense')).id;
      const today = new Date().toISOString().slice(0, 10);
      const thisMonth = today.slice(0, 7);
      await c.put(`/api/accounts/${def.id}`, { opening_balance: 100, opening_date: '2020-01-01' });
      await record(c, { kind: 'expense', amount: 10, category_id: cat, date: `${thisMonth}-01` });
      const h = expectOk<{
        base_currency: string;
        list: { month: string; net_worth: number; missing_rates: string[] }[];
      }>(await c.get('/api/accounts/net-worth?months=3'));
      assert.equal(h.base_currency, 'CNY');
      assert.equal(h.list.length, 3);
      assert.equal(h.list[2]!.month, thisMonth);
      assert.equal(h.list[2]!.net_worth, 90);
      assert.equal(h.list[1]!.net_worth, 100);
      assertError(await c.get('/api/accounts/net-worth?months=0'), 400, 40001, 'months');
    });
  });

  describe('transfers', () => {
    let usd: Account;
    let jpy: Account;
    let kwd: Account;
    let card: Account;
    before(async () => {
      expectOk(
        await a.put('/api/rates', {
          rates: [
            { currency: 'USD', date: '2026-01-01', rate: '7.1' },
            { currency: 'USD', date: '2026-03-01', rate: '7.2' },
            { currency: 'JPY', date: '2026-01-01', rate: '0.048' },
            { currency: 'KWD', date: '2026-01-01', rate: '23.456' },
          ],
        }),
      );
      usd = await open(a, { name: 'US bank', currency: 'USD', opening_date: '2026-01-01' });
      jpy = await open(a, { name: 'Yen purse', type: 'cash', currency: 'JPY', opening_date: '2026-01-01' });
      kwd = await open(a, { name: 'Kuwait', currency: 'KWD', opening_date: '2026-01-01' });
      card = await open(a, { name: 'Credit card', type: 'credit_card', opening_date: '2026-01-01' });
    });

    it("reads amounts with the decimals of the account's currency (JPY 0, KWD 3, CNY/USD 2): more is 40001", async () => {
      const yen = await record(a, { kind: 'expense', amount: 1500, category_id: food, account_id: jpy.id });
      assert.equal(yen.amount, 1500);
      assert.equal(yen.currency, 'JPY');
      assert.equal(yen.rate, '0.048');
      const [row] = await t.db.select().from(transactions).where(eq(transactions.id, yen.id));
      assert.equal(row!.amountMinor, 1500);
      assert.equal(row!.baseAmount, 7200, '1500 JPY x 0.048 = 72.00 CNY');
      assertError(
        await a.post('/api/transactions', {
          kind: 'expense',
          amount: '1.5',
          category_id: food,
          account_id: jpy.id,
          date: '2026-03-01',
        }),
        400,
        40001,
        'JPY decimals',
      );
      const dinar = await record(a, { kind: 'expense', amount: '1.235', category_id: food, account_id: kwd.id });
      const [k] = await t.db.select().from(transactions).where(eq(transactions.id, dinar.id));
      assert.equal(k!.amountMinor, 1235);
      assert.equal(k!.baseAmount, 2897, '1.235 x 23.456 = 28.96816 -> 28.97');
      assertError(
        await a.post('/api/transactions', {
          kind: 'expense',
          amount: '1.2345',
          category_id: food,
          account_id: kwd.id,
          date: '2026-03-01',
        }),
        400,
        40001,
        'KWD decimals',
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'expense',
          amount: '1.234',
          category_id: food,
          account_id: usd.id,
          date: '2026-03-01',
        }),
        400,
        40001,
        'USD decimals',
      );
      assertError(
        await a.post('/api/transactions', { kind: 'expense', amount: '1.234', category_id: food, date: '2026-03-01' }),
        400,
        40001,
        'CNY decimals',
      );
      // a manual rate on the row; the base currency ignores it
      const manual = await record(a, {
        kind: 'expense',
        amount: '10',
        category_id: food,
        account_id: usd.id,
        rate: '6.9999',
      });
      assert.equal(manual.rate, '6.9999');
      const [m] = await t.db.select().from(transactions).where(eq(transactions.id, manual.id));
      assert.equal(m!.baseAmount, 7000);
      assertError(
        await a.post('/api/transactions', {
          kind: 'expense',
          amount: 1,
          category_id: food,
          account_id: usd.id,
          date: '2026-03-01',
          rate: '-1',
        }),
        400,
        40001,
        'bad rate',
      );
      const plain = await record(a, { kind: 'expense', amount: 1, category_id: food, rate: '3' });
      assert.equal(plain.rate, null);
    });

    it('keeps a booked base amount when rates change later; a foreign row without any rate is 40001', async () => {
      const row = await record(a, {
        kind: 'expense',
        amount: 100,
        category_id: food,
        account_id: usd.id,
        date: '2026-03-02',
      });
      expectOk(await a.put('/api/rates', { rates: [{ currency: 'USD', date: '2026-03-02', rate: '8' }] }));
      const [r] = await t.db.select().from(transactions).where(eq(transactions.id, row.id));
      assert.equal(r!.baseAmount, 72000);
      assert.equal(r!.rate, '7.2');
      const eur = await open(a, { name: 'Euro', currency: 'EUR' });
      const res = await a.post('/api/transactions', {
        kind: 'expense',
        amount: 1,
        category_id: food,
        account_id: eur.id,
        date: '2026-03-01',
      });
      assertError(res, 400, 40001, 'no rate');
      assert.equal(res.json().details[0].field, 'rate');
      // the missing rate is named, for a client to word it and offer to add it
      assert.deepEqual(res.json().missing_rate, { currency: 'EUR', base: 'CNY', date: '2026-03-01' });
      // once added, the same row is booked at it
      expectOk(await a.put('/api/rates', { rates: [{ currency: 'EUR', date: '2026-02-28', rate: '7.5' }] }));
      const booked = await record(a, {
        kind: 'expense',
        amount: 2,
        category_id: food,
        account_id: eur.id,
        date: '2026-03-01',
      });
      const [b] = await t.db.select().from(transactions).where(eq(transactions.id, booked.id));
      assert.equal(b!.baseAmount, 1500);
    });

    it('records transfers: equal amounts in one currency, both amounts across currencies, an optional fee as an expense that goes with it', async () => {
      const bank = await open(a, { name: 'Main bank', opening_balance: 5000, opening_date: '2026-01-01' });
      // a credit-card repayment is a transfer
      const repay = await record(a, {
        kind: 'transfer',
        amount: 500,
        account_id: bank.id,
        to_account_id: card.id,
        note: 'repayment',
      });
      assert.deepEqual(
        [repay.kind, repay.account_id, repay.to_account_id, repay.to_amount, repay.currency, repay.category_id],
        ['transfer', bank.id, card.id, 500, 'CNY', null],
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'transfer',
          amount: 5,
          account_id: bank.id,
          to_account_id: card.id,
          to_amount: 6,
          date: '2026-03-01',
        }),
        400,
        40001,
        'unequal same currency',
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'transfer',
          amount: 5,
          account_id: bank.id,
          to_account_id: usd.id,
          date: '2026-03-01',
        }),
        400,
        40001,
        'to_amount missing',
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'transfer',
          amount: 5,
          account_id: bank.id,
          to_account_id: bank.id,
          date: '2026-03-01',
        }),
        400,
        40001,
        'same account',
      );
      assertError(
        await a.post('/api/transactions', { kind: 'transfer', amount: 5, account_id: bank.id, date: '2026-03-01' }),
        400,
        40001,
        'no target',
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'transfer',
          amount: 5,
          account_id: bank.id,
          to_account_id: card.id,
          category_id: food,
          date: '2026-03-01',
        }),
        400,
        40001,
        'category',
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'transfer',
          amount: 5,
          account_id: bank.id,
          to_account_id: card.id,
          fee: 1,
          date: '2026-03-01',
        }),
        400,
        40001,
        'fee without category',
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'transfer',
          amount: 5,
          account_id: bank.id,
          to_account_id: card.id,
          fee: 1,
          fee_category_id: salary,
          date: '2026-03-01',
        }),
        400,
        40001,
        'income fee',
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'expense',
          amount: 5,
          category_id: food,
          to_account_id: card.id,
          date: '2026-03-01',
        }),
        400,
        40001,
        'to_account on expense',
      );
      assertError(
        await a.post('/api/transactions', {
          kind: 'transfer',
          amount: 5,
          account_id: bank.id,
          to_account_id: jpy.id,
          to_amount: '10.5',
          date: '2026-03-01',
        }),
        400,
        40001,
        'yen decimals',
      );

      const usdBefore = await balanceOf(a, usd.id);
      const fx = await record(a, {
        kind: 'transfer',
        amount: 720,
        account_id: bank.id,
        to_account_id: usd.id,
        to_amount: '100.00',
        fee: '15.5',
        fee_category_id: food,
        note: 'wire',
      });
      assert.equal(fx.to_amount, 100);
      const [fee] = await t.db.select().from(transactions).where(eq(transactions.parentId, fx.id));
      assert.ok(fee);
      assert.deepEqual(
        [fee.kind, fee.amountMinor, fee.accountId, fee.categoryId, fee.date],
        ['expense', 1550, bank.id, food, '2026-03-01'],
      );
      assert.equal(await balanceOf(a, bank.id), 5000 - 500 - 720 - 15.5);
      assert.equal(await balanceOf(a, card.id), 500);
      assert.equal(await balanceOf(a, usd.id), usdBefore + 100);

      // editing: the fee follows the date and can change or go
      const moved = expectOk<Tx>(await a.put(`/api/transactions/${fx.id}`, { date: '2026-03-04', fee: 20 }));
      assert.equal(moved.to_amount, 100);
      const [fee2] = await t.db.select().from(transactions).where(eq(transactions.parentId, fx.id));
      assert.deepEqual([fee2!.id, fee2!.amountMinor, fee2!.date], [fee.id, 2000, '2026-03-04']);
      expectOk(await a.put(`/api/transactions/${fx.id}`, { to_amount: '99.5' }));
      assert.equal(await balanceOf(a, usd.id), usdBefore + 99.5);
      assertError(
        await a.put(`/api/transactions/${fx.id}`, { to_account_id: card.id, to_amount: 1 }),
        400,
        40001,
        'same currency needs equal amount',
      );
      expectOk(await a.put(`/api/transactions/${fx.id}`, { to_account_id: card.id, to_amount: 720 }));
      assert.equal(await balanceOf(a, usd.id), usdBefore);
      assert.equal(await balanceOf(a, card.id), 1220);
      assertError(await a.put(`/api/transactions/${fx.id}`, { kind: 'expense' }), 400, 40001, 'kind');
      expectOk(await a.put(`/api/transactions/${fx.id}`, { fee: null }));
      assert.equal((await t.db.select().from(transactions).where(eq(transactions.parentId, fx.id))).length, 0);
      expectOk(await a.put(`/api/transactions/${fx.id}`, { fee: 3, fee_category_id: food }));
      assert.equal((await t.db.select().from(transactions).where(eq(transactions.parentId, fx.id))).length, 1);
      assert.equal((await a.delete(`/api/transactions/${fx.id}`)).statusCode, 204);
      assert.equal(
        (await t.db.select().from(transactions).where(eq(transactions.parentId, fx.id))).length,
        0,
        'the fee went with its transfer',
      );
      assert.equal(await balanceOf(a, bank.id), 4500);
    });

    it('transfers never count in the income and expense totals', async () => {
      const u = await createUser(t.db, { nickname: 'Totals' });
      const c = t.as(u);
      const def = (await list(c)).list[0]!;
      const other = await open(c, { name: 'Other' });
      const cat = (await firstCategory(t.db, u.id, 'expense')).id;
      await record(c, { kind: 'expense', amount: 12, category_id: cat });
      await record(c, { kind: 'transfer', amount: 100, account_id: def.id, to_account_id: other.id });
      const res = expectOk<{ total: number; sums: { income: number; expense: number } }>(
        await c.get('/api/transactions'),
      );
      assert.equal(res.total, 2);
      assert.deepEqual(res.sums, { income: 0, expense: 12, balance: -12, count: 2 });
      const only = expectOk<{ total: number }>(await c.get('/api/transactions?kind=transfer'));
      assert.equal(only.total, 1);
    });

    it('moves a row to another account, rebooking its currency and base amount', async () => {
      const row = await record(a, { kind: 'expense', amount: '50.00', category_id: food, date: '2026-03-03' });
      assertError(await a.put(`/api/transactions/${row.id}`, { account_id: usd.id }), 400, 40001, 'amount needed');
      const moved = expectOk<Tx>(await a.put(`/api/transactions/${row.id}`, { account_id: usd.id, amount: '7.25' }));
      // at the latest USD rate on or before its date (8 since 2026-03-02)
      assert.deepEqual([moved.account_id, moved.currency, moved.amount, moved.rate], [usd.id, 'USD', 7.25, '8']);
      const [r] = await t.db.select().from(transactions).where(eq(transactions.id, row.id));
      assert.equal(r!.baseAmount, 5800);
      // a new amount in the same account keeps the booked rate
      expectOk(await a.put(`/api/transactions/${row.id}`, { amount: 10 }));
      const [r2] = await t.db.select().from(transactions).where(eq(transactions.id, row.id));
      assert.deepEqual([r2!.amountMinor, r2!.baseAmount, r2!.rate], [1000, 8000, '8']);
      // and back into the base currency
      const back = expectOk<Tx>(await a.put(`/api/transactions/${row.id}`, { account_id: cash.id, amount: 72 }));
      assert.deepEqual([back.currency, back.rate, back.amount], ['CNY', null, 72]);
      assertError(
        await a.put(`/api/transactions/${row.id}`, { account_id: jpy.id, amount: '1.5' }),
        400,
        40001,
        'yen decimals on edit',
      );
    });
  });

  describe('merge', () => {
    it('merges into an account of the same currency in one transaction; balances add up, transfers between them go', async () => {
      const u = await createUser(t.db, { nickname: 'Merger' });
      const c = t.as(u);
      const cat = (await firstCategory(t.db, u.id, 'expense')).id;
      const def = (await list(c)).list[0]!;
      const x = await open(c, { name: 'X', opening_balance: 10, opening_date: '2025-06-01' });
      const y = await open(c, { name: 'Y', opening_balance: 20, opening_date: '2026-01-01' });
      const usdAcc = await open(c, { name: 'USD', currency: 'USD' });
      await record(c, { kind: 'expense', amount: 1, category_id: cat, account_id: x.id });
      await record(c, {
        kind: 'transfer',
        amount: 5,
        account_id: x.id,
        to_account_id: y.id,
        fee: 1,
        fee_category_id: cat,
      });
      await record(c, { kind: 'transfer', amount: 2, account_id: def.id, to_account_id: x.id });
      const worthBefore = (await list(c)).net_worth;
      const xBefore = await balanceOf(c, x.id);
      const sum = xBefore + (await balanceOf(c, y.id));
      assertError(await c.post(`/api/accounts/${x.id}/merge`, { target_id: usdAcc.id }), 422, 42201, 'other currency');
      assertError(await c.post(`/api/accounts/${x.id}/merge`, { target_id: x.id }), 400, 40001, 'itself');

      // a failure half-way leaves everything as it was
      const failing = createAccountService({
        db: t.db,
        clock: systemClock,
        config: { appTimezone: 'UTC' },
        repo: {
          ...accountsRepo,
          deleteAccount: async () => {
            throw new Error('disk full');
          },
        },
      });
      await assert.rejects(failing.merge(u.id, x.id, y.id), /disk full/);
      assert.equal(await balanceOf(c, x.id), xBefore);
      assert.equal((await t.db.select().from(transactions).where(eq(transactions.accountId, x.id))).length, 3);

      const res = expectOk<{ moved: number; removed_transfers: number; account: Account }>(
        await c.post(`/api/accounts/${x.id}/merge`, { target_id: y.id }),
      );
      assert.equal(res.removed_transfers, 1);
      assert.equal(res.account.balance, sum);
      assert.equal(res.account.opening_date, '2025-06-01');
      assert.equal(res.account.opening_balance, 30);
      assert.equal((await list(c)).net_worth, worthBefore);
      assertError(await c.get(`/api/accounts/${x.id}`), 404, 40401, 'gone');
      const rows = await t.db.select().from(transactions).where(eq(transactions.userId, u.id));
      assert.ok(rows.every((r) => r.accountId !== x.id && r.toAccountId !== x.id));
      assert.ok(
        rows.some((r) => r.kind === 'expense' && r.amountMinor === 100 && r.parentId === null),
        'the fee stays as an expense',
      );
      // the default passes to the target
      const z = await open(c, { name: 'Z' });
      expectOk(await c.post(`/api/accounts/${def.id}/merge`, { target_id: z.id }));
      assert.equal((await list(c)).list.find((acc) => acc.id === z.id)?.is_default, true);
    });
  });

  describe('rates and base currency', () => {
    it('stores exact decimal rates per user and date, lists and deletes them', async () => {
      const u = await createUser(t.db, { nickname: 'Rates' });
      const c = t.as(u);
      expectOk(
        await c.put('/api/rates', {
          rates: [
            { currency: 'USD', date: '2026-01-02', rate: '7.123456789012' },
            { currency: 'EUR', date: '2026-01-02', rate: 7.8 },
          ],
        }),
      );
      const res = expectOk<{
        list: { currency: string; date: string; rate: string; source: string }[];
        total: number;
        base_currency: string;
      }>(await c.get('/api/rates'));
      assert.equal(res.base_currency, 'CNY');
      assert.deepEqual(
        res.list.map((r) => [r.currency, r.date, r.rate, r.source]),
        [
          ['EUR', '2026-01-02', '7.8', 'manual'],
          ['USD', '2026-01-02', '7.123456789012', 'manual'],
        ],
      );
      for (const bad of [
        { currency: 'CNY', date: '2026-01-02', rate: '1' },
        { currency: 'ABC', date: '2026-01-02', rate: '1' },
        { currency: 'USD', date: '2026-02-30', rate: '1' },
        { currency: 'USD', date: '2026-01-02', rate: '0' },
        { currency: 'USD', date: '2026-01-02', rate: '1.1234567890123' },
        { currency: 'USD', date: '2026-01-02', rate: '1e3' },
      ]) {
        assertError(await c.put('/api/rates', { rates: [bad] }), 400, 40001, JSON.stringify(bad));
      }
      expectOk(await c.put('/api/rates', { rates: [{ currency: 'EUR', date: '2026-01-02', rate: null }] }));
      assert.equal(expectOk<{ total: number }>(await c.get('/api/rates?currency=USD')).total, 1);
      assert.equal(expectOk<{ total: number }>(await c.get('/api/rates')).total, 1);
      // another user sees none of them
      assert.equal(expectOk<{ total: number }>(await b.get('/api/rates')).total, 0);
    });

    it('converts net worth at the latest rate, half away from zero, and lists currencies without a rate', async () => {
      const u = await createUser(t.db, { nickname: 'Worth' });
      const c = t.as(u);
      const def = (await list(c)).list[0]!;
      await c.put(`/api/accounts/${def.id}`, { opening_balance: '100.00' });
      const us = await open(c, { name: 'US', currency: 'USD', opening_balance: '0.05' });
      const gb = await open(c, { name: 'UK', currency: 'GBP', opening_balance: 1 });
      let res = await list(c);
      assert.equal(res.net_worth, 100);
      assert.deepEqual(res.missing_rates, ['GBP', 'USD']);
      expectOk(
        await c.put('/api/rates', {
          rates: [
            { currency: 'USD', date: '2020-01-01', rate: '9' },
            { currency: 'USD', date: '2025-01-01', rate: '7.1' },
          ],
        }),
      );
      res = await list(c);
      // 0.05 USD x 7.1 = 0.355 CNY -> 0.36 (half away from zero)
      assert.equal(res.list.find((x) => x.id === us.id)?.balance_in_base, 0.36);
      assert.equal(res.net_worth, 100.36);
      assert.deepEqual(res.missing_rates, ['GBP']);
      assert.equal(res.list.find((x) => x.id === gb.id)?.balance_in_base, null);
    });

    it('exposes the base currency in the profile; a change is refused once there are transactions or rates', async () => {
      const u = await createUser(t.db, { nickname: 'Base' });
      const c = t.as(u);
      assert.equal(expectOk<{ base_currency: string }>(await c.get('/api/me')).base_currency, 'CNY');
      assertError(await c.put('/api/me', { base_currency: 'XYZ' }), 400, 40001, 'bad code');
      const me = expectOk<{ base_currency: string }>(await c.put('/api/me', { base_currency: 'JPY' }));
      assert.equal(me.base_currency, 'JPY');
      const accs = await list(c);
      assert.equal(accs.base_currency, 'JPY');
      assert.equal(accs.list[0]!.currency, 'JPY', 'the empty starting account follows');
      // amounts in a JPY base are whole yen
      const cat = (await firstCategory(t.db, u.id, 'expense')).id;
      const yen = await record(c, { kind: 'expense', amount: 980, category_id: cat });
      assert.equal(yen.amount, 980);
      assert.equal(yen.currency, 'JPY');
      const [row] = await t.db.select().from(transactions).where(eq(transactions.id, yen.id));
      assert.deepEqual([row!.amountMinor, row!.baseAmount], [980, 980]);
      assertError(
        await c.post('/api/transactions', { kind: 'expense', amount: '9.5', category_id: cat, date: '2026-03-01' }),
        400,
        40001,
        'yen decimals',
      );
      assertError(await c.put('/api/me', { base_currency: 'CNY' }), 422, 42201, 'with transactions');
      assert.equal(
        expectOk<{ base_currency: string }>(await c.put('/api/me', { base_currency: 'JPY' })).base_currency,
        'JPY',
        'the same one is no change',
      );
      const [stored] = await t.db.select().from(users).where(eq(users.id, u.id));
      assert.equal(stored!.baseCurrency, 'JPY');
    });
  });
});
