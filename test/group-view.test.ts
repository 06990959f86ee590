import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { groupMembers } from '../src/db/schema/index.ts';
import {
  assertError,
  build,
  type Client,
  createTag,
  createUser,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

/**
 * The group view end to end over HTTP: members join by code, record group and personal
 * transactions, and see the group's books, statistics and budget; outsiders, leavers and removed
 * members see nothing of it; a dissolved group takes no more writes or joins.
 */

const MONTH = '2025-06';
const ANCHOR = `${MONTH}-15`;

interface Tx {
  id: number;
  amount: number;
  kind: string;
  group_id: number | null;
  user_id: number;
  owner: { id: number; nickname: string; avatar_url: string | null };
  category_id: number;
  note: string;
}

interface Person {
  user: UserRow;
  api: Client;
  expense: number;
  income: number;
}

const ids = (list: { id: number }[]) => list.map((x) => x.id).sort((a, b) => a - b);

describe('group view', () => {
  let t: TestApp;
  let owner: Person;
  let mia: Person;
  let noah: Person;
  let rex: Person;
  let otto: Person;
  let group: { id: number; invite_code: string };
  /** every transaction recorded in the group, by who recorded it */
  const inGroup = new Map<number, Tx[]>();
  /** every personal transaction, by who recorded it */
  const personal = new Map<number, Tx[]>();

  async function person(nickname: string): Promise<Person> {
    const user = await createUser(t.db, { nickname, avatarUrl: `https://img.example/${nickname}.png` });
    return {
      user,
      api: t.as(user),
      expense: (await firstCategory(t.db, user.id, 'expense')).id,
      income: (await firstCategory(t.db, user.id, 'income')).id,
    };
  }

  async function record(
    p: Person,
    body: {
      kind?: 'expense' | 'income';
      amount: number | string;
      date: string;
      note: string;
      group?: boolean;
      tag_ids?: number[];
    },
  ): Promise<Tx> {
    const kind = body.kind ?? 'expense';
    const res = await p.api.post('/api/transactions', {
      kind,
      amount: body.amount,
      category_id: kind === 'expense' ? p.expense : p.income,
      date: body.date,
      note: body.note,
      ...(body.tag_ids ? { tag_ids: body.tag_ids } : {}),
      ...(body.group ? { group_id: group.id } : {}),
    });
    assert.equal(res.statusCode, 201, res.body);
    const tx = res.json() as Tx;
    assert.equal(tx.group_id, body.group ? group.id : null);
    assert.equal(tx.user_id, p.user.id);
    const book = body.group ? inGroup : personal;
    book.set(p.user.id, [...(book.get(p.user.id) ?? []), tx]);
    return tx;
  }

  const groupTxs = () => [...inGroup.values()].flat();

  async function groupList(p: Person, query = '') {
    return p.api.get(`/api/transactions?group_id=${group.id}&pageSize=100${query}`);
  }

  before(async () => {
    t = await build();
    owner = await person('Olive');
    mia = await person('Mia');
    noah = await person('Noah');
    rex = await person('Rex');
    otto = await person('Otto');
  });
  after(async () => t.close());

  it('creates a group and lets members join by its code, in any letter case, once each', async () => {
    const created = await owner.api.post('/api/groups', { name: '  Flat 4B  ' });
    assert.equal(created.statusCode, 201, created.body);
    group = created.json();
    assert.equal(created.json().name, 'Flat 4B');
    assert.equal(created.json().role, 'owner');
    assert.equal(created.json().member_count, 1);
    assert.match(group.invite_code, /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/);

    const joined = await mia.api.post('/api/groups/join', { invite_code: group.invite_code });
    assert.equal(joined.statusCode, 200, joined.body);
    assert.equal(joined.json().id, group.id);
    assert.equal(joined.json().role, 'member');
    assert.equal(joined.json().invite_code, group.invite_code);

    const lower = await noah.api.post('/api/groups/join', { invite_code: group.invite_code.toLowerCase() });
    assert.equal(lower.statusCode, 200, lower.body);
    assert.equal(lower.json().id, group.id);
    assert.equal(lower.json().member_count, 3);

    // joining again changes nothing
    const again = await mia.api.post('/api/groups/join', { invite_code: group.invite_code.toLowerCase() });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().member_count, 3);
    const rows = await t.db
      .select()
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.userId, mia.user.id)));
    assert.equal(rows.length, 1);

    const members = (await owner.api.get(`/api/groups/${group.id}/members`)).json().list as {
      user_id: number;
      role: string;
    }[];
    assert.deepEqual(
      members.map((m) => m.user_id).sort((a, b) => a - b),
      [owner.user.id, mia.user.id, noah.user.id].sort((a, b) => a - b),
    );
    assert.ok((await otto.api.get('/api/groups')).json().list.every((g: { id: number }) => g.id !== group.id));
  });

  it('records group and personal transactions for every member', async () => {
    const miaTag = await createTag(t.db, mia.user.id, { name: 'shared-rent' });
    await record(owner, { amount: 100, date: `${MONTH}-03`, note: 'groceries', group: true });
    await record(owner, { kind: 'income', amount: '50.00', date: `${MONTH}-04`, note: 'refund', group: true });
    await record(owner, { amount: 7, date: `${MONTH}-05`, note: 'owner coffee' });
    await record(mia, { amount: '30.25', date: `${MONTH}-03`, note: 'cleaning', group: true, tag_ids: [miaTag.id] });
    await record(mia, { amount: 11, date: `${MONTH}-06`, note: 'mia lunch' });
    await record(noah, { amount: 20, date: `${MONTH}-10`, note: 'light bulbs', group: true });
    await record(noah, { kind: 'income', amount: 300, date: `${MONTH}-10`, note: 'noah salary' });
    await record(otto, { amount: 999, date: `${MONTH}-10`, note: 'otto private' });
    assert.equal(groupTxs().length, 4);
  });

  it("lists every member's group transactions, with their owner, and sums the whole group", async () => {
    for (const p of [owner, mia, noah]) {
      const res = await groupList(p);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { list: Tx[]; total: number; sums: Record<string, number> };
      assert.deepEqual(ids(body.list), ids(groupTxs()));
      assert.equal(body.total, 4);
      assert.deepEqual(body.sums, { income: 50, expense: 150.25, balance: -100.25, count: 4 });
      for (const tx of body.list) {
        const who = [owner, mia, noah].find((x) => x.user.id === tx.user_id)!;
        assert.ok(who, `unexpected author ${tx.user_id}`);
        assert.deepEqual(tx.owner, { id: who.user.id, nickname: who.user.nickname, avatar_url: who.user.avatarUrl });
        assert.equal(tx.group_id, group.id);
      }
      // one member's tag is shown to the others on the shared row
      const cleaning = body.list.find((x) => x.note === 'cleaning') as Tx & { tags: { name: string }[] };
      assert.deepEqual(
        cleaning.tags.map((x) => x.name),
        ['shared-rent'],
      );
    }
    // sums cover the whole result, not the page
    const paged = await owner.api.get(`/api/transactions?group_id=${group.id}&pageSize=2&page=2`);
    assert.equal(paged.statusCode, 200, paged.body);
    const page = paged.json();
    assert.equal(page.list.length, 2);
    assert.equal(page.total, 4);
    assert.deepEqual(page.sums, { income: 50, expense: 150.25, balance: -100.25, count: 4 });
    // the group's filters still apply
    const expenses = (await groupList(mia, '&kind=expense&sort=amount_asc')).json();
    assert.deepEqual(
      expenses.list.map((x: Tx) => x.amount),
      [20, 30.25, 100],
    );
  });

  it('narrows the group view to one member with user_id', async () => {
    for (const [who, expected] of [
      [mia, { income: 0, expense: 30.25, balance: -30.25, count: 1 }],
      [owner, { income: 50, expense: 100, balance: -50, count: 2 }],
      [noah, { income: 0, expense: 20, balance: -20, count: 1 }],
    ] as const) {
      const res = await groupList(noah, `&user_id=${who.user.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(ids(res.json().list), ids(inGroup.get(who.user.id)!));
      assert.ok(res.json().list.every((x: Tx) => x.user_id === who.user.id));
      assert.deepEqual(res.json().sums, expected);
    }
    // someone who never recorded in the group: nothing
    const none = (await groupList(mia, `&user_id=${otto.user.id}`)).json();
    assert.deepEqual(none.list, []);
    assert.equal(none.sums.count, 0);
    // user_id outside the group view is refused
    assertError(
      await mia.api.get(`/api/transactions?user_id=${owner.user.id}`),
      400,
      40001,
      'user_id without group_id',
    );
  });

  it('shows each user exactly their own transactions without group_id, group ones included', async () => {
    for (const p of [owner, mia, noah, otto]) {
      const res = await p.api.get('/api/transactions?pageSize=100');
      assert.equal(res.statusCode, 200, res.body);
      const own = [...(inGroup.get(p.user.id) ?? []), ...(personal.get(p.user.id) ?? [])];
      assert.deepEqual(ids(res.json().list), ids(own), p.user.nickname);
      assert.ok(res.json().list.every((x: Tx) => x.user_id === p.user.id));
    }
    const mine = (await mia.api.get('/api/transactions')).json();
    assert.deepEqual(mine.sums, { income: 0, expense: 41.25, balance: -41.25, count: 2 });
  });

  it("lets members read, but not change or delete, another member's group transaction", async () => {
    const ownersTx = inGroup.get(owner.user.id)![0]!;
    const read = await mia.api.get(`/api/transactions/${ownersTx.id}`);
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json().user_id, owner.user.id);
    assertError(
      await mia.api.put(`/api/transactions/${ownersTx.id}`, { note: 'mine now' }),
      404,
      40401,
      'member edits',
    );
    assertError(await mia.api.delete(`/api/transactions/${ownersTx.id}`), 404, 40401, 'member deletes');
    assert.equal((await owner.api.get(`/api/transactions/${ownersTx.id}`)).json().note, 'groceries');
    // an outsider cannot even read it
    assertError(await otto.api.get(`/api/transactions/${ownersTx.id}`), 404, 40401, 'outsider reads');
  });

  it("counts every member's group transactions in the group statistics", async () => {
    const q = `group_id=${group.id}&date=${ANCHOR}`;
    const summary = await mia.api.get(`/api/stats/summary?${q}`);
    assert.equal(summary.statusCode, 200, summary.body);
    const s = summary.json();
    assert.deepEqual(s.overview, {
      start: `${MONTH}-01`,
      end: `${MONTH}-30`,
      income: 50,
      expense: 150.25,
      balance: -100.25,
      count: 4,
      daily_average: 5.01,
    });
    // each member's own "Food" is one line of the group's share, named once, with all three ids
    const expectedShare = {
      total: 150.25,
      list: [
        {
          category_id: owner.expense,
          category_ids: [owner.expense, mia.expense, noah.expense],
          name: 'Food',
          amount: 150.25,
          count: 3,
          percent: 100,
        },
      ],
    };
    const shareOf = (x: {
      total: number;
      list: {
        category_id: number;
        category_ids: number[];
        name: string;
        amount: number;
        count: number;
        percent: number;
      }[];
    }) => ({
      total: x.total,
      list: x.list.map(({ category_id, category_ids, name, amount, count, percent }) => ({
        category_id,
        category_ids,
        name,
        amount,
        count,
        percent,
      })),
    });
    assert.deepEqual(shareOf(s.category_share), expectedShare);
    assert.equal(s.max.transaction.id, inGroup.get(owner.user.id)![0]!.id);
    assert.equal(s.max.transaction.owner.id, owner.user.id);
    const points = (s.trend.list as { date: string; amount: number; count: number }[]).filter((p) => p.count > 0);
    assert.deepEqual(points, [
      { date: `${MONTH}-03`, amount: 130.25, count: 2 },
      { date: `${MONTH}-10`, amount: 20, count: 1 },
    ]);
    assert.equal(s.trend.list.length, 30);
    assert.deepEqual(s.compare.current, { start: `${MONTH}-01`, end: `${MONTH}-30`, income: 50, expense: 150.25 });

    // each statistic alone answers the same for any member
    const overview = await owner.api.get(`/api/stats/overview?${q}`);
    assert.equal(overview.statusCode, 200, overview.body);
    assert.deepEqual(overview.json(), s.overview);
    const share = await noah.api.get(`/api/stats/category-share?${q}`);
    assert.equal(share.statusCode, 200, share.body);
    assert.deepEqual(shareOf(share.json()), expectedShare);
    const income = (await noah.api.get(`/api/stats/category-share?${q}&type=income`)).json();
    assert.equal(income.total, 50);
    assert.deepEqual(
      income.list.map((x: { category_id: number }) => x.category_id),
      [owner.income],
    );

    // without group_id, statistics stay personal (the group ones the user recorded included)
    const own = (await mia.api.get(`/api/stats/overview?date=${ANCHOR}`)).json();
    assert.equal(own.expense, 41.25);
    assert.equal(own.count, 2);
  });

  it('refuses the group view, its statistics, its budget and writes into it to a non-member (40302)', async () => {
    await assertOutsider(otto, 'outsider');
    // and the outsider's own books did not change
    assert.deepEqual(ids((await otto.api.get('/api/transactions')).json().list), ids(personal.get(otto.user.id)!));
  });

  async function assertOutsider(p: Person, who: string) {
    const g = group.id;
    const before = ids((await p.api.get('/api/transactions?pageSize=100')).json().list);
    assertError(await groupList(p), 403, 40302, `${who} list`);
    assertError(await groupList(p, `&user_id=${owner.user.id}`), 403, 40302, `${who} list one member`);
    for (const path of ['summary', 'overview', 'category-share', 'trend', 'max', 'compare']) {
      assertError(
        await p.api.get(`/api/stats/${path}?group_id=${g}&date=${ANCHOR}`),
        403,
        40302,
        `${who} stats ${path}`,
      );
    }
    assertError(await p.api.get(`/api/budget?group_id=${g}&month=${MONTH}`), 403, 40302, `${who} budget`);
    assertError(
      await p.api.put('/api/budget', { month: MONTH, amount: 1, group_id: g }),
      403,
      40302,
      `${who} sets group budget`,
    );
    assertError(
      await p.api.put('/api/budget/mine', { month: MONTH, amount: 1, group_id: g }),
      403,
      40302,
      `${who} sets own amount`,
    );
    const create = await p.api.post('/api/transactions', {
      kind: 'expense',
      amount: 1,
      category_id: p.expense,
      date: `${MONTH}-20`,
      group_id: g,
    });
    assertError(create, 403, 40302, `${who} records into the group`);
    const personalTx = personal.get(p.user.id)?.[0];
    if (personalTx) {
      assertError(
        await p.api.put(`/api/transactions/${personalTx.id}`, { group_id: g }),
        403,
        40302,
        `${who} moves into the group`,
      );
      assert.equal((await p.api.get(`/api/transactions/${personalTx.id}`)).json().group_id, null);
    }
    assert.deepEqual(
      ids((await p.api.get('/api/transactions?pageSize=100')).json().list),
      before,
      `${who}: nothing was written`,
    );
  }

  it('answers the group budget with the member amounts; only the owner sets the group budget', async () => {
    const url = `/api/budget?group_id=${group.id}&month=${MONTH}`;
    const unset = await mia.api.get(url);
    assert.equal(unset.statusCode, 200, unset.body);
    assert.deepEqual(unset.json(), {
      month: MONTH,
      group_id: group.id,
      amount: null,
      spent: 150.25,
      myAmount: null,
      mySpent: 30.25,
    });

    const set = await owner.api.put('/api/budget', { month: MONTH, amount: 500, group_id: group.id });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.json(), {
      month: MONTH,
      group_id: group.id,
      amount: 500,
      spent: 150.25,
      myAmount: null,
      mySpent: 100,
    });

    assertError(
      await mia.api.put('/api/budget', { month: MONTH, amount: 1, group_id: group.id }),
      403,
      40302,
      'member sets the group budget',
    );
    assertError(
      await mia.api.put('/api/budget', { month: MONTH, amount: null, group_id: group.id }),
      403,
      40302,
      'member clears the group budget',
    );

    const mine = await mia.api.put('/api/budget/mine', { month: MONTH, amount: '80.50', group_id: group.id });
    assert.equal(mine.statusCode, 200, mine.body);
    assert.deepEqual(mine.json(), {
      month: MONTH,
      group_id: group.id,
      amount: 500,
      spent: 150.25,
      myAmount: 80.5,
      mySpent: 30.25,
    });

    // another member sees the group's budget but not Mia's own amount
    assert.deepEqual((await noah.api.get(url)).json(), {
      month: MONTH,
      group_id: group.id,
      amount: 500,
      spent: 150.25,
      myAmount: null,
      mySpent: 20,
    });
    assert.deepEqual((await owner.api.get(url)).json(), {
      month: MONTH,
      group_id: group.id,
      amount: 500,
      spent: 150.25,
      myAmount: null,
      mySpent: 100,
    });
    // personal budgets are untouched by the group's
    assert.deepEqual((await mia.api.get(`/api/budget?month=${MONTH}`)).json(), {
      month: MONTH,
      amount: null,
      spent: 41.25,
      remaining: null,
    });
    // another month has nothing set
    assert.deepEqual((await mia.api.get(`/api/budget?group_id=${group.id}&month=2025-07`)).json(), {
      month: '2025-07',
      group_id: group.id,
      amount: null,
      spent: 0,
      myAmount: null,
      mySpent: 0,
    });

    // clearing answers null again, not 0
    const cleared = await owner.api.put('/api/budget', { month: MONTH, amount: null, group_id: group.id });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(cleared.json().amount, null);
    assert.equal((await mia.api.get(url)).json().amount, null);
    assert.equal((await mia.api.get(url)).json().myAmount, 80.5);
    const reset = await owner.api.put('/api/budget', { month: MONTH, amount: '420.5', group_id: group.id });
    assert.equal(reset.json().amount, 420.5);
  });

  it("keeps a leaver's transactions in the group view while the leaver loses the view", async () => {
    assertError(await owner.api.post(`/api/groups/${group.id}/leave`), 422, 42201, 'owner leaves');
    const left = await noah.api.post(`/api/groups/${group.id}/leave`);
    assert.equal(left.statusCode, 204, left.body);

    await assertOutsider(noah, 'leaver');
    assert.ok((await noah.api.get('/api/groups')).json().list.every((g: { id: number }) => g.id !== group.id));

    // the leaver's group transaction keeps its group_id, in their own books
    const noahGroupTx = inGroup.get(noah.user.id)![0]!;
    const own = (await noah.api.get('/api/transactions?pageSize=100')).json().list as Tx[];
    assert.deepEqual(ids(own), ids([...inGroup.get(noah.user.id)!, ...personal.get(noah.user.id)!]));
    assert.equal(own.find((x) => x.id === noahGroupTx.id)!.group_id, group.id);
    assert.equal((await noah.api.get(`/api/transactions/${noahGroupTx.id}`)).json().group_id, group.id);
    // but the other members' group transactions are out of reach now
    assertError(
      await noah.api.get(`/api/transactions/${inGroup.get(owner.user.id)![0]!.id}`),
      404,
      40401,
      'leaver reads a group transaction',
    );

    // the remaining members still see it, in the list, the sums, the statistics and the budget
    for (const p of [owner, mia]) {
      const body = (await groupList(p)).json();
      assert.deepEqual(ids(body.list), ids(groupTxs()));
      assert.deepEqual(body.sums, { income: 50, expense: 150.25, balance: -100.25, count: 4 });
      assert.equal(body.list.find((x: Tx) => x.id === noahGroupTx.id).owner.nickname, 'Noah');
      assert.deepEqual(ids((await groupList(p, `&user_id=${noah.user.id}`)).json().list), [noahGroupTx.id]);
      assert.equal((await p.api.get(`/api/transactions/${noahGroupTx.id}`)).statusCode, 200);
    }
    assert.equal((await mia.api.get(`/api/stats/overview?group_id=${group.id}&date=${ANCHOR}`)).json().expense, 150.25);
    assert.equal((await mia.api.get(`/api/budget?group_id=${group.id}&month=${MONTH}`)).json().spent, 150.25);
  });

  it('treats a removed member like a leaver', async () => {
    const joined = await rex.api.post('/api/groups/join', { invite_code: group.invite_code });
    assert.equal(joined.statusCode, 200, joined.body);
    const rexTx = await record(rex, { amount: '9.75', date: `${MONTH}-12`, note: 'batteries', group: true });
    assert.equal((await groupList(owner)).json().sums.expense, 160);

    assertError(
      await mia.api.post(`/api/groups/${group.id}/remove-member`, { user_id: rex.user.id }),
      403,
      40302,
      'member removes',
    );
    const removed = await owner.api.post(`/api/groups/${group.id}/remove-member`, { user_id: rex.user.id });
    assert.equal(removed.statusCode, 204, removed.body);

    await assertOutsider(rex, 'removed member');
    assert.equal((await rex.api.get(`/api/transactions/${rexTx.id}`)).json().group_id, group.id);
    for (const p of [owner, mia]) {
      const body = (await groupList(p)).json();
      assert.deepEqual(ids(body.list), ids(groupTxs()));
      assert.deepEqual(body.sums, { income: 50, expense: 160, balance: -110, count: 5 });
    }
    assert.equal(
      (await mia.api.get(`/api/stats/summary?group_id=${group.id}&date=${ANCHOR}`)).json().overview.count,
      5,
    );
  });

  it('takes no more writes or joins once dissolved, and keeps its books readable to its members', async () => {
    assertError(await mia.api.post(`/api/groups/${group.id}/dissolve`), 403, 40302, 'member dissolves');
    // a group of the first contract keeps shared books, not debts: its records by several members
    // leave nothing to settle, and it dissolves with 204 as that contract says
    const dissolved = await owner.api.post(`/api/groups/${group.id}/dissolve`);
    assert.equal(dissolved.statusCode, 204, dissolved.body);

    for (const p of [owner, mia]) {
      const create = await p.api.post('/api/transactions', {
        kind: 'expense',
        amount: 5,
        category_id: p.expense,
        date: `${MONTH}-20`,
        group_id: group.id,
      });
      assertError(create, 409, 40902, `${p.user.nickname} records into the dissolved group`);
      const move = await p.api.put(`/api/transactions/${personal.get(p.user.id)![0]!.id}`, { group_id: group.id });
      assertError(move, 409, 40902, `${p.user.nickname} moves into the dissolved group`);
      assertError(
        await p.api.put('/api/budget/mine', { month: MONTH, amount: 1, group_id: group.id }),
        409,
        40902,
        'own amount in a dissolved group',
      );
    }
    assertError(
      await owner.api.put('/api/budget', { month: MONTH, amount: 1, group_id: group.id }),
      409,
      40902,
      'group budget of a dissolved group',
    );
    for (const p of [otto, noah, mia]) {
      assertError(
        await p.api.post('/api/groups/join', { invite_code: group.invite_code }),
        409,
        40902,
        `${p.user.nickname} joins`,
      );
      assertError(
        await p.api.post('/api/groups/join', { invite_code: group.invite_code.toLowerCase() }),
        409,
        40902,
        `${p.user.nickname} joins (lower case)`,
      );
    }
    assertError(await otto.api.get(`/api/transactions?group_id=${group.id}`), 403, 40302, 'outsider after dissolve');
    assertError(await noah.api.get(`/api/transactions?group_id=${group.id}`), 403, 40302, 'leaver after dissolve');

    // nothing was written, and every transaction keeps its group_id
    const body = (await groupList(mia)).json();
    assert.deepEqual(ids(body.list), ids(groupTxs()));
    assert.ok(body.list.every((x: Tx) => x.group_id === group.id));
    assert.equal(body.sums.count, 5);
    assert.ok((await owner.api.get('/api/groups')).json().list.every((g: { id: number }) => g.id !== group.id));
    const members = (await mia.api.get(`/api/groups/${group.id}/members`)).json().list as { user_id: number }[];
    assert.deepEqual(
      members.map((m) => m.user_id).sort((a, b) => a - b),
      [owner.user.id, mia.user.id].sort((a, b) => a - b),
    );
  });
});
