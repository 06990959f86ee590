import assert from 'node:assert/strict';
import { systemClock } from '../src/lib/clock.ts';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { categories, groupMembers, groups, transactions } from '../src/db/schema/index.ts';
import { AppError } from '../src/lib/errors.ts';
import { createGroupsService, randomInviteCode } from '../src/modules/groups/groups.service.ts';
import {
  addMember,
  assertError,
  build,
  createGroup,
  createTransaction,
  createUser,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

const CODE_RE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/;

describe('groups', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => {
    await t.close();
  });

  const memberRows = (groupId: number) => t.db.select().from(groupMembers).where(eq(groupMembers.groupId, groupId));
  async function unusedCode(): Promise<string> {
    for (;;) {
      const code = randomInviteCode();
      const [hit] = await t.db.select().from(groups).where(eq(groups.inviteCode, code));
      if (!hit) return code;
    }
  }

  it('creates a group whose creator is the owner, with a fresh invite code', async () => {
    const alice = await createUser(t.db);
    const res = await t.as(alice).post('/api/groups', { name: '  Family  ' });
    assert.equal(res.statusCode, 201, res.body);
    const g = res.json();
    assert.deepEqual(Object.keys(g).sort(), [
      'created_at',
      'currency',
      'dissolved',
      'id',
      'invite_code',
      'member_count',
      'name',
      'notify_threshold',
      'owner_id',
      'role',
      'split_costs',
    ]);
    // a first-version client never sends split_costs: its group keeps shared books
    assert.equal(g.split_costs, false);
    assert.equal(g.name, 'Family');
    assert.equal(g.owner_id, alice.id);
    assert.equal(g.role, 'owner');
    assert.equal(g.member_count, 1);
    assert.match(g.invite_code, CODE_RE);
    assert.match(g.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const rows = await memberRows(g.id);
    assert.deepEqual(
      rows.map((r) => [r.userId, r.role]),
      [[alice.id, 'owner']],
    );
    const other = (await t.as(alice).post('/api/groups', { name: 'Trip' })).json();
    assert.notEqual(other.invite_code, g.invite_code);
  });

  it('checks the group name: 1 to 30 characters after trimming', async () => {
    const u = await createUser(t.db);
    const thirty = '账'.repeat(30);
    const ok = await t.as(u).post('/api/groups', { name: thirty });
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.json().name, thirty);
    for (const name of ['', '   ', 'x'.repeat(31), '账'.repeat(31), 42, null]) {
      assertError(await t.as(u).post('/api/groups', { name }), 400, 40001, `name ${JSON.stringify(name)}`);
    }
    assertError(await t.as(u).post('/api/groups', {}), 400, 40001, 'missing name');
    assertError(await t.anon.post('/api/groups', { name: 'x' }), 401, 40101, 'no token');
  });

  it("lists the caller's live groups only, with role and member count", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const a = await createGroup(t.db, owner.id, { name: 'A' });
    const b = await createGroup(t.db, owner.id, { name: 'B' });
    const gone = await createGroup(t.db, member.id, { name: 'Gone', dissolvedAt: new Date() });
    await addMember(t.db, a.id, member.id);
    const mine = (await t.as(member).get('/api/groups')).json();
    assert.deepEqual(
      mine.list.map((g: { id: number }) => g.id),
      [a.id],
    );
    assert.equal(mine.list[0].role, 'member');
    assert.equal(mine.list[0].member_count, 2);
    assert.equal(mine.list[0].invite_code, a.inviteCode);
    const owners = (await t.as(owner).get('/api/groups')).json();
    assert.deepEqual(owners.list.map((g: { id: number }) => g.id).sort(), [a.id, b.id].sort());
    assert.ok(!owners.list.some((g: { id: number }) => g.id === gone.id));
  });

  it('joins by invite code in any letter case, and a repeated join keeps one membership', async () => {
    const owner = await createUser(t.db);
    const joiner = await createUser(t.db);
    const g = await createGroup(t.db, owner.id);
    const res = await t.as(joiner).post('/api/groups/join', { invite_code: g.inviteCode.toLowerCase() });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().id, g.id);
    assert.equal(res.json().role, 'member');
    assert.equal(res.json().member_count, 2);
    const again = await t.as(joiner).post('/api/groups/join', { invite_code: g.inviteCode });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().member_count, 2);
    const ownerJoin = await t.as(owner).post('/api/groups/join', { invite_code: g.inviteCode });
    assert.equal(ownerJoin.statusCode, 200);
    assert.equal(ownerJoin.json().role, 'owner');
    assert.equal((await memberRows(g.id)).length, 2);
  });

  it('rejects malformed codes (40001) and unknown ones (40401)', async () => {
    const u = await createUser(t.db);
    for (const code of [
      '',
      'ABCDEFG',
      'ABCDEFGHJ',
      'ABCDEFG0',
      'ABCDEFG1',
      'ABCDEFGO',
      'ABCDEFGI',
      'abcdefgi',
      'ABCD EFG',
      'ABCDÉFGH',
      12345678,
      null,
    ]) {
      assertError(
        await t.as(u).post('/api/groups/join', { invite_code: code }),
        400,
        40001,
        `code ${JSON.stringify(code)}`,
      );
    }
    assertError(await t.as(u).post('/api/groups/join', {}), 400, 40001, 'missing code');
    assertError(
      await t.as(u).post('/api/groups/join', { invite_code: await unusedCode() }),
      404,
      40401,
      'unknown code',
    );
  });

  it('refuses a 51st member with 42201', async () => {
    const owner = await createUser(t.db);
    const g = await createGroup(t.db, owner.id);
    for (let i = 0; i < 49; i++) await addMember(t.db, g.id, (await createUser(t.db)).id);
    assert.equal((await memberRows(g.id)).length, 50);
    const late = await createUser(t.db);
    assertError(await t.as(late).post('/api/groups/join', { invite_code: g.inviteCode }), 422, 42201, '51st member');
    assert.equal((await memberRows(g.id)).length, 50);
    // an existing member re-joining a full group is still answered with the group
    const existing = (await memberRows(g.id)).find((r) => r.role === 'member')!;
    const rejoin = await t
      .as({ id: existing.userId } as UserRow)
      .post('/api/groups/join', { invite_code: g.inviteCode });
    assert.equal(rejoin.statusCode, 200);
  });

  it('keeps the member cap under concurrent joins of different users', async () => {
    const owner = await createUser(t.db);
    const g = await createGroup(t.db, owner.id);
    for (let i = 0; i < 47; i++) await addMember(t.db, g.id, (await createUser(t.db)).id);
    const joiners = await Promise.all(Array.from({ length: 6 }, () => createUser(t.db)));
    const results = await Promise.all(
      joiners.map((u) => t.as(u).post('/api/groups/join', { invite_code: g.inviteCode })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    assert.deepEqual(codes, [200, 200, 422, 422, 422, 422]);
    assert.equal((await memberRows(g.id)).length, 50);
  });

  it('50 concurrent joins of one user give exactly one membership', async () => {
    const owner = await createUser(t.db);
    const joiner = await createUser(t.db);
    const g = await createGroup(t.db, owner.id);
    const asJoiner = t.as(joiner);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => asJoiner.post('/api/groups/join', { invite_code: g.inviteCode })),
    );
    for (const r of results) assert.equal(r.statusCode, 200, r.body);
    const mine = await t.db
      .select()
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, g.id), eq(groupMembers.userId, joiner.id)));
    assert.equal(mine.length, 1);
    assert.equal((await memberRows(g.id)).length, 2);
  });

  it('lets members leave, but not the owner; non-members get 40302', async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const stranger = await createUser(t.db);
    const g = await createGroup(t.db, owner.id);
    await addMember(t.db, g.id, member.id);
    const tx = await createTransaction(t.db, member.id, { groupId: g.id });
    assertError(await t.as(owner).post(`/api/groups/${g.id}/leave`), 422, 42201, 'owner leaves');
    assertError(await t.as(stranger).post(`/api/groups/${g.id}/leave`), 403, 40302, 'stranger leaves');
    const res = await t.as(member).post(`/api/groups/${g.id}/leave`);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.deepEqual(
      (await memberRows(g.id)).map((r) => r.userId),
      [owner.id],
    );
    assertError(await t.as(member).post(`/api/groups/${g.id}/leave`), 403, 40302, 'leaves twice');
    const [kept] = await t.db.select().from(transactions).where(eq(transactions.id, tx.id));
    assert.equal(kept!.groupId, g.id);
    assertError(await t.as(member).post('/api/groups/abc/leave'), 400, 40001, 'bad id');
  });

  it('dissolves a group: record and transactions kept, code no longer joins, dissolving twice is 40902', async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const late = await createUser(t.db);
    const g = (await t.as(owner).post('/api/groups', { name: 'Flat' })).json();
    assert.equal((await t.as(member).post('/api/groups/join', { invite_code: g.invite_code })).statusCode, 200);
    const tx = await createTransaction(t.db, member.id, { groupId: g.id });
    assertError(await t.as(member).post(`/api/groups/${g.id}/dissolve`), 403, 40302, 'member dissolves');
    const res = await t.as(owner).post(`/api/groups/${g.id}/dissolve`);
    assert.equal(res.statusCode, 204);
    const [row] = await t.db.select().from(groups).where(eq(groups.id, g.id));
    assert.ok(row!.dissolvedAt instanceof Date);
    assert.equal(row!.inviteCode, g.invite_code);
    const [kept] = await t.db.select().from(transactions).where(eq(transactions.id, tx.id));
    assert.equal(kept!.groupId, g.id);
    assertError(await t.as(owner).post(`/api/groups/${g.id}/dissolve`), 409, 40902, 'dissolve twice');
    assertError(
      await t.as(late).post('/api/groups/join', { invite_code: g.invite_code }),
      409,
      40902,
      'join dissolved',
    );
    assertError(
      await t.as(member).post('/api/groups/join', { invite_code: g.invite_code }),
      409,
      40902,
      'member re-joins dissolved',
    );
    assertError(await t.as(owner).post(`/api/groups/${g.id}/refresh-code`), 409, 40902, 'refresh dissolved');
    assertError(
      await t.as(owner).post(`/api/groups/${g.id}/remove-member`, { user_id: member.id }),
      409,
      40902,
      'remove from dissolved',
    );
    for (const u of [owner, member])
      assert.ok(!(await t.as(u).get('/api/groups')).json().list.some((x: { id: number }) => x.id === g.id));
    const members = await t.as(member).get(`/api/groups/${g.id}/members`);
    assert.equal(members.statusCode, 200);
    assert.equal(members.json().list.length, 2);
    assert.equal((await memberRows(g.id)).length, 2);
  });

  it('dissolves with 204 a group of a first-version client in which several members recorded', async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const g = (await t.as(owner).post('/api/groups', { name: 'House' })).json();
    assert.equal((await t.as(member).post('/api/groups/join', { invite_code: g.invite_code })).statusCode, 200);
    for (const [u, amount] of [
      [owner, 120],
      [member, 35.5],
    ] as const) {
      const [cat] = await t.db
        .select()
        .from(categories)
        .where(and(eq(categories.userId, u.id), eq(categories.kind, 'expense')))
        .limit(1);
      const res = await t.as(u).post('/api/transactions', {
        kind: 'expense',
        amount,
        category_id: cat!.id,
        date: '2026-03-10',
        group_id: g.id,
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    const res = await t.as(owner).post(`/api/groups/${g.id}/dissolve`);
    assert.equal(res.statusCode, 204, res.body);
    const group = await t.as(member).get(`/api/groups/${g.id}`);
    assert.equal(group.json().dissolved, true);
  });

  it('asks a group that splits costs to settle before it dissolves (42201), unless forced', async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const g = (await t.as(owner).post('/api/groups', { name: 'Trip', split_costs: true })).json();
    assert.equal(g.split_costs, true);
    assert.equal((await t.as(member).post('/api/groups/join', { invite_code: g.invite_code })).statusCode, 200);
    const [cat] = await t.db
      .select()
      .from(categories)
      .where(and(eq(categories.userId, owner.id), eq(categories.kind, 'expense')))
      .limit(1);
    assert.equal(
      (
        await t.as(owner).post('/api/transactions', {
          kind: 'expense',
          amount: 50,
          category_id: cat!.id,
          date: '2026-03-10',
          group_id: g.id,
        })
      ).statusCode,
      201,
    );
    assertError(await t.as(owner).post(`/api/groups/${g.id}/dissolve`), 422, 42201, 'unsettled');
    assert.equal((await t.as(owner).post(`/api/groups/${g.id}/dissolve?force=true`)).statusCode, 204);
  });

  it('refreshes the invite code (owner only): the old one stops working', async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const joiner = await createUser(t.db);
    const g = await createGroup(t.db, owner.id);
    await addMember(t.db, g.id, member.id);
    assertError(await t.as(member).post(`/api/groups/${g.id}/refresh-code`), 403, 40302, 'member refreshes');
    const res = await t.as(owner).post(`/api/groups/${g.id}/refresh-code`);
    assert.equal(res.statusCode, 200);
    const { invite_code } = res.json();
    assert.deepEqual(Object.keys(res.json()), ['invite_code']);
    assert.match(invite_code, CODE_RE);
    assert.notEqual(invite_code, g.inviteCode);
    assertError(await t.as(joiner).post('/api/groups/join', { invite_code: g.inviteCode }), 404, 40401, 'old code');
    const joined = await t.as(joiner).post('/api/groups/join', { invite_code: invite_code.toLowerCase() });
    assert.equal(joined.statusCode, 200);
    assert.equal(joined.json().invite_code, invite_code);
  });

  it('lists members to members only, the owner first', async () => {
    const owner = await createUser(t.db, { nickname: 'Olivia', avatarUrl: 'https://img.example/o.png' });
    const member = await createUser(t.db, { nickname: 'Max' });
    const stranger = await createUser(t.db);
    const g = await createGroup(t.db, owner.id);
    await addMember(t.db, g.id, member.id);
    const res = await t.as(member).get(`/api/groups/${g.id}/members`);
    assert.equal(res.statusCode, 200);
    const list = res.json().list;
    assert.equal(list.length, 2);
    assert.deepEqual(Object.keys(list[0]).sort(), ['avatar_url', 'joined_at', 'nickname', 'role', 'user_id']);
    assert.deepEqual(list[0], {
      ...list[0],
      user_id: owner.id,
      nickname: 'Olivia',
      avatar_url: 'https://img.example/o.png',
      role: 'owner',
    });
    assert.deepEqual(list[1], { ...list[1], user_id: member.id, nickname: 'Max', avatar_url: null, role: 'member' });
    assertError(await t.as(stranger).get(`/api/groups/${g.id}/members`), 403, 40302, 'stranger lists');
    assertError(await t.as(stranger).get('/api/groups/999999/members'), 403, 40302, 'missing group');
  });

  it('removes members (owner only): not a member 40401, oneself 42201', async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const other = await createUser(t.db);
    const stranger = await createUser(t.db);
    const g = await createGroup(t.db, owner.id);
    await addMember(t.db, g.id, member.id);
    await addMember(t.db, g.id, other.id);
    const url = `/api/groups/${g.id}/remove-member`;
    assertError(await t.as(member).post(url, { user_id: other.id }), 403, 40302, 'member removes');
    assertError(await t.as(stranger).post(url, { user_id: other.id }), 403, 40302, 'stranger removes');
    assertError(await t.as(owner).post(url, { user_id: owner.id }), 422, 42201, 'owner removes self');
    assertError(await t.as(owner).post(url, { user_id: stranger.id }), 404, 40401, 'not a member');
    assertError(await t.as(owner).post(url, { user_id: 'x' }), 400, 40001, 'bad user_id');
    assertError(await t.as(owner).post(url, {}), 400, 40001, 'missing user_id');
    const res = await t.as(owner).post(url, { user_id: member.id });
    assert.equal(res.statusCode, 204);
    assert.deepEqual((await memberRows(g.id)).map((r) => r.userId).sort(), [owner.id, other.id].sort());
    assertError(await t.as(owner).post(url, { user_id: member.id }), 404, 40401, 'removed twice');
    assertError(await t.as(member).get(`/api/groups/${g.id}/members`), 403, 40302, 'removed member lists');
    // a removed member may join again with the code
    assert.equal((await t.as(member).post('/api/groups/join', { invite_code: g.inviteCode })).statusCode, 200);
  });

  it('retries invite code collisions and answers 50002 when they persist', async () => {
    const owner = await createUser(t.db);
    const taken = await createGroup(t.db, owner.id);
    const always = createGroupsService({ db: t.db, clock: systemClock, generateCode: () => taken.inviteCode });
    await assert.rejects(
      always.create(owner.id, { name: 'Clash' }),
      (err: unknown) => err instanceof AppError && err.code === 50002 && err.status === 500,
    );
    const own = await createGroup(t.db, owner.id);
    await assert.rejects(
      always.refreshCode(owner.id, own.id),
      (err: unknown) => err instanceof AppError && err.code === 50002,
    );
    const [unchanged] = await t.db.select().from(groups).where(eq(groups.id, own.id));
    assert.equal(unchanged!.inviteCode, own.inviteCode);
    const fresh = await unusedCode();
    const seq = [taken.inviteCode, taken.inviteCode, fresh];
    const eventually = createGroupsService({ db: t.db, clock: systemClock, generateCode: () => seq.shift()! });
    const g = await eventually.create(owner.id, { name: 'Third try' });
    assert.equal(g.invite_code, fresh);
    assert.equal(g.member_count, 1);
    const fresh2 = await unusedCode();
    const seq2 = [taken.inviteCode, fresh2];
    const refresher = createGroupsService({ db: t.db, clock: systemClock, generateCode: () => seq2.shift()! });
    assert.deepEqual(await refresher.refreshCode(owner.id, own.id), { invite_code: fresh2 });
  });
});
