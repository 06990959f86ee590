import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { notificationReads, transactions } from '../src/db/schema/index.ts';
import {
  addMember,
  build,
  createAdmin,
  createGroup,
  createTransaction,
  createUser,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe('group privacy', () => {
  let t: TestApp;
  let admin: UserRow;
  let owner: UserRow;
  let stayer: UserRow;
  let removed: UserRow;
  let leaver: UserRow;
  let stranger: UserRow;
  let otherOwner: UserRow;
  let otherMember: UserRow;
  let g: { id: number; inviteCode: string };
  let g2: { id: number };
  let groupNotice: { id: number };
  let otherGroupNotice: { id: number };
  let personal: { id: number };
  let removedTx: { id: number };
  let leaverTx: { id: number };

  async function publish(user: UserRow, body: Record<string, unknown>) {
    const res = await t
      .as(user)
      .post('/api/notifications', { title: 'Notice', content: 'Body', strong: true, ...body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  }

  before(async () => {
    t = await build();
    admin = await createAdmin(t.db);
    owner = await createUser(t.db);
    stayer = await createUser(t.db);
    removed = await createUser(t.db);
    leaver = await createUser(t.db);
    stranger = await createUser(t.db);
    otherOwner = await createUser(t.db);
    otherMember = await createUser(t.db);
    g = await createGroup(t.db, owner.id);
    g2 = await createGroup(t.db, otherOwner.id);
    for (const u of [stayer, removed, leaver]) await addMember(t.db, g.id, u.id);
    await addMember(t.db, g2.id, otherMember.id);
    removedTx = await createTransaction(t.db, removed.id, { groupId: g.id });
    leaverTx = await createTransaction(t.db, leaver.id, { groupId: g.id });
    groupNotice = await publish(owner, { scope: 'group', group_id: g.id });
    otherGroupNotice = await publish(otherOwner, { scope: 'group', group_id: g2.id });
    personal = await publish(admin, { scope: 'personal', user_id: stayer.id });
    assert.equal(
      (await t.as(owner).post(`/api/groups/${g.id}/remove-member`, { user_id: removed.id })).statusCode,
      204,
    );
    assert.equal((await t.as(leaver).post(`/api/groups/${g.id}/leave`)).statusCode, 204);
  });
  after(async () => {
    await t.close();
  });

  const outsiders = () => ({ stranger, removed, leaver, otherOwner, otherMember });

  it('answers 40302 to non-members, removed members and members of another group on every group route', async () => {
    for (const [who, u] of Object.entries(outsiders())) {
      const routes: [Method, string, unknown][] = [
        ['GET', `/api/groups/${g.id}/members`, undefined],
        ['POST', `/api/groups/${g.id}/leave`, undefined],
        ['POST', `/api/groups/${g.id}/refresh-code`, undefined],
        ['POST', `/api/groups/${g.id}/remove-member`, { user_id: stayer.id }],
        ['POST', `/api/groups/${g.id}/dissolve`, undefined],
        ['POST', `/api/groups/${g.id}/dissolve?force=true`, undefined],
        ['GET', `/api/groups/${g.id}`, undefined],
        ['PUT', `/api/groups/${g.id}`, { notify_threshold: 1 }],
        ['GET', `/api/groups/${g.id}/balances`, undefined],
        ['GET', `/api/groups/${g.id}/settlements/suggested`, undefined],
        ['GET', `/api/groups/${g.id}/settlements`, undefined],
        ['POST', `/api/groups/${g.id}/settlements`, { from: u.id, to: owner.id, amount: 1 }],
      ];
      for (const [method, url, body] of routes) {
        const res = await t.as(u).request(method, url, body);
        assert.equal(res.statusCode, 403, `${who} ${method} ${url}: ${res.body}`);
        assert.equal(res.json().code, 40302, `${who} ${url}`);
        assert.ok(!res.body.includes(g.inviteCode));
      }
    }
    // nothing changed for the real members
    const members = (await t.as(stayer).get(`/api/groups/${g.id}/members`)).json().list;
    assert.deepEqual(members.map((m: { user_id: number }) => m.user_id).sort(), [owner.id, stayer.id].sort());
  });

  it("shows nothing of the group in the outsiders' group lists", async () => {
    for (const [who, u] of Object.entries(outsiders())) {
      const res = await t.as(u).get('/api/groups');
      assert.equal(res.statusCode, 200);
      assert.ok(!res.json().list.some((x: { id: number }) => x.id === g.id), who);
      assert.ok(!res.body.includes(g.inviteCode), who);
    }
    assert.deepEqual(
      (await t.as(stayer).get('/api/groups')).json().list.map((x: { id: number }) => x.id),
      [g.id],
    );
  });

  it('keeps group notices from outsiders: not listed, not counted, not readable, not marked by read-all', async () => {
    for (const [who, u] of Object.entries(outsiders())) {
      const list = await t.as(u).get('/api/notifications?pageSize=100');
      assert.ok(!list.json().list.some((n: { id: number }) => n.id === groupNotice.id), who);
      const unread = (await t.as(u).get('/api/notifications/unread-count')).json();
      assert.ok(!unread.strong.some((n: { id: number }) => n.id === groupNotice.id), who);
      const read = await t.as(u).post(`/api/notifications/${groupNotice.id}/read`);
      assert.equal(read.statusCode, 404, who);
      assert.equal(read.json().code, 40401);
      assert.equal((await t.as(u).post('/api/notifications/read-all')).statusCode, 200);
      const edit = await t.as(u).put(`/api/notifications/${groupNotice.id}`, { title: 'hijack' });
      assert.equal(edit.statusCode, 404, `${who} edit`);
      const pub = await t
        .as(u)
        .post('/api/notifications', { scope: 'group', group_id: g.id, title: 'x', content: 'y' });
      assert.equal(pub.statusCode, 403, `${who} publish`);
      assert.equal(pub.json().code, 40302);
    }
    const reads = await t.db
      .select()
      .from(notificationReads)
      .where(eq(notificationReads.notificationId, groupNotice.id));
    assert.equal(reads.length, 0);
    // the members still see it, unread
    for (const u of [owner, stayer]) {
      const unread = (await t.as(u).get('/api/notifications/unread-count')).json();
      assert.ok(unread.strong.some((n: { id: number }) => n.id === groupNotice.id));
    }
    // and the other group's notice stays within the other group
    for (const u of [owner, stayer, stranger]) {
      assert.equal((await t.as(u).post(`/api/notifications/${otherGroupNotice.id}/read`)).statusCode, 404);
    }
    assert.equal((await t.as(otherMember).post(`/api/notifications/${otherGroupNotice.id}/read`)).statusCode, 204);
  });

  it('delivers personal notifications to their addressee only', async () => {
    for (const u of [owner, removed, leaver, stranger, otherOwner, otherMember]) {
      const list = (await t.as(u).get('/api/notifications?scope=personal')).json();
      assert.ok(!list.list.some((n: { id: number }) => n.id === personal.id));
      const read = await t.as(u).post(`/api/notifications/${personal.id}/read`);
      assert.equal(read.statusCode, 404);
      assert.equal(read.json().code, 40401);
      assert.equal((await t.as(u).put(`/api/notifications/${personal.id}/pin`, { pinned: true })).statusCode, 404);
      assert.equal((await t.as(u).delete(`/api/notifications/${personal.id}`)).statusCode, 404);
    }
    const mine = (await t.as(stayer).get('/api/notifications?scope=personal')).json();
    assert.deepEqual(
      mine.list.map((n: { id: number }) => n.id),
      [personal.id],
    );
    assert.equal((await t.as(stayer).post(`/api/notifications/${personal.id}/read`)).statusCode, 204);
  });

  it('keeps the group_id of transactions recorded by members who left or were removed', async () => {
    const rows = await t.db
      .select()
      .from(transactions)
      .where(inArray(transactions.id, [removedTx.id, leaverTx.id]));
    assert.equal(rows.length, 2);
    for (const r of rows) assert.equal(r.groupId, g.id);
  });
});
