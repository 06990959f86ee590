import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, build, type Client, createUser, expectOk, type TestApp } from './helpers/index.ts';

/*
 * An entry paid in another currency than its account's: "dinner 45 eur amex" on a pound card
 * keeps 45 EUR beside the pounds charged. Expected figures are worked out by hand here.
 */

interface Tx {
  id: number;
  kind: string;
  amount: number;
  currency: string;
  rate: string | null;
  account_id: number;
  original_amount: number | null;
  original_currency: string | null;
}

const DAY = '2026-11-20';

describe('entries paid in another currency than their account', () => {
  let t: TestApp;
  let as: Client;
  let amex: number;
  let euros: number;
  let food: number;

  const balance = async (id: number) =>
    expectOk<{ list: { id: number; balance: number }[] }>(await as.get('/api/accounts')).list.find((a) => a.id === id)!
      .balance;
  const count = async () => expectOk<{ total: number }>(await as.get('/api/transactions?pageSize=1')).total;
  const dinner = (extra: Record<string, unknown> = {}) => ({
    kind: 'expense',
    original_amount: '45',
    original_currency: 'EUR',
    account_id: amex,
    category_id: food,
    date: DAY,
    note: 'dinner',
    ...extra,
  });

  before(async () => {
    t = await build();
    as = t.as(await createUser(t.db, { baseCurrency: 'GBP' }));
    food = expectOk<{ list: { id: number; icon: string }[] }>(await as.get('/api/categories')).list.find(
      (c) => c.icon === 'food',
    )!.id;
    amex = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: 'Amex', type: 'credit_card', currency: 'GBP' }),
      201,
    ).id;
    euros = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: 'Euro cash', type: 'cash', currency: 'EUR' }),
      201,
    ).id;
  });
  after(async () => t.close());

  it('reads the line, asks for the missing rate by name and writes nothing without it', async () => {
    const p = expectOk<{ amount: number; currency: string; account_id: number; note: string }>(
      await as.post('/api/quick-entry/parse', { text: 'dinner 45 eur amex' }),
    );
    assert.deepEqual([p.amount, p.currency, p.account_id, p.note], [45, 'EUR', amex, 'dinner']);
    const res = await as.post('/api/transactions', dinner());
    await assertError(res, 400, 40001);
    assert.deepEqual(res.json<{ missing_rate: unknown }>().missing_rate, { currency: 'EUR', base: 'GBP', date: DAY });
    assert.equal(await count(), 0);
  });

  it("books 45 EUR on the pound card at the day's rate, keeping the euros", async () => {
    expectOk(await as.put('/api/rates', { rates: [{ currency: 'EUR', date: DAY, rate: '0.86' }] }));
    const tx = expectOk<Tx>(await as.post('/api/transactions', dinner()), 201);
    // 45 × 0.86 = 38.70 pounds
    assert.deepEqual(
      [tx.amount, tx.currency, tx.original_amount, tx.original_currency, tx.rate],
      [38.7, 'GBP', 45, 'EUR', null],
    );
    assert.deepEqual(expectOk<Tx>(await as.get(`/api/transactions/${tx.id}`)).original_amount, 45);
    assert.equal(await balance(amex), -38.7);
  });

  it("takes the bank's figure instead, at creation or later, and keeps the original", async () => {
    const tx = expectOk<Tx>(await as.post('/api/transactions', dinner({ amount: '38.52' })), 201);
    assert.deepEqual([tx.amount, tx.original_amount, tx.original_currency], [38.52, 45, 'EUR']);
    const fixed = expectOk<Tx>(await as.put(`/api/transactions/${tx.id}`, { amount: '38.49' }));
    assert.deepEqual([fixed.amount, fixed.original_amount, fixed.original_currency], [38.49, 45, 'EUR']);
    // the euros corrected: priced again at the day's rate, 50 × 0.86
    const again = expectOk<Tx>(await as.put(`/api/transactions/${tx.id}`, { original_amount: '50' }));
    assert.deepEqual([again.amount, again.original_amount, again.original_currency], [43, 50, 'EUR']);
    // moved to the euro account: the euros are the amount, no original is left
    const moved = expectOk<Tx>(await as.put(`/api/transactions/${tx.id}`, { account_id: euros, amount: '50' }));
    assert.deepEqual(
      [moved.amount, moved.currency, moved.original_amount, moved.original_currency],
      [50, 'EUR', null, null],
    );
    const cleared = expectOk<Tx>(
      await as.put(`/api/transactions/${(await firstDinner()).id}`, {
        original_amount: null,
        original_currency: null,
      }),
    );
    assert.deepEqual([cleared.amount, cleared.original_amount, cleared.original_currency], [38.7, null, null]);
  });

  const firstDinner = async () =>
    expectOk<{ list: Tx[] }>(await as.get('/api/transactions?pageSize=100')).list.find((x) => x.amount === 38.7)!;

  it('converts through both rates into an account that is not in the base currency', async () => {
    expectOk(await as.put('/api/rates', { rates: [{ currency: 'USD', date: DAY, rate: '0.79' }] }));
    const tx = expectOk<Tx>(
      await as.post(
        '/api/transactions',
        dinner({ original_amount: '10', original_currency: 'USD', account_id: euros }),
      ),
      201,
    );
    // 10 USD = 7.90 GBP = 7.90 / 0.86 EUR = 9.186... -> 9.19 EUR
    assert.deepEqual([tx.amount, tx.currency, tx.original_amount, tx.original_currency], [9.19, 'EUR', 10, 'USD']);
    // whole yen: 3000 JPY paid with the pound card, at 0.0052 = 15.60 GBP
    expectOk(await as.put('/api/rates', { rates: [{ currency: 'JPY', date: DAY, rate: '0.0052' }] }));
    const yen = expectOk<Tx>(
      await as.post('/api/transactions', dinner({ original_amount: 3000, original_currency: 'JPY' })),
      201,
    );
    assert.deepEqual([yen.amount, yen.original_amount, yen.original_currency], [15.6, 3000, 'JPY']);
  });

  it("keeps the first contract's bodies as they were", async () => {
    const plain = expectOk<Tx>(
      await as.post('/api/transactions', {
        kind: 'expense',
        amount: 12.5,
        category_id: food,
        account_id: amex,
        date: DAY,
      }),
      201,
    );
    assert.deepEqual([plain.amount, plain.original_amount, plain.original_currency], [12.5, null, null]);
    // the account's own currency as the original is simply the amount
    const same = expectOk<Tx>(await as.post('/api/transactions', dinner({ original_currency: 'GBP' })), 201);
    assert.deepEqual([same.amount, same.original_amount, same.original_currency], [45, null, null]);
  });

  it('refuses what it cannot book, with the field named, and writes nothing', async () => {
    const before = await count();
    const refused: [Record<string, unknown>, string][] = [
      [{ ...dinner(), original_currency: 'XYZ' }, 'original_currency'],
      [{ ...dinner(), original_currency: undefined }, 'original_currency'],
      [{ ...dinner(), original_amount: undefined }, 'original_amount'],
      [{ ...dinner(), original_amount: '45.123' }, 'original_amount'],
      [{ ...dinner(), original_amount: '-5' }, 'original_amount'],
      [{ ...dinner(), original_amount: '12.5', original_currency: 'JPY' }, 'original_amount'],
      [{ ...dinner(), rate: '0.9' }, 'rate'],
      [{ ...dinner(), kind: 'transfer', to_account_id: euros }, 'original_amount'],
      [{ ...dinner(), amount: '38.521' }, 'amount'],
      [{ kind: 'expense', category_id: food, account_id: amex, date: DAY }, 'amount'],
      [{ ...dinner(), original_currency: 'CHF' }, 'rate'],
    ];
    for (const [body, field] of refused) {
      const res = await as.post('/api/transactions', body);
      await assertError(res, 400, 40001);
      const details = res.json<{ details?: { field: string }[] }>().details ?? [];
      assert.ok(
        details.some((d) => d.field === field),
        `${JSON.stringify(body)}: ${res.body}`,
      );
    }
    assert.equal(await count(), before);
  });
});
