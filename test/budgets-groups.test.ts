import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, build, createUser, expectOk, firstCategory, type TestApp, type UserRow } from './helpers/index.ts';

/**
 * A personal budget counts group records as the person bears them: their share in a group that
 * splits costs (whoever paid), the whole of their own records in a group that does not. Settlements
 * between members are payments, never spending.
 */
describe('personal budgets and group records', () => {
  let t: TestApp;
  let a: UserRow;
  let b: UserRow;
  let c: UserRow;
  const cat = new Map<number, number>();
  let split: { id: number };
  let plain: { id: number };
  const MONTH = '2026-05';

  const spent = async (u: UserRow) =>
    expectOk<{ spent: number; remaining: number | null }>(await t.as(u).get(`/api/budgets/${MONTH}`));
  const expense = (u: UserRow, amount: number | string, extra: Record<string, unknown> = {}) =>
    t.as(u).post('/api/transactions', {
      kind: 'expense',
      amount,
      category_id: cat.get(u.id),
      date: `${MONTH}-12`,
      ...extra,
    });

  before(async () => {
    t = await build();
    [a, b, c] = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    for (const u of [a, b, c]) cat.set(u.id, (await firstCategory(t.db, u.id)).id);
    split = expectOk(await t.as(a).post('/api/groups', { name: 'Flat', split_costs: true }), 201);
    plain = expectOk(await t.as(a).post('/api/groups', { name: 'Club' }), 201);
    for (const u of [b, c]) {
      await addMember(t.db, split.id, u.id);
      await addMember(t.db, plain.id, u.id);
    }
    for (const u of [a, b, c]) expectOk(await t.as(u).put(`/api/budgets/${MONTH}`, { amount: 1000 }));
  });
  after(async () => t.close());

  it('counts the share of a split group bill, whoever paid it, and personal rows whole', async () => {
    // a pays 300 for the three of them: 100 each
    expectOk(await expense(a, 300, { group_id: split.id }), 201);
    // b records 90 paid by c, shared 1:2 between b and c: 30 and 60
    expectOk(
      await expense(b, 90, {
        group_id: split.id,
        paid_by: c.id,
        split: {
          mode: 'shares',
          members: [
            { user_id: b.id, value: 1 },
            { user_id: c.id, value: 2 },
          ],
        },
      }),
      201,
    );
    expectOk(await expense(a, '12.50'), 201);
    const [sa, sb, sc] = [await spent(a), await spent(b), await spent(c)];
    assert.equal(sa.spent, 100 + 12.5);
    assert.equal(sa.remaining, 1000 - 112.5);
    assert.equal(sb.spent, 100 + 30);
    assert.equal(sc.spent, 100 + 60);
  });

  it("a settlement, received or paid, changes nobody's spending", async () => {
    const before = [(await spent(a)).spent, (await spent(b)).spent];
    const s = expectOk<{ id: number }>(
      await t.as(b).post(`/api/groups/${split.id}/settlements`, { from: b.id, to: a.id, amount: 70 }),
      201,
    );
    expectOk(await t.as(a).post(`/api/settlements/${s.id}/confirm`));
    assert.deepEqual([(await spent(a)).spent, (await spent(b)).spent], before);
  });

  it('in a group that does not split costs, the one who records a bill bears it whole', async () => {
    const before = [(await spent(a)).spent, (await spent(b)).spent, (await spent(c)).spent];
    expectOk(await expense(b, 45, { group_id: plain.id }), 201);
    assert.deepEqual(
      [(await spent(a)).spent, (await spent(b)).spent, (await spent(c)).spent],
      [before[0], before[1]! + 45, before[2]],
    );
  });

  it('the month total and the legacy answer agree', async () => {
    const legacy = expectOk<{ spent: number }>(await t.as(a).get('/api/budget', { query: { month: MONTH } }));
    assert.equal(legacy.spent, (await spent(a)).spent);
  });
});
