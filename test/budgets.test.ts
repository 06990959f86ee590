import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { budgets, groups } from '../src/db/schema/index.ts';
import { addDays, todayIn } from '../src/lib/dates.ts';
import {
  addMember,
  assertError,
  build,
  type Client,
  createGroup,
  createTransaction,
  createUser,
  expectOk,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

describe('budgets', () => {
  let t: TestApp;
  let owner: UserRow;
  let member: UserRow;
  let outsider: UserRow;
  let asOwner: Client;
  let asMember: Client;
  let asOutsider: Client;
  let groupId: number;

  before(async () => {
    t = await build();
    owner = await createUser(t.db);
    member = await createUser(t.db);
    outsider = await createUser(t.db);
    asOwner = t.as(owner);
    asMember = t.as(member);
    asOutsider = t.as(outsider);
    groupId = (await createGroup(t.db, owner.id)).id;
    await addMember(t.db, groupId, member.id);

    // April 2025
    await createTransaction(t.db, owner.id, { date: '2025-04-01', amountMinor: 10000 });
    await createTransaction(t.db, owner.id, { date: '2025-04-30', amountMinor: 2550 });
    await createTransaction(t.db, owner.id, { date: '2025-04-15', amountMinor: 4000, groupId });
    await createTransaction(t.db, owner.id, { date: '2025-04-10', amountMinor: 900000, kind: 'income' });
    await createTransaction(t.db, owner.id, { date: '2025-03-31', amountMinor: 77700 });
    await createTransaction(t.db, owner.id, { date: '2025-05-01', amountMinor: 88800 });
    await createTransaction(t.db, member.id, { date: '2025-04-20', amountMinor: 1500, groupId });
    await createTransaction(t.db, member.id, { date: '2025-04-21', amountMinor: 60000 });
    await createTransaction(t.db, outsider.id, { date: '2025-04-21', amountMinor: 123400 });
  });
  after(async () => t.close());

  it('shows a personal month with no budget as nulls, spent counting all own expense', async () => {
    const b = expectOk(await asOwner.get('/api/budget?month=2025-04'));
    // 100 + 25.5 + 40 (recorded in the group); income and other months left out
    assert.deepEqual(b, { month: '2025-04', amount: null, spent: 165.5, remaining: null });
    assert.deepEqual(expectOk(await asOutsider.get('/api/budget?month=2025-04')), {
      month: '2025-04',
      amount: null,
      spent: 1234,
      remaining: null,
    });
    assert.deepEqual(expectOk(await asOwner.get('/api/budget?month=2024-01')), {
      month: '2024-01',
      amount: null,
      spent: 0,
      remaining: null,
    });
  });

  it('sets, updates and clears the personal budget (one row, upserted)', async () => {
    const set = expectOk(await asOwner.put('/api/budget', { month: '2025-04', amount: 3000 }));
    assert.deepEqual(set, { month: '2025-04', amount: 3000, spent: 165.5, remaining: 2834.5 });
    const update = expectOk(await asOwner.put('/api/budget', { month: '2025-04', amount: '100.50' }));
    assert.deepEqual(update, { month: '2025-04', amount: 100.5, spent: 165.5, remaining: -65 });
    assert.deepEqual(expectOk(await asOwner.get('/api/budget?month=2025-04')), update);
    const rows = await t.db.select().from(budgets).where(eq(budgets.userId, owner.id));
    assert.equal(rows.filter((r) => r.groupId === null && r.month === '2025-04').length, 1);
    // other months are separate
    assert.equal(expectOk(await asOwner.get('/api/budget?month=2025-05')).amount, null);
    const withNullGroup = expectOk(
      await asOwner.put('/api/budget', { month: '2025-05', amount: 12.5, group_id: null }),
    );
    assert.deepEqual(withNullGroup, { month: '2025-05', amount: 12.5, spent: 888, remaining: -875.5 });
    const cleared = expectOk(await asOwner.put('/api/budget', { month: '2025-04', amount: null }));
    assert.deepEqual(cleared, { month: '2025-04', amount: null, spent: 165.5, remaining: null });
    const clearedAgain = expectOk(await asOwner.put('/api/budget', { month: '2025-04', amount: null }));
    assert.equal(clearedAgain.amount, null);
    // another user's budget is their own
    assert.equal(expectOk(await asMember.get('/api/budget?month=2025-05')).amount, null);
  });

  it("defaults to this month in the user's own time zone", async () => {
    const east = await createUser(t.db, { timezone: 'Pacific/Kiritimati' });
    const asEast = t.as(east);
    const today = todayIn('Pacific/Kiritimati', new Date());
    await createTransaction(t.db, east.id, { date: today, amountMinor: 1234 });
    await createTransaction(t.db, east.id, { date: addDays(`${today.slice(0, 7)}-01`, -1), amountMinor: 99999 });
    const b = expectOk(await asEast.get('/api/budget'));
    assert.deepEqual(b, { month: today.slice(0, 7), amount: null, spent: 12.34, remaining: null });
  });

  it('validates month and amount with 40001', async () => {
    for (const body of [
      { month: '2025-04', amount: 0 },
      { month: '2025-04', amount: -5 },
      { month: '2025-04', amount: '' },
      { month: '2025-04', amount: 'abc' },
      { month: '2025-04', amount: 1.234 },
      { month: '2025-04', amount: '1e3' },
      { month: '2025-04' },
      { month: '2025-13', amount: 10 },
      { month: '2025-4', amount: 10 },
      { month: '2025-04-01', amount: 10 },
      { amount: 10 },
      { month: '2025-04', amount: 10, group_id: 'x' },
      { month: '0000-01', amount: 10 },
    ]) {
      assertError(await asOwner.put('/api/budget', body), 400, 40001, JSON.stringify(body));
    }
    assertError(await asMember.put('/api/budget/mine', { month: '2025-04', amount: 10 }), 400, 40001);
    assertError(await asMember.put('/api/budget/mine', { month: '2025-04', amount: 0, group_id: groupId }), 400, 40001);
    assertError(await asOwner.get('/api/budget?month=2025-00'), 400, 40001);
    assertError(await asOwner.get('/api/budget?month=April'), 400, 40001);
    assertError(await asOwner.get('/api/budget?month=0000-01'), 400, 40001);
    assertError(await asMember.get(`/api/budget?month=0000-12&group_id=${groupId}`), 400, 40001);
    assertError(
      await asMember.put('/api/budget/mine', { month: '0000-01', amount: 10, group_id: groupId }),
      400,
      40001,
    );
    assertError(await asOwner.put('/api/budget', { month: '0000-01', amount: 10, group_id: groupId }), 400, 40001);
    assertError(await asOwner.get('/api/budget?group_id=abc'), 400, 40001);
  });

  it('shows the group view with nulls until budgets are set', async () => {
    const view = expectOk(await asMember.get(`/api/budget?month=2025-04&group_id=${groupId}`));
    assert.deepEqual(view, {
      month: '2025-04',
      group_id: groupId,
      amount: null,
      spent: 55,
      myAmount: null,
      mySpent: 15,
    });
    const ownerView = expectOk(await asOwner.get(`/api/budget?month=2025-04&group_id=${groupId}`));
    assert.deepEqual(ownerView, {
      month: '2025-04',
      group_id: groupId,
      amount: null,
      spent: 55,
      myAmount: null,
      mySpent: 40,
    });
  });

  it('lets the owner alone set the group budget, and each member their own amount', async () => {
    assertError(await asMember.put('/api/budget', { month: '2025-04', amount: 500, group_id: groupId }), 403, 40302);
    const set = expectOk(await asOwner.put('/api/budget', { month: '2025-04', amount: 500, group_id: groupId }));
    assert.deepEqual(set, { month: '2025-04', group_id: groupId, amount: 500, spent: 55, myAmount: null, mySpent: 40 });
    const mine = expectOk(
      await asMember.put('/api/budget/mine', { month: '2025-04', amount: '80', group_id: groupId }),
    );
    assert.deepEqual(mine, { month: '2025-04', group_id: groupId, amount: 500, spent: 55, myAmount: 80, mySpent: 15 });
    const ownerMine = expectOk(
      await asOwner.put('/api/budget/mine', { month: '2025-04', amount: 200, group_id: groupId }),
    );
    assert.equal(ownerMine.myAmount, 200);
    // each sees their own amount
    assert.equal(expectOk(await asMember.get(`/api/budget?month=2025-04&group_id=${groupId}`)).myAmount, 80);
    // updating is an upsert; the three kinds of rows stay apart
    expectOk(await asOwner.put('/api/budget', { month: '2025-04', amount: 600, group_id: groupId }));
    expectOk(await asMember.put('/api/budget/mine', { month: '2025-04', amount: 90, group_id: groupId }));
    const rows = await t.db.select().from(budgets).where(eq(budgets.groupId, groupId));
    assert.equal(rows.length, 3);
    assert.deepEqual(
      rows.map((r) => [r.userId, r.amountMinor]).sort((a, b) => Number(a[1]) - Number(b[1])),
      [
        [member.id, 9000],
        [owner.id, 20000],
        [null, 60000],
      ],
    );
    // the personal budget is not the group one
    assert.equal(expectOk(await asOwner.get('/api/budget?month=2025-04')).amount, null);
    // clearing the member's amount gives null, not 0
    const clearedMine = expectOk(
      await asMember.put('/api/budget/mine', { month: '2025-04', amount: null, group_id: groupId }),
    );
    assert.equal(clearedMine.myAmount, null);
    assert.equal(clearedMine.amount, 600);
    const clearedGroup = expectOk(
      await asOwner.put('/api/budget', { month: '2025-04', amount: null, group_id: groupId }),
    );
    assert.equal(clearedGroup.amount, null);
    assert.equal(clearedGroup.myAmount, 200);
  });

  it('answers 40302 to non-members on every budget operation of a group', async () => {
    assertError(await asOutsider.get(`/api/budget?month=2025-04&group_id=${groupId}`), 403, 40302);
    assertError(await asOutsider.put('/api/budget', { month: '2025-04', amount: 1, group_id: groupId }), 403, 40302);
    assertError(
      await asOutsider.put('/api/budget/mine', { month: '2025-04', amount: 1, group_id: groupId }),
      403,
      40302,
    );
    assertError(await asOwner.get('/api/budget?group_id=2147483647'), 403, 40302);
    const rows = await t.db.select().from(budgets).where(eq(budgets.userId, outsider.id));
    assert.equal(rows.length, 0);
  });

  it('keeps a dissolved group readable but refuses writes with 40902', async () => {
    const g = await createGroup(t.db, owner.id);
    await addMember(t.db, g.id, member.id);
    expectOk(await asOwner.put('/api/budget', { month: '2025-04', amount: 10, group_id: g.id }));
    await t.db.update(groups).set({ dissolvedAt: new Date() }).where(eq(groups.id, g.id));
    assertError(await asOwner.put('/api/budget', { month: '2025-04', amount: 20, group_id: g.id }), 409, 40902);
    assertError(await asMember.put('/api/budget/mine', { month: '2025-04', amount: 20, group_id: g.id }), 409, 40902);
    const view = expectOk(await asMember.get(`/api/budget?month=2025-04&group_id=${g.id}`));
    assert.equal(view.amount, 10);
  });
});
