import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { groups, notificationReads, notifications } from '../src/db/schema/index.ts';
import {
  addMember,
  assertError,
  build,
  createAdmin,
  createGroup,
  createUser,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

const HOUR = 3_600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('notifications', () => {
  let t: TestApp;
  let admin: UserRow;
  before(async () => {
    t = await build();
    admin = await createAdmin(t.db);
  });
  after(async () => {
    await t.close();
  });

  async function publish(user: UserRow, body: Record<string, unknown>) {
    const res = await t.as(user).post('/api/notifications', { title: 'Title', content: 'Content', ...body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  }
  const ids = (list: { id: number }[]) => list.map((x) => x.id);

  describe('publishing', () => {
    it('lets an administrator publish each scope, with the contract shape', async () => {
      const u = await createUser(t.db);
      const g = await createGroup(t.db, u.id);
      const res = await t.as(admin).post('/api/notifications', {
        scope: 'system',
        title: '  Maintenance  ',
        content: 'Tonight at 22:00',
        link_url: 'https://status.example/maintenance',
        image_url: '/api/avatars/abc.png',
        pinned: true,
        strong: true,
        publish_at: '2020-01-01T00:00:00Z',
        expire_at: '2099-01-01T00:00:00.000+08:00',
        ignored_field: 1,
      });
      assert.equal(res.statusCode, 201, res.body);
      const n = res.json();
      assert.deepEqual(Object.keys(n).sort(), [
        'content',
        'created_at',
        'expire_at',
        'group_id',
        'id',
        'image_url',
        'key',
        'link_url',
        'params',
        'pinned',
        'publish_at',
        'read',
        'scope',
        'strong',
        'title',
        'user_id',
      ]);
      assert.equal(n.title, 'Maintenance');
      assert.equal(n.publish_at, '2020-01-01T00:00:00.000Z');
      assert.equal(n.expire_at, '2098-12-31T16:00:00.000Z');
      assert.equal(n.pinned, true);
      assert.equal(n.strong, true);
      assert.equal(n.read, false);
      assert.equal(n.group_id, null);
      assert.equal(n.user_id, null);
      const grp = await publish(admin, { scope: 'group', group_id: g.id });
      assert.equal(grp.group_id, g.id);
      assert.equal(grp.pinned, false);
      assert.equal(grp.strong, false);
      assert.equal(grp.link_url, null);
      assert.equal(grp.publish_at, null);
      const personal = await publish(admin, { scope: 'personal', user_id: u.id, group_id: null });
      assert.equal(personal.user_id, u.id);
      const [row] = await t.db.select().from(notifications).where(eq(notifications.id, personal.id));
      assert.equal(row!.createdBy, admin.id);
    });

    it('validates title, content, audience and the publish window (40001)', async () => {
      const u = await createUser(t.db);
      const bad: [string, Record<string, unknown>][] = [
        ['empty title', { scope: 'system', title: '   ' }],
        ['long title', { scope: 'system', title: 'x'.repeat(101) }],
        ['empty content', { scope: 'system', content: '' }],
        ['long content', { scope: 'system', content: 'y'.repeat(5001) }],
        ['bad scope', { scope: 'everyone' }],
        ['group without group_id', { scope: 'group' }],
        ['group with null group_id', { scope: 'group', group_id: null }],
        ['personal without user_id', { scope: 'personal' }],
        ['system with group_id', { scope: 'system', group_id: 1 }],
        ['personal with group_id', { scope: 'personal', user_id: u.id, group_id: 1 }],
        ['unknown addressee', { scope: 'personal', user_id: 999999 }],
        ['unknown group', { scope: 'group', group_id: 999999 }],
        ['bad publish_at', { scope: 'system', publish_at: 'tomorrow' }],
        ['publish_at without zone', { scope: 'system', publish_at: '2030-01-01T00:00:00' }],
        [
          'expire before publish',
          { scope: 'system', publish_at: '2030-01-02T00:00:00Z', expire_at: '2030-01-01T00:00:00Z' },
        ],
        [
          'expire equals publish',
          { scope: 'system', publish_at: '2030-01-02T00:00:00Z', expire_at: '2030-01-02T00:00:00.000Z' },
        ],
        ['pinned as string', { scope: 'system', pinned: 'yes' }],
      ];
      for (const [what, body] of bad) {
        assertError(
          await t.as(admin).post('/api/notifications', { title: 'T', content: 'C', ...body }),
          400,
          40001,
          what,
        );
      }
      const deleted = await createUser(t.db, { deletedAt: new Date() });
      assertError(
        await t
          .as(admin)
          .post('/api/notifications', { scope: 'personal', user_id: deleted.id, title: 'T', content: 'C' }),
        400,
        40001,
        'deleted addressee',
      );
      const limits = await publish(admin, { scope: 'system', title: '通'.repeat(100), content: '知'.repeat(5000) });
      assert.equal([...limits.title].length, 100);
      assert.equal([...limits.content].length, 5000);
    });

    it('accepts only safe links in link_url and image_url', async () => {
      const unsafe = [
        'JaVaScRiPt:alert(1)',
        ' \tjavascript:alert(1)',
        'java\tscript:alert(1)',
        'data:text/html,x',
        'vbscript:x',
        'file:///etc/passwd',
        '//evil.example',
        'javascript:alert(1)',
        'ftp://x.example',
        '',
      ];
      for (const field of ['link_url', 'image_url']) {
        for (const value of unsafe) {
          const res = await t
            .as(admin)
            .post('/api/notifications', { scope: 'system', title: 'T', content: 'C', [field]: value });
          assertError(res, 400, 40001, `${field} ${JSON.stringify(value)}`);
          assert.equal(res.json().details[0].field, field);
        }
        for (const value of ['https://example.com/a?b=c', 'http://example.com', '/transactions?month=2026-11']) {
          const n = await publish(admin, { scope: 'system', [field]: value });
          assert.equal(n[field], value);
        }
      }
      const n = await publish(admin, { scope: 'system' });
      for (const value of ['JaVaScRiPt:alert(1)', '//evil.example']) {
        assertError(
          await t.as(admin).put(`/api/notifications/${n.id}`, { link_url: value }),
          400,
          40001,
          `update link ${value}`,
        );
      }
    });

    it('lets a group owner publish group notices of their own group only', async () => {
      const owner = await createUser(t.db);
      const member = await createUser(t.db);
      const stranger = await createUser(t.db);
      const g = await createGroup(t.db, owner.id);
      await addMember(t.db, g.id, member.id);
      const n = await publish(owner, { scope: 'group', group_id: g.id, pinned: true });
      assert.equal(n.group_id, g.id);
      assertError(
        await t.as(member).post('/api/notifications', { scope: 'group', group_id: g.id, title: 'T', content: 'C' }),
        403,
        40302,
        'member',
      );
      assertError(
        await t.as(stranger).post('/api/notifications', { scope: 'group', group_id: g.id, title: 'T', content: 'C' }),
        403,
        40302,
        'stranger',
      );
      assertError(
        await t.as(owner).post('/api/notifications', { scope: 'group', title: 'T', content: 'C' }),
        400,
        40001,
        'owner without group_id',
      );
      for (const scope of ['system', 'personal', undefined, 'nonsense']) {
        assertError(
          await t.as(owner).post('/api/notifications', { scope, user_id: owner.id, title: 'T', content: 'C' }),
          403,
          40301,
          `owner ${scope}`,
        );
      }
      // a non-administrator learns nothing of the other scopes' rules: 40301 before validation
      assertError(
        await t.as(member).post('/api/notifications', { scope: 'system', title: '', link_url: 'javascript:x' }),
        403,
        40301,
        'invalid body',
      );
      assertError(
        await t.anon.post('/api/notifications', { scope: 'system', title: 'T', content: 'C' }),
        401,
        40101,
        'anonymous',
      );
      await t.db.update(groups).set({ dissolvedAt: new Date() }).where(eq(groups.id, g.id));
      assertError(
        await t.as(owner).post('/api/notifications', { scope: 'group', group_id: g.id, title: 'T', content: 'C' }),
        409,
        40902,
        'dissolved',
      );
      assertError(
        await t.as(admin).post('/api/notifications', { scope: 'group', group_id: g.id, title: 'T', content: 'C' }),
        409,
        40902,
        'admin dissolved',
      );
    });
  });

  describe('reading', () => {
    let reader: UserRow;
    let other: UserRow;
    let g: { id: number };
    let otherGroup: { id: number };
    const made: Record<string, number> = {};

    beforeEach(async () => {
      await t.db.delete(notifications);
      reader = await createUser(t.db);
      other = await createUser(t.db);
      const owner = await createUser(t.db);
      g = await createGroup(t.db, owner.id);
      otherGroup = await createGroup(t.db, other.id);
      await addMember(t.db, g.id, reader.id);
      const specs: [string, Record<string, unknown>][] = [
        ['systemOld', { scope: 'system', publish_at: iso(-3 * HOUR) }],
        ['systemNew', { scope: 'system', publish_at: iso(-1 * HOUR) }],
        ['pinnedOld', { scope: 'system', pinned: true, publish_at: iso(-5 * HOUR) }],
        ['group', { scope: 'group', group_id: g.id, strong: true, publish_at: iso(-2 * HOUR) }],
        ['personal', { scope: 'personal', user_id: reader.id, strong: true, publish_at: iso(-4 * HOUR) }],
        ['scheduled', { scope: 'system', strong: true, publish_at: iso(HOUR) }],
        ['expired', { scope: 'system', strong: true, publish_at: iso(-3 * HOUR), expire_at: iso(-HOUR) }],
        ['otherPersonal', { scope: 'personal', user_id: other.id, strong: true }],
        ['otherGroup', { scope: 'group', group_id: otherGroup.id, strong: true }],
        ['future expiry', { scope: 'system', expire_at: iso(HOUR), publish_at: iso(-6 * HOUR) }],
      ];
      for (const [key, body] of specs) made[key] = (await publish(admin, { ...body, title: key })).id;
    });

    it('lists visible notifications, pinned first then newest first, with a scope filter and pages', async () => {
      const res = await t.as(reader).get('/api/notifications');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.total, 6);
      assert.deepEqual(ids(body.list), [
        made.pinnedOld,
        made.systemNew,
        made.group,
        made.systemOld,
        made.personal,
        made['future expiry'],
      ]);
      assert.ok(body.list.every((n: { read: boolean }) => n.read === false));
      const grp = (await t.as(reader).get('/api/notifications?scope=group')).json();
      assert.deepEqual(ids(grp.list), [made.group]);
      assert.equal(grp.total, 1);
      const personal = (await t.as(reader).get('/api/notifications?scope=personal')).json();
      assert.deepEqual(ids(personal.list), [made.personal]);
      const page2 = (await t.as(reader).get('/api/notifications?page=2&pageSize=4')).json();
      assert.equal(page2.total, 6);
      assert.deepEqual(ids(page2.list), [made.personal, made['future expiry']]);
      const otherView = (await t.as(other).get('/api/notifications')).json();
      assert.deepEqual(
        ids(otherView.list).sort(),
        [
          made.pinnedOld,
          made.systemNew,
          made.systemOld,
          made['future expiry'],
          made.otherPersonal,
          made.otherGroup,
        ].sort(),
      );
      for (const q of ['scope=nope', 'page=0', 'pageSize=0', 'pageSize=101', 'page=x']) {
        assertError(await t.as(reader).get(`/api/notifications?${q}`), 400, 40001, q);
      }
      assertError(await t.anon.get('/api/notifications'), 401, 40101, 'anonymous');
    });

    it('counts unread notifications and lists unread strong reminders', async () => {
      const res = await t.as(reader).get('/api/notifications/unread-count');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().count, 6);
      assert.deepEqual(ids(res.json().strong), [made.group, made.personal]);
      assert.equal(res.json().strong[0].strong, true);
      assert.equal((await t.as(reader).post(`/api/notifications/${made.group}/read`)).statusCode, 204);
      const after = (await t.as(reader).get('/api/notifications/unread-count')).json();
      assert.equal(after.count, 5);
      assert.deepEqual(ids(after.strong), [made.personal]);
      // read status is per user
      const others = (await t.as(other).get('/api/notifications/unread-count')).json();
      assert.equal(others.count, 6);
      assert.deepEqual(ids(others.strong).sort(), [made.otherPersonal, made.otherGroup].sort());
    });

    it('marks one notification read (idempotent) and refuses invisible ones with 40401', async () => {
      const res = await t.as(reader).post(`/api/notifications/${made.systemOld}/read`);
      assert.equal(res.statusCode, 204);
      assert.equal(res.body, '');
      assert.equal((await t.as(reader).post(`/api/notifications/${made.systemOld}/read`)).statusCode, 204);
      const list = (await t.as(reader).get('/api/notifications')).json().list;
      assert.equal(list.find((n: { id: number }) => n.id === made.systemOld).read, true);
      assert.equal(list.filter((n: { read: boolean }) => n.read).length, 1);
      assert.equal(
        (await t.as(other).get('/api/notifications')).json().list.find((n: { id: number }) => n.id === made.systemOld)
          .read,
        false,
      );
      for (const key of ['scheduled', 'expired', 'otherPersonal', 'otherGroup']) {
        assertError(await t.as(reader).post(`/api/notifications/${made[key]}/read`), 404, 40401, key);
      }
      assertError(await t.as(reader).post('/api/notifications/999999/read'), 404, 40401, 'missing');
      assertError(await t.as(reader).post('/api/notifications/x/read'), 400, 40001, 'bad id');
    });

    it('marks all visible notifications read, group notices included, and nothing else', async () => {
      await t.as(reader).post(`/api/notifications/${made.systemOld}/read`);
      const res = await t.as(reader).post('/api/notifications/read-all');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { updated: 5 });
      const rows = await t.db.select().from(notificationReads).where(eq(notificationReads.userId, reader.id));
      assert.deepEqual(
        rows.map((r) => r.notificationId).sort(),
        [made.pinnedOld, made.systemNew, made.group, made.systemOld, made.personal, made['future expiry']].sort(),
      );
      assert.deepEqual((await t.as(reader).post('/api/notifications/read-all')).json(), { updated: 0 });
      assert.deepEqual((await t.as(reader).get('/api/notifications/unread-count')).json(), { count: 0, strong: [] });
      // the scheduled notice becomes visible later, unread
      await t.db
        .update(notifications)
        .set({ publishAt: new Date(Date.now() - 1000) })
        .where(eq(notifications.id, made.scheduled!));
      const later = (await t.as(reader).get('/api/notifications/unread-count')).json();
      assert.equal(later.count, 1);
      assert.deepEqual(ids(later.strong), [made.scheduled]);
      const [otherRead] = await t.db.select().from(notificationReads).where(eq(notificationReads.userId, other.id));
      assert.equal(otherRead, undefined);
    });

    it('hides the notices of a group from members who left and from members of a dissolved group', async () => {
      await t.db.update(groups).set({ dissolvedAt: new Date() }).where(eq(groups.id, otherGroup.id));
      assert.ok(!ids((await t.as(other).get('/api/notifications')).json().list).includes(made.otherGroup!));
      assertError(
        await t.as(other).post(`/api/notifications/${made.otherGroup}/read`),
        404,
        40401,
        'dissolved group notice',
      );
      assert.equal((await t.as(reader).post(`/api/groups/${g.id}/leave`)).statusCode, 204);
      assert.ok(!ids((await t.as(reader).get('/api/notifications')).json().list).includes(made.group!));
      assert.equal((await t.as(reader).get('/api/notifications/unread-count')).json().strong.length, 1);
    });

    it('lists every notification to administrators, scheduled and expired included', async () => {
      const res = await t.as(admin).get('/api/admin/notifications?pageSize=100');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().total, Object.keys(made).length);
      assert.deepEqual(
        ids(res.json().list),
        Object.values(made).sort((a, b) => b - a),
      );
      const personal = (await t.as(admin).get('/api/admin/notifications?scope=personal')).json();
      assert.deepEqual(ids(personal.list).sort(), [made.personal, made.otherPersonal].sort());
      const page = (await t.as(admin).get('/api/admin/notifications?page=2&pageSize=3')).json();
      assert.equal(page.list.length, 3);
      assert.equal(page.total, Object.keys(made).length);
      assertError(await t.as(reader).get('/api/admin/notifications'), 403, 40301, 'non-admin');
      assertError(await t.as(reader).get('/api/admin/notifications?pageSize=1000'), 403, 40301, 'non-admin, bad query');
      assertError(await t.as(admin).get('/api/admin/notifications?scope=x'), 400, 40001, 'bad scope');
    });
  });

  describe('editing', () => {
    let owner: UserRow;
    let member: UserRow;
    let stranger: UserRow;
    let g: { id: number };
    before(async () => {
      owner = await createUser(t.db);
      member = await createUser(t.db);
      stranger = await createUser(t.db);
      g = await createGroup(t.db, owner.id);
      await addMember(t.db, g.id, member.id);
    });

    it('lets an administrator edit any field, clear optional ones and move the audience', async () => {
      const n = await publish(admin, {
        scope: 'system',
        link_url: 'https://a.example',
        publish_at: '2030-01-01T00:00:00Z',
      });
      const res = await t.as(admin).put(`/api/notifications/${n.id}`, {
        title: ' New ',
        link_url: null,
        strong: true,
        expire_at: '2031-01-01T00:00:00Z',
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().title, 'New');
      assert.equal(res.json().content, 'Content');
      assert.equal(res.json().link_url, null);
      assert.equal(res.json().strong, true);
      assert.equal(res.json().expire_at, '2031-01-01T00:00:00.000Z');
      assertError(
        await t.as(admin).put(`/api/notifications/${n.id}`, { expire_at: '2029-12-31T00:00:00Z' }),
        400,
        40001,
        'expire before stored publish',
      );
      assertError(
        await t.as(admin).put(`/api/notifications/${n.id}`, { publish_at: '2031-06-01T00:00:00Z' }),
        400,
        40001,
        'publish after stored expire',
      );
      assert.equal((await t.as(admin).put(`/api/notifications/${n.id}`, { publish_at: null })).json().publish_at, null);
      assertError(
        await t.as(admin).put(`/api/notifications/${n.id}`, { scope: 'personal' }),
        400,
        40001,
        'personal without user',
      );
      assertError(
        await t.as(admin).put(`/api/notifications/${n.id}`, { group_id: g.id }),
        400,
        40001,
        'system with group',
      );
      assertError(await t.as(admin).put(`/api/notifications/${n.id}`, { title: '' }), 400, 40001, 'empty title');
      const moved = await t.as(admin).put(`/api/notifications/${n.id}`, { scope: 'personal', user_id: member.id });
      assert.equal(moved.statusCode, 200);
      assert.equal(moved.json().scope, 'personal');
      assert.equal(moved.json().user_id, member.id);
      const back = (await t.as(admin).put(`/api/notifications/${n.id}`, { scope: 'group', group_id: g.id })).json();
      assert.equal(back.user_id, null);
      assert.equal(back.group_id, g.id);
      assertError(await t.as(admin).put('/api/notifications/999999', { title: 'x' }), 404, 40401, 'missing');
    });

    it('lets a group owner edit, pin and delete their group notices; others get 40302, 40301 or 40401', async () => {
      const n = await publish(owner, { scope: 'group', group_id: g.id });
      const edited = await t.as(owner).put(`/api/notifications/${n.id}`, { content: 'Rent is due' });
      assert.equal(edited.statusCode, 200);
      assert.equal(edited.json().content, 'Rent is due');
      const pinned = await t.as(owner).put(`/api/notifications/${n.id}/pin`, { pinned: true });
      assert.equal(pinned.statusCode, 200);
      assert.equal(pinned.json().pinned, true);
      assert.equal((await t.as(owner).put(`/api/notifications/${n.id}/pin`, { pinned: false })).json().pinned, false);
      assertError(
        await t.as(owner).put(`/api/notifications/${n.id}/pin`, { pinned: 'true' }),
        400,
        40001,
        'pinned as string',
      );
      assertError(await t.as(owner).put(`/api/notifications/${n.id}/pin`, {}), 400, 40001, 'pinned missing');
      for (const [method, url, body] of [
        ['PUT', `/api/notifications/${n.id}`, { title: 'x' }],
        ['PUT', `/api/notifications/${n.id}/pin`, { pinned: true }],
        ['DELETE', `/api/notifications/${n.id}`, undefined],
      ] as const) {
        assertError(await t.as(member).request(method, url, body), 403, 40302, `member ${method} ${url}`);
        assertError(await t.as(stranger).request(method, url, body), 404, 40401, `stranger ${method} ${url}`);
      }
      // an owner may not move their notice out of their group's scope or into a group they do not own
      assertError(
        await t.as(owner).put(`/api/notifications/${n.id}`, { scope: 'system' }),
        403,
        40301,
        'owner to system',
      );
      const foreign = await createGroup(t.db, stranger.id);
      await addMember(t.db, foreign.id, owner.id);
      assertError(
        await t.as(owner).put(`/api/notifications/${n.id}`, { group_id: foreign.id }),
        403,
        40302,
        'owner to foreign group',
      );
      const sys = await publish(admin, { scope: 'system' });
      const own = await publish(admin, { scope: 'personal', user_id: owner.id });
      const others = await publish(admin, { scope: 'personal', user_id: stranger.id });
      for (const [method, suffix, body] of [
        ['PUT', '', { title: 'x' }],
        ['PUT', '/pin', { pinned: true }],
        ['DELETE', '', undefined],
      ] as const) {
        assertError(
          await t.as(owner).request(method, `/api/notifications/${sys.id}${suffix}`, body),
          403,
          40301,
          `system ${method}${suffix}`,
        );
        assertError(
          await t.as(owner).request(method, `/api/notifications/${own.id}${suffix}`, body),
          403,
          40301,
          `own personal ${method}${suffix}`,
        );
        assertError(
          await t.as(owner).request(method, `/api/notifications/${others.id}${suffix}`, body),
          404,
          40401,
          `other personal ${method}${suffix}`,
        );
      }
      const del = await t.as(owner).delete(`/api/notifications/${n.id}`);
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      assertError(await t.as(owner).delete(`/api/notifications/${n.id}`), 404, 40401, 'deleted twice');
      assertError(await t.as(owner).put(`/api/notifications/${n.id}/pin`, { pinned: true }), 404, 40401, 'pin deleted');
    });

    it('lets administrators pin and delete any notice; pinned notices list first', async () => {
      const a = await publish(admin, { scope: 'system', publish_at: iso(-2 * HOUR) });
      const b = await publish(admin, { scope: 'system' });
      const pin = await t.as(admin).put(`/api/notifications/${a.id}/pin`, { pinned: true });
      assert.equal(pin.json().pinned, true);
      const list = ids((await t.as(member).get('/api/notifications?pageSize=100')).json().list);
      assert.ok(list.indexOf(a.id) < list.indexOf(b.id));
      assert.equal((await t.as(admin).delete(`/api/notifications/${a.id}`)).statusCode, 204);
      assert.equal((await t.db.select().from(notifications).where(eq(notifications.id, a.id))).length, 0);
      assertError(await t.as(admin).delete('/api/notifications/999999'), 404, 40401, 'missing');
      // reads go with their notification
      await t.as(member).post(`/api/notifications/${b.id}/read`);
      assert.equal((await t.as(admin).delete(`/api/notifications/${b.id}`)).statusCode, 204);
      const reads = await t.db
        .select()
        .from(notificationReads)
        .where(and(eq(notificationReads.notificationId, b.id), eq(notificationReads.userId, member.id)));
      assert.equal(reads.length, 0);
    });

    it('freezes the notices of a dissolved group (40902) but lets them be deleted', async () => {
      const o = await createUser(t.db);
      const dg = await createGroup(t.db, o.id);
      const n = await publish(o, { scope: 'group', group_id: dg.id });
      assert.equal((await t.as(o).post(`/api/groups/${dg.id}/dissolve`)).statusCode, 204);
      assertError(await t.as(o).put(`/api/notifications/${n.id}`, { title: 'x' }), 409, 40902, 'edit');
      assertError(await t.as(o).put(`/api/notifications/${n.id}/pin`, { pinned: true }), 409, 40902, 'pin');
      assertError(await t.as(admin).put(`/api/notifications/${n.id}`, { title: 'x' }), 409, 40902, 'admin edit');
      assert.equal((await t.as(o).delete(`/api/notifications/${n.id}`)).statusCode, 204);
    });
  });
});
