import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build, type Client, createUser, expectOk, assertError, type TestApp, type UserRow } from './helpers/index.ts';

type Parse = {
  kind: string | null;
  amount: number | null;
  currency: string | null;
  date: string;
  date_given: boolean;
  category_id: number | null;
  account_id: number | null;
  to_account_id: number | null;
  note: string;
  suggestions: { category_id: number; score: number }[];
};
type Category = { id: number; name: string; kind: string };
type Tx = {
  id: number;
  kind: string;
  amount: number;
  category_id: number;
  account_id: number;
  refund_of: number | null;
  category_picked: boolean;
};

/** The calendar date `hours` from UTC now, written without our date code. */
const dateAt = (hours: number, days = 0) =>
  new Date(Date.now() + hours * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

describe('POST /api/quick-entry/parse', () => {
  let t: TestApp;
  let user: UserRow;
  let as: Client;
  let cats: Map<string, number>;
  let wechat: number;
  let visa: number;

  before(async () => {
    t = await build();
    user = await createUser(t.db);
    as = t.as(user);
    const list = expectOk<{ list: Category[] }>(await as.get('/api/categories')).list;
    cats = new Map(list.map((c) => [c.name, c.id]));
    wechat = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: '微信', type: 'e_wallet', currency: 'CNY' }),
      201,
    ).id;
    visa = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: 'Visa', type: 'credit_card', currency: 'CNY' }),
      201,
    ).id;
  });
  after(async () => t.close());

  const parse = async (client: Client, text: string) =>
    expectOk<Parse>(await client.post('/api/quick-entry/parse', { text }));

  it('reads the four everyday lines, category through the lexicon for a new user', async () => {
    const today = dateAt(0);
    const yesterday = dateAt(0, -1);
    const a = await parse(as, '昨天 打车 32 微信');
    assert.deepEqual(
      {
        kind: a.kind,
        amount: a.amount,
        currency: a.currency,
        date: a.date,
        category_id: a.category_id,
        account_id: a.account_id,
        note: a.note,
      },
      {
        kind: 'expense',
        amount: 32,
        currency: null,
        date: yesterday,
        category_id: cats.get('Transport')!,
        account_id: wechat,
        note: '打车',
      },
    );
    const b = await parse(as, '午饭 三十五块');
    assert.deepEqual(
      [b.kind, b.amount, b.currency, b.date, b.category_id, b.account_id, b.note],
      ['expense', 35, 'CNY', today, cats.get('Food')!, null, '午饭'],
    );
    const c = await parse(as, 'coffee 4.5 yesterday visa');
    assert.deepEqual(
      [c.kind, c.amount, c.date, c.category_id, c.account_id, c.note],
      ['expense', 4.5, yesterday, cats.get('Food')!, visa, 'coffee'],
    );
    const d = await parse(as, '工资 8000 收入');
    assert.deepEqual(
      [d.kind, d.amount, d.date_given, d.category_id, d.note],
      ['income', 8000, false, cats.get('Salary')!, '工资'],
    );
    // no 通讯 category: 话费 goes to Other; Netflix to Entertainment
    assert.equal((await parse(as, '话费 50')).category_id, cats.get('Other')!);
    assert.equal((await parse(as, 'Netflix 15.99')).category_id, cats.get('Entertainment')!);
    assert.equal((await parse(as, '超市 88')).category_id, cats.get('Shopping')!);
  });

  it('leaves what it cannot tell null, and preselects nothing when unsure', async () => {
    const p = await parse(as, '统一 冰红茶');
    assert.deepEqual(
      [p.kind, p.amount, p.currency, p.category_id, p.account_id, p.to_account_id, p.note],
      [null, null, null, null, null, null, '统一 冰红茶'],
    );
    assert.ok(p.suggestions.length > 0 && p.suggestions.length <= 3);
  });

  it('refuses empty text with 40001', async () => {
    assertError(await as.post('/api/quick-entry/parse', { text: '' }), 400, 40001);
    assertError(await as.post('/api/quick-entry/parse', { text: '   ' }), 400, 40001);
    assertError(await as.post('/api/quick-entry/parse', {}), 400, 40001);
    assertError(await as.post('/api/quick-entry/parse', { text: 'x'.repeat(201) }), 400, 40001);
  });

  it('reads "today" and "yesterday" in the caller\'s time zone', async () => {
    const east = await createUser(t.db, { timezone: 'Pacific/Kiritimati' });
    const west = await createUser(t.db, { timezone: 'Etc/GMT+12' });
    const e = await parse(t.as(east), '昨天 地铁 4');
    const w = await parse(t.as(west), 'bus 2 yesterday');
    assert.equal(e.date, dateAt(14, -1));
    assert.equal(w.date, dateAt(-12, -1));
    assert.equal((await parse(t.as(east), 'taxi 20')).date, dateAt(14));
  });

  it('a wrong guess left as it was does not teach the suggester; a correction does', async () => {
    const u = await createUser(t.db);
    const asU = t.as(u);
    const list = expectOk<{ list: Category[] }>(await asU.get('/api/categories?kind=expense')).list;
    const [first, second] = [list[0]!, list[1]!];
    // three rows of "qwerty" booked with a guess the person did not look at
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const tx = expectOk<Tx>(
        await asU.post('/api/transactions', {
          kind: 'expense',
          amount: 10,
          category_id: first.id,
          note: 'qwerty',
          date: dateAt(0),
          category_picked: false,
        }),
        201,
      );
      assert.equal(tx.category_picked, false);
      ids.push(tx.id);
    }
    let p = await parse(asU, 'qwerty 10');
    assert.equal(p.category_id, null);
    const s = expectOk<{ preselect: number | null }>(await asU.get('/api/categories/suggest?note=qwerty'));
    assert.equal(s.preselect, null);
    // the person corrects one: it now teaches
    const fixed = expectOk<Tx>(await asU.put(`/api/transactions/${ids[0]}`, { category_id: second.id }));
    assert.equal(fixed.category_picked, true);
    p = await parse(asU, 'qwerty 10');
    assert.equal(p.category_id, second.id);
    assert.equal(p.kind, 'expense');
  });
});

describe('refunds', () => {
  let t: TestApp;
  let user: UserRow;
  let as: Client;
  let shopping: number;
  let food: number;
  let wechat: number;
  const month = () => dateAt(0).slice(0, 7);
  const day = () => dateAt(0);

  before(async () => {
    t = await build();
    user = await createUser(t.db, { timezone: 'UTC' });
    as = t.as(user);
    const list = expectOk<{ list: Category[] }>(await as.get('/api/categories?kind=expense')).list;
    shopping = list.find((c) => c.name === 'Shopping')!.id;
    food = list.find((c) => c.name === 'Food')!.id;
    wechat = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: 'WeChat', type: 'e_wallet', currency: 'CNY' }),
      201,
    ).id;
  });
  after(async () => t.close());

  it("is a negative expense in the purchase's category and account, linked to it, and reduces expense in lists, statistics and budgets", async () => {
    const purchase = expectOk<Tx>(
      await as.post('/api/transactions', {
        kind: 'expense',
        amount: 100,
        category_id: shopping,
        account_id: wechat,
        date: day(),
        note: 'shoes',
      }),
      201,
    );
    expectOk(await as.put('/api/budget', { month: month(), amount: 500 }));
    const refund = expectOk<Tx>(
      await as.post('/api/transactions', {
        kind: 'refund',
        amount: 30,
        refund_of: purchase.id,
        date: day(),
        note: 'shoes back',
      }),
      201,
    );
    assert.deepEqual(
      {
        kind: refund.kind,
        amount: refund.amount,
        category_id: refund.category_id,
        account_id: refund.account_id,
        refund_of: refund.refund_of,
      },
      { kind: 'expense', amount: -30, category_id: shopping, account_id: wechat, refund_of: purchase.id },
    );
    // 100 spent, 30 back: 70 (by hand)
    const listed = expectOk<{ sums: { expense: number; income: number } }>(
      await as.get('/api/transactions', { query: { startDate: day(), endDate: day() } }),
    );
    assert.equal(listed.sums.expense, 70);
    assert.equal(listed.sums.income, 0);
    const overview = expectOk<{ expense: number; income: number }>(
      await as.get('/api/stats/overview', { query: { period: 'month', date: day() } }),
    );
    assert.equal(overview.expense, 70);
    assert.equal(overview.income, 0);
    const share = expectOk<{ list: { category_id: number; amount: number }[] }>(
      await as.get('/api/stats/category-share', { query: { period: 'month', date: day() } }),
    );
    assert.equal(share.list.find((c) => c.category_id === shopping)!.amount, 70);
    const budget = expectOk<{ spent: number; remaining: number }>(
      await as.get('/api/budget', { query: { month: month() } }),
    );
    assert.equal(budget.spent, 70);
    assert.equal(budget.remaining, 430);
    const account = expectOk<{ balance: number }>(await as.get(`/api/accounts/${wechat}`));
    assert.equal(account.balance, -70);

    // the refunds of a purchase never add up to more than it: 30 + 71 > 100
    assertError(
      await as.post('/api/transactions', { kind: 'refund', amount: 71, refund_of: purchase.id, date: day() }),
      422,
      42201,
    );
    expectOk(
      await as.post('/api/transactions', { kind: 'refund', amount: 70, refund_of: purchase.id, date: day() }),
      201,
    );
    assertError(
      await as.post('/api/transactions', { kind: 'refund', amount: 0.01, refund_of: purchase.id, date: day() }),
      422,
      42201,
    );

    // a correction keeps it a refund, whatever sign is given
    const edited = expectOk<Tx>(await as.put(`/api/transactions/${refund.id}`, { amount: 20 }));
    assert.equal(edited.amount, -20);
    assert.equal(expectOk<Tx>(await as.put(`/api/transactions/${refund.id}`, { amount: -25 })).amount, -25);
    assertError(await as.put(`/api/transactions/${refund.id}`, { amount: 31 }), 422, 42201);
    assertError(await as.put(`/api/transactions/${refund.id}`, { kind: 'income' }), 400, 40001);
    assertError(await as.put(`/api/transactions/${refund.id}`, { category_id: food }), 400, 40001);
  });

  it('without a purchase needs a category, and refuses what is not a purchase', async () => {
    const alone = expectOk<Tx>(
      await as.post('/api/transactions', { kind: 'refund', amount: 12.5, category_id: food, date: day() }),
      201,
    );
    assert.deepEqual([alone.kind, alone.amount, alone.category_id, alone.refund_of], ['expense', -12.5, food, null]);
    assertError(await as.post('/api/transactions', { kind: 'refund', amount: 5, date: day() }), 400, 40001);
    const income = expectOk<Tx>(
      await as.post('/api/transactions', {
        kind: 'income',
        amount: 5,
        category_id: (await firstIncome()).id,
        date: day(),
      }),
      201,
    );
    assertError(
      await as.post('/api/transactions', { kind: 'refund', amount: 5, refund_of: income.id, date: day() }),
      400,
      40001,
    );
    assertError(
      await as.post('/api/transactions', { kind: 'refund', amount: 5, refund_of: alone.id, date: day() }),
      400,
      40001,
    );
    assertError(
      await as.post('/api/transactions', { kind: 'refund', amount: -5, category_id: food, date: day() }),
      400,
      40001,
    );
    const purchase = expectOk<Tx>(
      await as.post('/api/transactions', { kind: 'expense', amount: 40, category_id: shopping, date: day() }),
      201,
    );
    assertError(
      await as.post('/api/transactions', {
        kind: 'refund',
        amount: 5,
        refund_of: purchase.id,
        category_id: food,
        date: day(),
      }),
      400,
      40001,
    );
    // another user's purchase is not one of yours
    const other = await createUser(t.db);
    assertError(
      await t.as(other).post('/api/transactions', { kind: 'refund', amount: 5, refund_of: purchase.id, date: day() }),
      400,
      40001,
    );
    assertError(
      await as.post('/api/transactions', {
        kind: 'expense',
        amount: 5,
        category_id: food,
        refund_of: purchase.id,
        date: day(),
      }),
      400,
      40001,
    );
  });

  async function firstIncome() {
    return expectOk<{ list: Category[] }>(await as.get('/api/categories?kind=income')).list[0]!;
  }
});
