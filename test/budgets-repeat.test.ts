import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { budgetAlertTask } from '../src/modules/budgets/index.ts';
import {
  addMember,
  assertError,
  build,
  type Client,
  createGroup,
  createTransaction,
  createUser,
  expectOk,
  firstCategory,
  type TestApp,
} from './helpers/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('budgets that repeat', () => {
  let t: TestApp;
  let as: () => Promise<Client>;

  before(async () => {
    t = await build();
    as = async () => t.as(await createUser(t.db));
  });
  after(async () => t.close());

  const total = async (c: Client, month: string) => expectOk<Json>(await c.get(`/api/budget?month=${month}`)).amount;

  it("keeps the first version's meaning: without repeat an amount is for its month alone", async () => {
    const c = await as();
    expectOk(await c.put('/api/budget', { month: '2026-11', amount: 3000 }));
    assert.equal(await total(c, '2026-11'), 3000);
    assert.equal(await total(c, '2026-12'), null);
    expectOk(await c.put('/api/budget', { month: '2026-11', amount: null }));
    assert.equal(await total(c, '2026-11'), null);
  });

  it('holds a repeating total in every later month until changed; a month may have its own amount', async () => {
    const c = await as();
    expectOk(await c.put('/api/budget', { month: '2026-11', amount: 3000, repeat: true }));
    // each step, then the totals of 2026-10 .. 2027-08 as they stand after it
    const steps: [Json | null, (number | null)[]][] = [
      [null, [null, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000]],
      [{ month: '2027-01', amount: 5000 }, [null, 3000, 3000, 5000, 3000, 3000, 3000, 3000, 3000, 3000, 3000]],
      [
        { month: '2027-03', amount: 4000, repeat: true },
        [null, 3000, 3000, 5000, 3000, 4000, 4000, 4000, 4000, 4000, 4000],
      ],
      [{ month: '2027-05', amount: null }, [null, 3000, 3000, 5000, 3000, 4000, 4000, null, 4000, 4000, 4000]],
      [
        { month: '2027-07', amount: null, repeat: true },
        [null, 3000, 3000, 5000, 3000, 4000, 4000, null, 4000, null, null],
      ],
      // a month set alone where a repeat began: the repeat goes on after it
      [{ month: '2027-03', amount: 100 }, [null, 3000, 3000, 5000, 3000, 100, 4000, null, 4000, null, null]],
      // repeating again from an earlier month replaces the later repeats, not a later month's own amount
      [
        { month: '2026-12', amount: 2500, repeat: true },
        [null, 3000, 2500, 5000, 2500, 100, 2500, null, 2500, 2500, 2500],
      ],
    ];
    const months = ['2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03', '2027-04', '2027-05'];
    months.push('2027-06', '2027-07', '2027-08');
    for (const [i, [body, expected]] of steps.entries()) {
      if (body) expectOk(await c.put('/api/budget', body));
      const got = [];
      for (const m of months) got.push(await total(c, m));
      assert.deepEqual(got, expected, `step ${i}`);
    }
    const dec: Json = expectOk(await c.get('/api/budgets/2026-12'));
    assert.equal(dec.repeat, true);
    assert.equal(expectOk<Json>(await c.get('/api/budgets/2027-01')).repeat, false);
  });

  it("November's category lines and carry-over hold in December; leaving a category out ends it", async () => {
    const user = await createUser(t.db);
    const c = t.as(user);
    const food = (await firstCategory(t.db, user.id, 'expense')).id;
    await createTransaction(t.db, user.id, { date: '2026-11-03', amountMinor: 60000, categoryId: food });
    const nov: Json = expectOk(
      await c.put('/api/budgets/2026-11', {
        amount: 1000,
        carry_over: true,
        categories: [{ category_id: food, amount: 800 }],
        repeat: true,
      }),
    );
    assert.equal(nov.remaining, 400);
    const dec: Json = expectOk(await c.get('/api/budgets/2026-12'));
    assert.deepEqual([dec.amount, dec.carried_in, dec.remaining, dec.repeat], [1000, 400, 1400, true]);
    assert.deepEqual(
      dec.categories.map((l: Json) => [l.category_id, l.amount, l.repeat, l.spent]),
      [[food, 800, true, 0]],
    );
    expectOk(await c.put('/api/budgets/2027-02', { categories: [], repeat: true }));
    assert.equal(expectOk<Json>(await c.get('/api/budgets/2027-01')).categories.length, 1);
    assert.equal(expectOk<Json>(await c.get('/api/budgets/2027-02')).categories.length, 0);
    assert.equal(expectOk<Json>(await c.get('/api/budgets/2027-06')).categories.length, 0);
    assert.equal(expectOk<Json>(await c.get('/api/budgets/2027-06')).amount, 1000);
  });

  it("a group's budget and a member's own amount repeat too", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const groupId = (await createGroup(t.db, owner.id)).id;
    await addMember(t.db, groupId, member.id);
    expectOk(await t.as(owner).put('/api/budget', { month: '2026-11', amount: 9000, group_id: groupId, repeat: true }));
    expectOk(
      await t.as(member).put('/api/budget/mine', { month: '2026-11', amount: 700, group_id: groupId, repeat: true }),
    );
    expectOk(await t.as(member).put('/api/budget/mine', { month: '2027-01', amount: 900, group_id: groupId }));
    const view = async (m: string) =>
      expectOk<Json>(await t.as(member).get(`/api/budget?month=${m}&group_id=${groupId}`));
    assert.deepEqual([(await view('2026-12')).amount, (await view('2026-12')).myAmount], [9000, 700]);
    assert.deepEqual([(await view('2027-01')).amount, (await view('2027-01')).myAmount], [9000, 900]);
    assert.deepEqual([(await view('2027-02')).amount, (await view('2027-02')).myAmount], [9000, 700]);
    assert.equal((await view('2026-10')).amount, null);
  });

  it('tells of an overspent month whose total was set to repeat months before', async () => {
    const user = await createUser(t.db);
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const [y, m] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
    const earlier = m > 2 ? `${y}-${String(m - 2).padStart(2, '0')}` : `${y - 1}-${String(m + 10).padStart(2, '0')}`;
    expectOk(await t.as(user).put('/api/budget', { month: earlier, amount: 10, repeat: true }));
    const food = (await firstCategory(t.db, user.id, 'expense')).id;
    await createTransaction(t.db, user.id, {
      date: now.toISOString().slice(0, 10),
      amountMinor: 1500,
      categoryId: food,
    });
    await budgetAlertTask.run(t.app, now);
    const list = expectOk<Json>(await t.as(user).get('/api/notifications?scope=personal')).list as Json[];
    const n = list.find((x) => x.key === 'budget.exceeded');
    assert.ok(n, 'told');
    assert.deepEqual(n.params, { month, amount: 10, spent: 15, currency: 'CNY' });
  });

  it('refuses a repeat that is not a boolean with 40001', async () => {
    const c = await as();
    assertError(await c.put('/api/budget', { month: '2026-11', amount: 1, repeat: 'yes' }), 400, 40001);
    assertError(await c.put('/api/budgets/2026-11', { amount: 1, repeat: 1 }), 400, 40001);
    assert.equal(await total(c, '2026-11'), null);
  });
});
