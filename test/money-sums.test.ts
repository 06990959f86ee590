import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build, createUser, expectOk, firstCategory, type TestApp } from './helpers/index.ts';

describe('list sums in the base currency', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  it('answers the sums of a yen user in whole yen', async () => {
    const user = await createUser(t.db);
    const as = t.as(user);
    expectOk(await as.put('/api/me', { base_currency: 'JPY' }));
    const food = (await firstCategory(t.db, user.id, 'expense')).id;
    expectOk(
      await as.post('/api/transactions', { kind: 'expense', amount: 1250, category_id: food, date: '2026-03-02' }),
      201,
    );
    expectOk(
      await as.post('/api/transactions', { kind: 'expense', amount: '300', category_id: food, date: '2026-03-03' }),
      201,
    );
    const list = expectOk<{ sums: Record<string, number> }>(
      await as.get('/api/transactions?startDate=2026-03-01&endDate=2026-03-31'),
    );
    assert.deepEqual(list.sums, { income: 0, expense: 1550, balance: -1550, count: 2 });
  });
});
