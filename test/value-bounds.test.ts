import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exchangeRates } from '../src/db/schema/index.ts';
import { assertError, build, createUser, expectOk, firstCategory, type TestApp } from './helpers/index.ts';

interface AccountList {
  list: { id: number; currency: string; balance: number; balance_in_base: number | null }[];
  net_worth: number;
  missing_rates: string[];
}

describe('values that would break pages are bounded', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(() => t.close());

  it('refuses a rate that is not > 0 and <= 1e9 with at most 12 decimals, naming the field', async () => {
    const c = t.as(await createUser(t.db));
    for (const rate of [
      '999999999999.999999999999',
      '1000000000.000000000001',
      '1000000001',
      1e10,
      '0',
      '0.000000000000',
      '1.1234567890123',
    ]) {
      const res = await c.put('/api/rates', {
        rates: [
          { currency: 'USD', date: '2026-01-02', rate: '7' },
          { currency: 'EUR', date: '2026-01-02', rate },
        ],
      });
      assertError(res, 400, 40001, String(rate));
      assert.equal(res.json().details[0].field, 'rates[1].rate', String(rate));
    }
    expectOk(
      await c.put('/api/rates', {
        rates: [
          { currency: 'USD', date: '2026-01-02', rate: '1000000000' },
          { currency: 'EUR', date: '2026-01-02', rate: '0.000000000001' },
        ],
      }),
    );
    const rates = expectOk<{ list: { currency: string; rate: string }[] }>(await c.get('/api/rates'));
    assert.deepEqual(
      rates.list.map((r) => [r.currency, r.rate]),
      [
        ['EUR', '0.000000000001'],
        ['USD', '1000000000'],
      ],
    );
  });

  it('shows an account whose conversion overflows as unconverted instead of failing every account page', async () => {
    const user = await createUser(t.db);
    const c = t.as(user);
    const cash = expectOk<AccountList>(await c.get('/api/accounts')).list[0]!;
    const usd = expectOk<{ id: number }>(
      await c.post('/api/accounts', {
        name: 'Big USD',
        type: 'investment',
        currency: 'USD',
        opening_balance: '999999999999.99',
        opening_date: '2026-01-01',
      }),
      201,
    );
    const eur = expectOk<{ id: number }>(
      await c.post('/api/accounts', {
        name: 'EUR',
        type: 'cash',
        currency: 'EUR',
        opening_balance: '10',
        opening_date: '2026-01-01',
      }),
      201,
    );
    expectOk(
      await c.put('/api/rates', {
        rates: [
          { currency: 'USD', date: '2026-01-02', rate: '1000000000' },
          { currency: 'EUR', date: '2026-01-02', rate: '7.5' },
        ],
      }),
    );
    // a rate stored before the bound existed
    await t.db
      .insert(exchangeRates)
      .values({ userId: user.id, currency: 'GBP', date: '2026-01-02', rate: '999999999999.999999999999' });
    const gbp = expectOk<{ id: number }>(
      await c.post('/api/accounts', {
        name: 'GBP',
        type: 'cash',
        currency: 'GBP',
        opening_balance: '1',
        opening_date: '2026-01-01',
      }),
      201,
    );

    const page = expectOk<AccountList>(await c.get('/api/accounts'));
    const byId = new Map(page.list.map((a) => [a.id, a]));
    assert.equal(byId.get(usd.id)!.balance, 999999999999.99);
    assert.equal(byId.get(usd.id)!.balance_in_base, null);
    assert.equal(byId.get(gbp.id)!.balance_in_base, null);
    assert.equal(byId.get(eur.id)!.balance_in_base, 75);
    assert.deepEqual(page.missing_rates, ['GBP', 'USD']);
    assert.equal(page.net_worth, 75 + byId.get(cash.id)!.balance);

    assert.equal(
      expectOk<{ balance_in_base: number | null }>(await c.get(`/api/accounts/${usd.id}`)).balance_in_base,
      null,
    );
    const history = expectOk<{ list: { missing_rates: string[] }[] }>(await c.get('/api/accounts/net-worth?months=2'));
    assert.deepEqual(history.list.at(-1)!.missing_rates, ['GBP', 'USD']);
  });

  it('bounds budget amounts as transactions are bounded: at most 12 integer digits', async () => {
    const user = await createUser(t.db);
    const c = t.as(user);
    const category = await firstCategory(t.db, user.id, 'expense');
    assertError(
      await c.post('/api/transactions', {
        kind: 'expense',
        amount: '1234567890123',
        category_id: category.id,
        date: '2026-11-02',
      }),
      400,
      40001,
    );
    for (const body of [
      { amount: '1234567890123' },
      { amount: 1234567890123 },
      { categories: [{ category_id: category.id, amount: '1234567890123.5' }] },
    ]) {
      const res = await c.put('/api/budgets/2026-11', body);
      assertError(res, 400, 40001, JSON.stringify(body));
      assert.match(res.json().details[0].field, /amount/);
    }
    const ok = expectOk<{ amount: number; categories: { amount: number }[] }>(
      await c.put('/api/budgets/2026-11', {
        amount: '999999999999.99',
        categories: [{ category_id: category.id, amount: '999999999999' }],
      }),
    );
    assert.equal(ok.amount, 999999999999.99);
    assert.equal(ok.categories[0]!.amount, 999999999999);
  });
});
