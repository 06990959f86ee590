import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { accounts, exchangeRates, notifications } from '../src/db/schema/index.ts';
import {
  addMember,
  assertError,
  build,
  createUser,
  expectOk,
  firstCategory,
  onPostgres,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Bal = {
  user_id: number;
  paid: number;
  share: number;
  sent: number;
  received: number;
  net: number;
  member: boolean;
};

describe('splitting group expenses and settling up', () => {
  let t: TestApp;
  let a: UserRow;
  let b: UserRow;
  let c: UserRow;
  let d: UserRow;
  let stranger: UserRow;
  let g: { id: number };
  const cat = new Map<number, number>();

  async function expense(user: UserRow, amount: number | string, extra: Record<string, unknown> = {}, groupId = g.id) {
    return t.as(user).post('/api/transactions', {
      kind: 'expense',
      amount,
      category_id: cat.get(user.id),
      date: '2026-03-10',
      group_id: groupId,
      ...extra,
    });
  }
  async function balances(user: UserRow = a, groupId = g.id): Promise<Map<number, Bal>> {
    const body = expectOk<{ currency: string; list: Bal[] }>(await t.as(user).get(`/api/groups/${groupId}/balances`));
    const total = body.list.reduce((s, x) => s + Math.round(x.net * 100), 0);
    assert.equal(total, 0, 'nets sum to zero');
    return new Map(body.list.map((x) => [x.user_id, x]));
  }
  const no = (res: { statusCode: number; body: string }) => assert.equal(res.statusCode, 204, res.body);
  const net = async (u: UserRow, groupId = g.id) => (await balances(a, groupId)).get(u.id)?.net ?? 0;

  before(async () => {
    t = await build();
    [a, b, c, d, stranger] = [
      await createUser(t.db),
      await createUser(t.db),
      await createUser(t.db),
      await createUser(t.db),
      await createUser(t.db),
    ];
    for (const u of [a, b, c, d, stranger]) cat.set(u.id, (await firstCategory(t.db, u.id)).id);
    g = expectOk(await t.as(a).post('/api/groups', { name: 'Trip', split_costs: true }), 201);
    for (const u of [b, c]) await addMember(t.db, g.id, u.id);
  });
  after(async () => {
    await t.close();
  });

  it('a group answers its currency, and keeps the fields it had', async () => {
    const got = expectOk(await t.as(b).get(`/api/groups/${g.id}`));
    assert.equal(got.currency, 'CNY');
    assert.equal(got.notify_threshold, 0, 'a new group tells its members of every shared record');
    assert.equal(got.split_costs, true);
    for (const k of ['id', 'name', 'owner_id', 'role', 'member_count', 'invite_code', 'created_at'])
      assert.ok(k in got, k);
    assertError(await t.as(stranger).get(`/api/groups/${g.id}`), 403, 40302);
    const jp = expectOk(await t.as(a).post('/api/groups', { name: 'Tokyo', currency: 'JPY' }), 201);
    assert.equal(jp.currency, 'JPY');
    assertError(await t.as(a).post('/api/groups', { name: 'Bad', currency: 'ABC' }), 400, 40001);
  });

  it('an expense without a split is paid by its recorder and shared equally by every member', async () => {
    const tx = expectOk(await expense(a, 100), 201);
    assert.equal(tx.paid_by, a.id);
    assert.deepEqual(tx.shares, [
      { user_id: a.id, amount: 33.34 },
      { user_id: b.id, amount: 33.33 },
      { user_id: c.id, amount: 33.33 },
    ]);
    assert.equal(tx.split.mode, 'equal');
    const bal = await balances();
    assert.equal(bal.get(a.id)!.net, 66.66);
    assert.equal(bal.get(b.id)!.net, -33.33);
    assert.equal(bal.get(c.id)!.net, -33.33);
    // a personal row has no split
    const own = expectOk(
      await t
        .as(a)
        .post('/api/transactions', { kind: 'expense', amount: 5, category_id: cat.get(a.id), date: '2026-03-10' }),
      201,
    );
    assert.equal(own.paid_by, null);
    assert.deepEqual(own.shares, []);
    no(await t.as(a).delete(`/api/transactions/${tx.id}`));
    no(await t.as(a).delete(`/api/transactions/${own.id}`));
    assert.equal(await net(a), 0);
  });

  it('shares, exact and percent splits, another payer, and the list and single views carry the shares', async () => {
    const s = expectOk(
      await expense(b, 10, {
        paid_by: a.id,
        split: {
          mode: 'shares',
          members: [
            { user_id: a.id, value: 1 },
            { user_id: b.id, value: 2 },
          ],
        },
      }),
      201,
    );
    assert.equal(s.paid_by, a.id);
    assert.equal(s.user_id, b.id);
    assert.deepEqual(s.shares, [
      { user_id: a.id, amount: 3.33 },
      { user_id: b.id, amount: 6.67 },
    ]);
    const e = expectOk(
      await expense(c, '30.01', {
        split: {
          mode: 'exact',
          members: [
            { user_id: a.id, value: '10' },
            { user_id: c.id, value: 20.01 },
          ],
        },
      }),
      201,
    );
    assert.deepEqual(e.shares, [
      { user_id: a.id, amount: 10 },
      { user_id: c.id, amount: 20.01 },
    ]);
    const p = expectOk(
      await expense(a, 10, {
        split: {
          mode: 'percent',
          members: [
            { user_id: a.id, value: 33.33 },
            { user_id: b.id, value: '33.33' },
            { user_id: c.id, value: 33.34 },
          ],
        },
      }),
      201,
    );
    assert.deepEqual(
      p.shares.map((x: { amount: number }) => x.amount),
      [3.33, 3.33, 3.34],
    );
    const one = expectOk(await t.as(c).get(`/api/transactions/${s.id}`));
    assert.deepEqual(one.shares, s.shares);
    const list = expectOk(await t.as(c).get(`/api/transactions?group_id=${g.id}`));
    assert.deepEqual(list.list.find((x: { id: number }) => x.id === s.id).shares, s.shares);
    // a pays 10 (share 3.33) + 10 (share 3.33); owes 10 of c's 30.01
    const bal = await balances();
    assert.equal(bal.get(a.id)!.paid, 20);
    for (const id of [s.id, e.id, p.id]) {
      const owner = [a, b, c].find((u) => u.id === (id === s.id ? b.id : id === e.id ? c.id : a.id))!;
      no(await t.as(owner).delete(`/api/transactions/${id}`));
    }
    assert.equal(await net(a), 0);
  });

  it('splits that do not add up, or name people outside the group, are 40001', async () => {
    const bad: [string, Record<string, unknown>][] = [
      [
        'exact short',
        {
          split: {
            mode: 'exact',
            members: [
              { user_id: a.id, value: 5 },
              { user_id: b.id, value: 4.99 },
            ],
          },
        },
      ],
      [
        'percent 99',
        {
          split: {
            mode: 'percent',
            members: [
              { user_id: a.id, value: 50 },
              { user_id: b.id, value: 49 },
            ],
          },
        },
      ],
      ['percent over 100', { split: { mode: 'percent', members: [{ user_id: a.id, value: 101 }] } }],
      ['shares all zero', { split: { mode: 'shares', members: [{ user_id: a.id, value: 0 }] } }],
      ['shares no members', { split: { mode: 'shares' } }],
      ['missing value', { split: { mode: 'exact', members: [{ user_id: a.id }] } }],
      [
        'three decimals',
        {
          split: {
            mode: 'exact',
            members: [
              { user_id: a.id, value: '9.999' },
              { user_id: b.id, value: '0.001' },
            ],
          },
        },
      ],
      [
        'negative',
        {
          split: {
            mode: 'shares',
            members: [
              { user_id: a.id, value: -1 },
              { user_id: b.id, value: 2 },
            ],
          },
        },
      ],
      ['outsider', { split: { mode: 'equal', members: [{ user_id: a.id }, { user_id: stranger.id }] } }],
      ['twice', { split: { mode: 'equal', members: [{ user_id: a.id }, { user_id: a.id }] } }],
      ['empty', { split: { mode: 'equal', members: [] } }],
      ['payer outsider', { paid_by: stranger.id }],
      ['bad mode', { split: { mode: 'half' } }],
    ];
    for (const [label, extra] of bad) assertError(await expense(a, 10, extra), 400, 40001, label);
    assertError(
      await t.as(a).post('/api/transactions', {
        kind: 'expense',
        amount: 1,
        category_id: cat.get(a.id),
        date: '2026-03-10',
        paid_by: a.id,
      }),
      400,
      40001,
    );
    assertError(
      await t.as(a).post('/api/transactions', {
        kind: 'expense',
        amount: 1,
        category_id: cat.get(a.id),
        date: '2026-03-10',
        split: { mode: 'equal' },
      }),
      400,
      40001,
    );
    assert.equal(await net(a), 0);
  });

  it('editing the amount, the split, the payer or the group updates every balance; deleting removes it', async () => {
    const tx = expectOk(await expense(a, 90), 201);
    assert.equal(await net(b), -30);
    expectOk(await t.as(a).put(`/api/transactions/${tx.id}`, { amount: 60 }));
    assert.equal(await net(b), -20);
    const up = expectOk(
      await t
        .as(a)
        .put(`/api/transactions/${tx.id}`, { split: { mode: 'exact', members: [{ user_id: b.id, value: 60 }] } }),
    );
    assert.deepEqual(up.shares, [{ user_id: b.id, amount: 60 }]);
    assert.equal(await net(b), -60);
    // exact amounts cannot follow a new amount on their own
    assertError(await t.as(a).put(`/api/transactions/${tx.id}`, { amount: 70 }), 400, 40001);
    expectOk(await t.as(a).put(`/api/transactions/${tx.id}`, { paid_by: c.id }));
    assert.equal(await net(c), 60);
    assert.equal(await net(a), 0);
    // taken out of the group: no shares, no balance
    const out = expectOk(await t.as(a).put(`/api/transactions/${tx.id}`, { group_id: null }));
    assert.equal(out.paid_by, null);
    assert.deepEqual(out.shares, []);
    assert.equal(await net(c), 0);
    // back into the group: equal among every member, paid by the recorder
    const back = expectOk(await t.as(a).put(`/api/transactions/${tx.id}`, { group_id: g.id }));
    assert.equal(back.shares.length, 3);
    assert.equal(back.paid_by, a.id);
    assert.equal(await net(a), 40);
    // others cannot edit it
    assertError(await t.as(b).put(`/api/transactions/${tx.id}`, { amount: 1 }), 404, 40401);
    no(await t.as(a).delete(`/api/transactions/${tx.id}`));
    assert.equal(await net(a), 0);
  });

  it('a group income split the same way moves balances the other way', async () => {
    const inc = (await firstCategory(t.db, b.id, 'income')).id;
    const tx = expectOk(
      await t.as(b).post('/api/transactions', {
        kind: 'income',
        amount: 30,
        category_id: inc,
        date: '2026-03-10',
        group_id: g.id,
      }),
      201,
    );
    assert.equal(tx.shares.length, 3);
    // b holds 30 that belongs to all three: b owes 10 to each
    assert.equal(await net(b), -20);
    assert.equal(await net(a), 10);
    no(await t.as(b).delete(`/api/transactions/${tx.id}`));
  });

  it('suggested settlements clear every balance, settlements move balances, and nobody settles more than is owed', async () => {
    const x = expectOk(await expense(a, 90), 201);
    const y = expectOk(await expense(b, 30), 201);
    // a +60 -10 = 50; b -30 +20 = -10... a: paid 90, share 40 -> +50; b: paid 30, share 40 -> -10; c: share 40 -> -40
    const sug = expectOk(await t.as(c).get(`/api/groups/${g.id}/settlements/suggested`));
    assert.equal(sug.currency, 'CNY');
    assert.deepEqual(sug.list, [
      { from: c.id, to: a.id, amount: 40 },
      { from: b.id, to: a.id, amount: 10 },
    ]);
    assertError(await t.as(stranger).get(`/api/groups/${g.id}/settlements/suggested`), 403, 40302);
    // neither side: 40001; more than is owed: 40901; the wrong way: 40901
    assertError(
      await t.as(b).post(`/api/groups/${g.id}/settlements`, { from: c.id, to: a.id, amount: 40 }),
      400,
      40001,
    );
    assertError(
      await t.as(c).post(`/api/groups/${g.id}/settlements`, { from: c.id, to: a.id, amount: 40.01 }),
      409,
      40901,
    );
    assertError(await t.as(c).post(`/api/groups/${g.id}/settlements`, { from: a.id, to: c.id, amount: 1 }), 409, 40901);
    assertError(await t.as(c).post(`/api/groups/${g.id}/settlements`, { from: c.id, to: c.id, amount: 1 }), 400, 40001);
    assertError(await t.as(c).post(`/api/groups/${g.id}/settlements`, { from: c.id, to: a.id, amount: 0 }), 400, 40001);
    assertError(
      await t.as(stranger).post(`/api/groups/${g.id}/settlements`, { from: stranger.id, to: a.id, amount: 1 }),
      403,
      40302,
    );
    const s1 = expectOk(
      await t.as(c).post(`/api/groups/${g.id}/settlements`, { from: c.id, to: a.id, amount: 40, note: 'cash' }),
      201,
    );
    assert.equal(s1.from, c.id);
    assert.equal(s1.to, a.id);
    assert.equal(s1.amount, 40);
    assert.equal(s1.confirmed, false);
    assert.ok(s1.id && s1.created_at);
    // the same debt again: nothing left
    assertError(
      await t.as(a).post(`/api/groups/${g.id}/settlements`, { from: c.id, to: a.id, amount: 40 }),
      409,
      40901,
    );
    const bal = await balances(b);
    assert.equal(bal.get(c.id)!.net, 0);
    assert.equal(bal.get(c.id)!.sent, 40);
    assert.equal(bal.get(a.id)!.received, 40);
    // the receiver records the other one
    const s2 = expectOk(
      await t.as(a).post(`/api/groups/${g.id}/settlements`, { from: b.id, to: a.id, amount: '10' }),
      201,
    );
    assert.deepEqual(expectOk(await t.as(a).get(`/api/groups/${g.id}/settlements/suggested`)).list, []);
    for (const u of [a, b, c]) assert.equal(await net(u), 0);
    // confirm: the other side only
    assertError(await t.as(c).post(`/api/settlements/${s1.id}/confirm`), 422, 42201);
    assertError(await t.as(b).post(`/api/settlements/${s1.id}/confirm`), 403, 40302);
    const conf = expectOk(await t.as(a).post(`/api/settlements/${s1.id}/confirm`));
    assert.equal(conf.confirmed, true);
    assert.ok(conf.confirmed_at);
    expectOk(await t.as(a).post(`/api/settlements/${s1.id}/confirm`));
    // history, latest first
    const hist = expectOk(await t.as(b).get(`/api/groups/${g.id}/settlements`));
    assert.equal(hist.total, 2);
    assert.deepEqual(
      hist.list.map((s: { id: number }) => s.id),
      [s2.id, s1.id],
    );
    // take back: the recorder, before confirmation
    assertError(await t.as(a).delete(`/api/settlements/${s1.id}`), 403, 40302);
    assertError(await t.as(c).delete(`/api/settlements/${s1.id}`), 422, 42201);
    no(await t.as(a).delete(`/api/settlements/${s2.id}`));
    assert.equal(await net(b), -10);
    expectOk(await t.as(b).post(`/api/groups/${g.id}/settlements`, { from: b.id, to: a.id, amount: 10 }), 201);
    // a settlement is never income or expense in statistics
    const stats = expectOk(await t.as(a).get('/api/stats/overview', { query: { date: '2026-03-10' } }));
    assert.equal(stats.expense, 90);
    assert.equal(stats.income, 0);
    // a settlement of a group one is not in: 40401
    assertError(await t.as(stranger).post(`/api/settlements/${s1.id}/confirm`), 404, 40401);
    assertError(await t.as(stranger).delete(`/api/settlements/${s1.id}`), 404, 40401);
    for (const [u, id] of [
      [a, x.id],
      [b, y.id],
    ] as const) {
      no(await t.as(u).delete(`/api/transactions/${id}`));
    }
  });

  it('members who leave or are removed keep their balance, visible to the owner, and can still be paid', async () => {
    // clear what the last test left
    for (const s of expectOk(await t.as(a).get(`/api/groups/${g.id}/settlements/suggested`)).list) {
      const payer = [a, b, c].find((u) => u.id === s.from)!;
      expectOk(await t.as(payer).post(`/api/groups/${g.id}/settlements`, s), 201);
    }
    await addMember(t.db, g.id, d.id);
    cat.set(d.id, (await firstCategory(t.db, d.id)).id);
    const tx = expectOk(await expense(a, 40), 201);
    assert.equal(await net(d), -10);
    no(await t.as(a).post(`/api/groups/${g.id}/remove-member`, { user_id: d.id }));
    const bal = await balances(a);
    assert.equal(bal.get(d.id)!.net, -10);
    assert.equal(bal.get(d.id)!.member, false);
    // a removed member who still owes sees their own line and the creditors', nothing else of the group
    const seen = expectOk<{ list: Bal[] }>(await t.as(d).get(`/api/groups/${g.id}/balances`));
    assert.deepEqual(
      seen.list.map((x) => x.user_id),
      [a.id, d.id],
    );
    assertError(await t.as(d).get(`/api/transactions?group_id=${g.id}`), 403, 40302);
    // the removed member cannot be named in a new split, but their debt can be settled by the creditor
    assertError(await expense(a, 10, { split: { mode: 'equal', members: [{ user_id: d.id }] } }), 400, 40001);
    expectOk(await t.as(a).post(`/api/groups/${g.id}/settlements`, { from: d.id, to: a.id, amount: 10 }), 201);
    assert.equal((await balances(a)).get(d.id)!.net, 0);
    // editing the amount keeps the stored split, the removed member included
    expectOk(await t.as(a).put(`/api/transactions/${tx.id}`, { amount: 80 }));
    assert.equal(await net(d), -10);
    expectOk(await t.as(a).put(`/api/transactions/${tx.id}`, { amount: 40 }));
    // clean up for the next tests
    for (const u of [b, c])
      expectOk(await t.as(u).post(`/api/groups/${g.id}/settlements`, { from: u.id, to: a.id, amount: 10 }), 201);
    assert.equal(await net(a), 0);
  });

  it('notifications: over the threshold to the members involved, both sides of a settlement, per-user opt-out', async () => {
    const mine = async (u: UserRow) =>
      t.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, u.id), eq(notifications.scope, 'personal')));
    const before = { b: (await mine(b)).length, c: (await mine(c)).length, a: (await mine(a)).length };
    assertError(await t.as(b).put(`/api/groups/${g.id}`, { notify_threshold: 50 }), 403, 40302);
    const set = expectOk(await t.as(a).put(`/api/groups/${g.id}`, { notify_threshold: 50 }));
    assert.equal(set.notify_threshold, 50);
    const small = expectOk(await expense(a, 49.99), 201);
    assert.equal((await mine(b)).length, before.b);
    expectOk(await t.as(b).put('/api/me', { notify_splits: false }));
    assert.equal(expectOk(await t.as(b).get('/api/me')).notify_splits, false);
    const big = expectOk(
      await expense(a, 60, { split: { mode: 'equal', members: [{ user_id: b.id }, { user_id: c.id }] } }),
      201,
    );
    assert.equal((await mine(b)).length, before.b, 'opted out');
    const toC = await mine(c);
    assert.equal(toC.length, before.c + 1);
    assert.match(toC.at(-1)!.content, /30\.00 CNY/);
    // c sees it in the notification list
    const list = expectOk(await t.as(c).get('/api/notifications'));
    assert.ok(list.list.some((n: { id: number }) => n.id === toC.at(-1)!.id));
    // settlements notify the other side: recorded, then confirmed
    const s = expectOk(
      await t.as(c).post(`/api/groups/${g.id}/settlements`, { from: c.id, to: a.id, amount: 30 }),
      201,
    );
    assert.equal((await mine(a)).length, before.a + 1);
    expectOk(await t.as(a).post(`/api/settlements/${s.id}/confirm`));
    assert.equal((await mine(c)).length, before.c + 2);
    expectOk(await t.as(b).put('/api/me', { notify_splits: true }));
    expectOk(await t.as(a).put(`/api/groups/${g.id}`, { notify_threshold: null }));
    expectOk(await t.as(b).post(`/api/groups/${g.id}/settlements`, { from: b.id, to: a.id, amount: 30 }), 201);
    for (const id of [small.id, big.id]) no(await t.as(a).delete(`/api/transactions/${id}`));
    // deleting the records leaves the settlements: a now owes them back
    assert.equal(await net(a), -60);
  });

  it('"my share" in personal statistics counts a quarter of a dinner for four', async () => {
    const u = [await createUser(t.db), await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    const gg = expectOk(await t.as(u[0]!).post('/api/groups', { name: 'Dinner', split_costs: true }), 201);
    for (const x of u.slice(1)) await addMember(t.db, gg.id, x.id);
    const food = (await firstCategory(t.db, u[0]!.id)).id;
    expectOk(
      await t.as(u[0]!).post('/api/transactions', {
        kind: 'expense',
        amount: 100,
        category_id: food,
        date: '2026-03-10',
        group_id: gg.id,
      }),
      201,
    );
    expectOk(
      await t
        .as(u[0]!)
        .post('/api/transactions', { kind: 'expense', amount: 7, category_id: food, date: '2026-03-11' }),
      201,
    );
    const q = { date: '2026-03-10' };
    assert.equal(expectOk(await t.as(u[0]!).get('/api/stats/overview', { query: q })).expense, 107);
    assert.equal(
      expectOk(await t.as(u[0]!).get('/api/stats/overview', { query: { ...q, view: 'share' } })).expense,
      32,
    );
    // a member who paid nothing: nothing paid, a quarter borne
    assert.equal(expectOk(await t.as(u[1]!).get('/api/stats/overview', { query: q })).expense, 0);
    const share = expectOk(await t.as(u[1]!).get('/api/stats/summary', { query: { ...q, view: 'share' } }));
    assert.equal(share.overview.expense, 25);
    assert.equal(share.category_share.total, 25);
    assertError(
      await t.as(u[1]!).get('/api/stats/overview', { query: { ...q, view: 'share', group_id: gg.id } }),
      400,
      40001,
    );
    assertError(await t.as(u[1]!).get('/api/stats/overview', { query: { ...q, view: 'mine' } }), 400, 40001);
    // recorded by u1 for u2 as payer: not in u1's "paid"
    const food1 = (await firstCategory(t.db, u[1]!.id)).id;
    expectOk(
      await t.as(u[1]!).post('/api/transactions', {
        kind: 'expense',
        amount: 40,
        category_id: food1,
        date: '2026-03-10',
        group_id: gg.id,
        paid_by: u[2]!.id,
      }),
      201,
    );
    assert.equal(expectOk(await t.as(u[1]!).get('/api/stats/overview', { query: q })).expense, 0);
    assert.equal(
      expectOk(await t.as(u[1]!).get('/api/stats/overview', { query: { ...q, view: 'share' } })).expense,
      35,
    );
  });

  it('group currency: amounts in its minor units; it changes only before anything is recorded', async () => {
    const jp = expectOk(await t.as(a).post('/api/groups', { name: 'Osaka', currency: 'JPY', split_costs: true }), 201);
    await addMember(t.db, jp.id, b.id);
    expectOk(await t.as(a).put(`/api/groups/${jp.id}`, { currency: 'USD' }));
    expectOk(await t.as(a).put(`/api/groups/${jp.id}`, { currency: 'JPY', notify_threshold: 1000 }));
    assertError(await t.as(a).put(`/api/groups/${jp.id}`, { notify_threshold: 10.5 }), 400, 40001);
    assertError(await t.as(a).put(`/api/groups/${jp.id}`, { currency: 'XYZ' }), 400, 40001);
    // recorded from the payer's account in yen (the default account is in yuan: refused)
    assertError(await expense(a, 3, {}, jp.id), 400, 40001);
    const [yen] = await t.db
      .insert(accounts)
      .values({
        userId: a.id,
        name: 'Yen',
        type: 'cash',
        currency: 'JPY',
        openingDate: '2026-01-01',
        color: '#123456',
        icon: 'cash',
      })
      .returning();
    await t.db
      .insert(exchangeRates)
      .values({ userId: a.id, currency: 'JPY', date: '2026-01-01', rate: '0.05', source: 'manual' });
    const tx = expectOk(await expense(a, 3, { account_id: yen!.id }, jp.id), 201);
    // shares are whole yen and add up to the record's amount
    assert.equal(
      tx.shares.reduce((sum: number, x: { amount: number }) => sum + x.amount, 0),
      tx.amount,
    );
    assert.ok(tx.shares.every((x: { amount: number }) => Number.isInteger(x.amount)));
    // another member recorded as payer: no account of the recorder moves
    const forB = expectOk(await expense(a, 5, { paid_by: b.id }, jp.id), 201);
    assert.equal(forB.account_id, null);
    // b: a share of the first; paid the second and bears a share of it
    const shareOf = (r: { shares: { user_id: number; amount: number }[] }) =>
      r.shares.find((x) => x.user_id === b.id)!.amount;
    assert.equal((await balances(a, jp.id)).get(b.id)!.net, -shareOf(tx) + forB.amount - shareOf(forB));
    no(await t.as(a).delete(`/api/transactions/${forB.id}`));
    assertError(await t.as(a).put(`/api/groups/${jp.id}`, { currency: 'USD' }), 422, 42201);
    const bal = expectOk(await t.as(b).get(`/api/groups/${jp.id}/balances`));
    assert.equal(bal.currency, 'JPY');
    assertError(
      await t.as(b).post(`/api/groups/${jp.id}/settlements`, { from: b.id, to: a.id, amount: '0.5' }),
      400,
      40001,
    );
    no(await t.as(a).delete(`/api/transactions/${tx.id}`));
  });

  it('a group that does not split costs (the default) keeps shared books: no shares unless a record brings a split', async () => {
    const home = expectOk(await t.as(a).post('/api/groups', { name: 'Home' }), 201);
    assert.equal(home.split_costs, false);
    await addMember(t.db, home.id, b.id);
    const listed = expectOk(await t.as(b).get('/api/groups')).list.find((x: { id: number }) => x.id === home.id);
    assert.equal(listed.split_costs, false);
    const day = { date: '2026-05-10' };
    const rent = expectOk(await expense(a, 100, day, home.id), 201);
    assert.deepEqual(rent.shares, []);
    assert.equal(rent.split, null);
    assert.equal(rent.paid_by, a.id);
    const byB = expectOk(await expense(b, 30, { ...day, paid_by: a.id }, home.id), 201);
    assert.deepEqual(byB.shares, []);
    let body = expectOk<{ split_costs: boolean; list: Bal[] }>(await t.as(b).get(`/api/groups/${home.id}/balances`));
    assert.equal(body.split_costs, false);
    for (const x of body.list) assert.deepEqual([x.paid, x.share, x.net], [0, 0, 0], `user ${x.user_id}`);
    assert.deepEqual(expectOk(await t.as(a).get(`/api/groups/${home.id}/settlements/suggested`)).list, []);
    // an explicit split always counts, and only it makes a balance
    const gift = expectOk(
      await expense(
        b,
        40,
        { ...day, split: { mode: 'equal', members: [{ user_id: a.id }, { user_id: b.id }] } },
        home.id,
      ),
      201,
    );
    assert.deepEqual(gift.shares, [
      { user_id: a.id, amount: 20 },
      { user_id: b.id, amount: 20 },
    ]);
    body = expectOk(await t.as(a).get(`/api/groups/${home.id}/balances`));
    const nets = new Map(body.list.map((x) => [x.user_id, x.net]));
    assert.equal(nets.get(a.id), -20);
    assert.equal(nets.get(b.id), 20);
    // an unshared record is borne by the one who recorded it in their "my share" statistics
    const q = { ...day, view: 'share' };
    assert.equal(expectOk(await t.as(a).get('/api/stats/overview', { query: q })).expense, 120);
    assert.equal(expectOk(await t.as(b).get('/api/stats/overview', { query: q })).expense, 50);
    // a group without split_costs dissolves as the first contract says, whatever splits left behind
    no(await t.as(a).post(`/api/groups/${home.id}/dissolve`));
    assert.equal(
      expectOk(await t.as(b).get(`/api/groups/${home.id}/balances`)).list.find((x: Bal) => x.user_id === b.id).net,
      20,
    );
  });

  it('turning split_costs on shares records from then on; turning it off keeps the shares already recorded', async () => {
    const flat = expectOk(await t.as(a).post('/api/groups', { name: 'Shared flat', split_costs: false }), 201);
    await addMember(t.db, flat.id, b.id);
    const before = expectOk(await expense(a, 10, {}, flat.id), 201);
    assertError(await t.as(b).put(`/api/groups/${flat.id}`, { split_costs: true }), 403, 40302);
    assertError(await t.as(a).put(`/api/groups/${flat.id}`, { split_costs: 'yes' }), 400, 40001);
    const on = expectOk(await t.as(a).put(`/api/groups/${flat.id}`, { split_costs: true }));
    assert.equal(on.split_costs, true);
    assert.equal(expectOk(await t.as(b).get(`/api/groups/${flat.id}`)).split_costs, true);
    const after1 = expectOk(await expense(a, 20, {}, flat.id), 201);
    assert.equal(after1.shares.length, 2);
    // no retroactive shares: editing the older record leaves it unshared
    assert.deepEqual(expectOk(await t.as(a).put(`/api/transactions/${before.id}`, { amount: 12 })).shares, []);
    // a personal record moved into the group is new to it: shared
    const own = expectOk(
      await t
        .as(b)
        .post('/api/transactions', { kind: 'expense', amount: 8, category_id: cat.get(b.id), date: '2026-03-10' }),
      201,
    );
    assert.equal(expectOk(await t.as(b).put(`/api/transactions/${own.id}`, { group_id: flat.id })).shares.length, 2);
    let bal = expectOk(await t.as(a).get(`/api/groups/${flat.id}/balances`));
    assert.equal(bal.split_costs, true);
    assert.equal(bal.list.find((x: Bal) => x.user_id === b.id).net, -6);
    expectOk(await t.as(a).put(`/api/groups/${flat.id}`, { split_costs: false }));
    // the shares recorded while it was on stay, and follow an edit of the amount
    assert.equal(expectOk(await t.as(a).get(`/api/transactions/${after1.id}`)).shares.length, 2);
    assert.equal(expectOk(await t.as(a).put(`/api/transactions/${after1.id}`, { amount: 30 })).shares.length, 2);
    const later = expectOk(await expense(a, 50, {}, flat.id), 201);
    assert.deepEqual(later.shares, []);
    bal = expectOk(await t.as(a).get(`/api/groups/${flat.id}/balances`));
    assert.equal(bal.split_costs, false);
    assert.equal(bal.list.find((x: Bal) => x.user_id === b.id).net, -11);
    // a group that does not split any more dissolves although balances remain
    no(await t.as(a).post(`/api/groups/${flat.id}/dissolve`));
  });

  it('a former member with a balance may read it, settle it, and confirm or take back payments; nothing else of the group', async () => {
    const [o, m, gone, left] = [
      await createUser(t.db),
      await createUser(t.db),
      await createUser(t.db),
      await createUser(t.db),
    ];
    for (const u of [o, m, gone, left]) cat.set(u.id, (await firstCategory(t.db, u.id)).id);
    const gg = expectOk(await t.as(o).post('/api/groups', { name: 'Club', split_costs: true }), 201);
    for (const u of [m, gone, left]) await addMember(t.db, gg.id, u.id);
    expectOk(await expense(o, 80, {}, gg.id), 201);
    expectOk(
      await expense(
        m,
        40,
        {
          split: {
            mode: 'exact',
            members: [
              { user_id: m.id, value: 20 },
              { user_id: left.id, value: 20 },
            ],
          },
        },
        gg.id,
      ),
      201,
    );
    // o +60, m 0 (paid 40, shares 20 + 20), gone -20, left -40: the removed member sees their line and the creditor's
    no(await t.as(o).post(`/api/groups/${gg.id}/remove-member`, { user_id: gone.id }));
    no(await t.as(left).post(`/api/groups/${gg.id}/leave`));
    const seen = expectOk<{ list: Bal[] }>(await t.as(gone).get(`/api/groups/${gg.id}/balances`));
    assert.deepEqual(
      seen.list.map((x) => [x.user_id, x.net, x.member]),
      [
        [o.id, 60, true],
        [gone.id, -20, false],
      ],
    );
    expectOk(await t.as(left).get(`/api/groups/${gg.id}/balances`));
    assert.deepEqual(
      expectOk(await t.as(gone).get(`/api/groups/${gg.id}/settlements/suggested`)).list.every(
        (s: { from: number; to: number }) => s.from === gone.id || s.to === gone.id,
      ),
      true,
    );
    // nothing else of the group
    assertError(await t.as(gone).get(`/api/transactions?group_id=${gg.id}`), 403, 40302, 'records list');
    assertError(await expense(gone, 5, {}, gg.id), 403, 40302, 'new record');
    assertError(await t.as(gone).get(`/api/groups/${gg.id}`), 403, 40302, 'group');
    assertError(await t.as(gone).get(`/api/groups/${gg.id}/members`), 403, 40302, 'members');
    assertError(
      await t.as(gone).post(`/api/groups/${gg.id}/settlements`, { from: gone.id, to: o.id, amount: 20.01 }),
      409,
      40901,
      'more than owed',
    );
    // records a payment of part of it; the owner confirms
    const part = expectOk(
      await t.as(gone).post(`/api/groups/${gg.id}/settlements`, { from: gone.id, to: o.id, amount: 5 }),
      201,
    );
    expectOk(await t.as(o).post(`/api/settlements/${part.id}/confirm`));
    // the owner records the rest; the removed member confirms it
    const rest = expectOk(
      await t.as(o).post(`/api/groups/${gg.id}/settlements`, { from: gone.id, to: o.id, amount: 15 }),
      201,
    );
    assert.deepEqual(
      expectOk(await t.as(gone).get(`/api/groups/${gg.id}/settlements`)).list.map((s: { id: number }) => s.id),
      [rest.id, part.id],
    );
    const conf = expectOk(await t.as(gone).post(`/api/settlements/${rest.id}/confirm`));
    assert.equal(conf.confirmed, true);
    // settled and nothing awaiting: the group is closed to them again
    assertError(await t.as(gone).get(`/api/groups/${gg.id}/balances`), 403, 40302, 'settled');
    assertError(await t.as(gone).get(`/api/groups/${gg.id}/settlements`), 403, 40302, 'settled history');
    // the member who left takes back a payment they recorded, before it is confirmed
    const mine = expectOk(
      await t.as(left).post(`/api/groups/${gg.id}/settlements`, { from: left.id, to: o.id, amount: 40 }),
      201,
    );
    expectOk(await t.as(left).get(`/api/groups/${gg.id}/balances`), 200, 'a payment awaits confirmation');
    no(await t.as(left).delete(`/api/settlements/${mine.id}`));
    assert.equal((await balances(o, gg.id)).get(left.id)!.net, -40);
    // a settlement of someone else stays out of reach of people outside the group
    assertError(await t.as(gone).post(`/api/settlements/${part.id}/confirm`), 422, 42201, 'own record');
    assertError(await t.as(stranger).get(`/api/groups/${gg.id}/balances`), 403, 40302);
    assertError(await t.as(stranger).post(`/api/settlements/${rest.id}/confirm`), 404, 40401);
    assertError(
      await t.as(left).post(`/api/settlements/${rest.id}/confirm`),
      404,
      40401,
      'a former member, not a party',
    );
  });

  it('dissolving with unsettled balances needs force; the balances then stay readable and frozen', async () => {
    const gg = expectOk(await t.as(a).post('/api/groups', { name: 'Flat', split_costs: true }), 201);
    await addMember(t.db, gg.id, b.id);
    const tx = expectOk(await expense(a, 50, {}, gg.id), 201);
    assertError(await t.as(a).post(`/api/groups/${gg.id}/dissolve`), 422, 42201);
    assertError(await t.as(b).post(`/api/groups/${gg.id}/dissolve?force=true`), 403, 40302);
    no(await t.as(a).post(`/api/groups/${gg.id}/dissolve?force=true`));
    assert.equal(await net(b, gg.id), -25);
    assertError(
      await t.as(b).post(`/api/groups/${gg.id}/settlements`, { from: b.id, to: a.id, amount: 25 }),
      409,
      40902,
    );
    // its records can still be corrected by their owners, and the shares follow
    expectOk(await t.as(a).put(`/api/transactions/${tx.id}`, { note: 'rent', amount: 40 }));
    assert.equal(await net(b, gg.id), -20);
    // a settled group dissolves without force
    const g3 = expectOk(await t.as(a).post('/api/groups', { name: 'Even', split_costs: true }), 201);
    expectOk(await expense(a, 50, {}, g3.id), 201);
    no(await t.as(a).post(`/api/groups/${g3.id}/dissolve`));
  });

  it(
    `two members settling the same debt at once settle it once${onPostgres ? ' (PostgreSQL, two instances)' : ' (PostgreSQL only)'}`,
    { skip: !onPostgres },
    async () => {
      const second = await build({}, { database: t.testDb });
      try {
        const gg = expectOk(await t.as(a).post('/api/groups', { name: 'Race', split_costs: true }), 201);
        await addMember(t.db, gg.id, b.id);
        expectOk(await expense(a, 100, {}, gg.id), 201);
        for (let round = 0; round < 5; round++) {
          const results = await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              (i % 2 ? second : t)
                .as(i % 4 < 2 ? a : b)
                .post(`/api/groups/${gg.id}/settlements`, { from: b.id, to: a.id, amount: 50 }),
            ),
          );
          const ok = results.filter((r) => r.statusCode === 201);
          assert.equal(ok.length, round === 0 ? 1 : 0, results.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
          for (const r of results.filter((x) => x.statusCode !== 201)) assert.equal(r.json().code, 40901);
          assert.equal(await net(b, gg.id), 0);
        }
      } finally {
        await second.close();
      }
    },
  );
});
