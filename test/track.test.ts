import assert from 'node:assert/strict';
import { fixedClock } from '../src/lib/clock.ts';
import { after, before, describe, it } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import { trackEvents } from '../src/db/schema/index.ts';
import { addDays, todayIn } from '../src/lib/dates.ts';
import { createTrackService } from '../src/modules/track/track.service.ts';
import { build, type Client, createAdmin, createUser, type TestApp, type UserRow } from './helpers/index.ts';

const TZ = 'Asia/Shanghai';

describe('analytics events', () => {
  let t: TestApp;
  let user: UserRow;
  let other: UserRow;
  let asUser: Client;
  let asAdmin: Client;

  before(async () => {
    t = await build({ appTimezone: TZ });
    user = await createUser(t.db);
    other = await createUser(t.db);
    asUser = t.as(user);
    asAdmin = t.as(await createAdmin(t.db));
  });
  after(async () => t.close());

  describe('POST /api/track', () => {
    it('records an event for the caller', async () => {
      const res = await asUser.post('/api/track', {
        event_type: 'page.view:home-1_a',
        page: '/pages/index',
        data: { ref: 'share', n: 2, nested: { ok: true } },
      });
      assert.equal(res.statusCode, 204, res.body);
      assert.equal(res.body, '');
      const [row] = await t.db.select().from(trackEvents).orderBy(desc(trackEvents.id)).limit(1);
      assert.equal(row!.userId, user.id);
      assert.equal(row!.eventType, 'page.view:home-1_a');
      assert.equal(row!.page, '/pages/index');
      assert.deepEqual(row!.data, { ref: 'share', n: 2, nested: { ok: true } });
      const minimal = await asUser.post('/api/track', { event_type: 'tap' });
      assert.equal(minimal.statusCode, 204);
      const [m] = await t.db.select().from(trackEvents).orderBy(desc(trackEvents.id)).limit(1);
      assert.equal(m!.page, '');
      assert.equal(m!.data, null);
    });

    it('accepts data up to 4096 bytes and refuses more with 40001 on data', async () => {
      // {"s":"..."} is 8 bytes of framing
      assert.equal(
        (await asUser.post('/api/track', { event_type: 'big', data: { s: 'x'.repeat(4088) } })).statusCode,
        204,
      );
      const res = await asUser.post('/api/track', { event_type: 'big', data: { s: 'x'.repeat(4089) } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, 40001);
      assert.deepEqual(
        res.json().details.map((d: { field: string }) => d.field),
        ['data'],
      );
      // bytes, not characters
      const wide = await asUser.post('/api/track', { event_type: 'big', data: { s: '字'.repeat(1400) } });
      assert.equal(wide.json().code, 40001);
    });

    it('validates event_type, page and data', async () => {
      const cases: unknown[] = [
        {},
        { event_type: '' },
        { event_type: 'a'.repeat(51) },
        { event_type: 'has space' },
        { event_type: 'slash/no' },
        { event_type: 'ünï' },
        { event_type: 5 },
        { event_type: 'ok', page: 'p'.repeat(201) },
        { event_type: 'ok', page: 3 },
        { event_type: 'ok', data: 'text' },
        { event_type: 'ok', data: [1, 2] },
        { event_type: 'ok', data: 7 },
      ];
      for (const body of cases) {
        const res = await asUser.post('/api/track', body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(res.json().code, 40001);
      }
      assert.equal(
        (await asUser.post('/api/track', { event_type: 'a'.repeat(50), page: 'p'.repeat(200) })).statusCode,
        204,
      );
    });

    it('needs a signed-in user', async () => {
      const res = await t.anon.post('/api/track', { event_type: 'x' });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 40101);
    });
  });

  describe('statistics', () => {
    it("answers today's figures, a zero-filled 7-day trend and the popular types", async () => {
      const today = todayIn(TZ);
      const before = (await asAdmin.get('/api/logs/track/stats')).json();
      await asUser.post('/api/track', { event_type: 'stats.a' });
      await t.as(other).post('/api/track', { event_type: 'stats.a' });
      const res = await asAdmin.get('/api/logs/track/stats');
      assert.equal(res.statusCode, 200, res.body);
      const s = res.json();
      assert.equal(s.today.events, before.today.events + 2);
      assert.equal(s.today.users, 2);
      assert.equal(s.trend.length, 7);
      assert.deepEqual(
        s.trend.map((d: { date: string }) => d.date),
        [6, 5, 4, 3, 2, 1, 0].map((n) => addDays(today, -n)),
      );
      assert.deepEqual(s.trend[6], { date: today, ...s.today });
      assert.ok(
        s.popular.some((p: { event_type: string; count: number }) => p.event_type === 'stats.a' && p.count === 2),
      );
    });

    it('takes days in APP_TIMEZONE, ranks the top 10 over 7 days', async () => {
      // a clock of its own, far from the other rows: 2001-03-10T12:00Z is already 11 March in Kiritimati (UTC+14)
      const now = new Date('2001-03-10T12:00:00.000Z');
      const service = createTrackService({
        db: t.db,
        config: { appTimezone: 'Pacific/Kiritimati' },
        clock: fixedClock(now),
      });
      const at = (iso: string, eventType: string, userId: number | null = user.id) => ({
        userId,
        eventType,
        createdAt: new Date(iso),
      });
      const rows = [
        at('2001-03-10T10:30:00.000Z', 'open'), // 11 Mar 00:30 local: today
        at('2001-03-10T11:00:00.000Z', 'open', other.id), // today
        at('2001-03-10T11:30:00.000Z', 'open', other.id), // today, same user again
        at('2001-03-10T09:30:00.000Z', 'close'), // 10 Mar 23:30 local: yesterday
        at('2001-03-05T12:00:00.000Z', 'close', null), // 6 Mar: oldest day of the window; a deleted user
        at('2001-03-04T09:00:00.000Z', 'gone'), // 4 Mar 23:00 local: outside the window
      ];
      for (let i = 0; i < 11; i++) rows.push(at('2001-03-08T00:00:00.000Z', `rare${String(i).padStart(2, '0')}`));
      await t.db.insert(trackEvents).values(rows);
      const s = await service.stats();
      assert.deepEqual(s.today, { events: 3, users: 2 });
      assert.deepEqual(s.trend, [
        { date: '2001-03-05', events: 0, users: 0 },
        { date: '2001-03-06', events: 1, users: 0 },
        { date: '2001-03-07', events: 0, users: 0 },
        { date: '2001-03-08', events: 11, users: 1 },
        { date: '2001-03-09', events: 0, users: 0 },
        { date: '2001-03-10', events: 1, users: 1 },
        { date: '2001-03-11', events: 3, users: 2 },
      ]);
      assert.equal(s.popular.length, 10);
      assert.deepEqual(s.popular.slice(0, 3), [
        { event_type: 'open', count: 3 },
        { event_type: 'close', count: 2 },
        { event_type: 'rare00', count: 1 },
      ]);
      assert.ok(!s.popular.some((p) => p.event_type === 'gone' || p.event_type === 'rare10'));
    });
  });

  describe('list', () => {
    it('lists newest first with filters and pagination', async () => {
      const res = await asAdmin.get('/api/logs/track/list?pageSize=100');
      assert.equal(res.statusCode, 200, res.body);
      const { list, total } = res.json();
      assert.ok(total > 20);
      const times = list.map((e: { created_at: string }) => Date.parse(e.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a: number, b: number) => b - a),
      );
      const first = list.find((e: { event_type: string }) => e.event_type === 'page.view:home-1_a');
      assert.deepEqual(Object.keys(first).sort(), ['created_at', 'data', 'event_type', 'id', 'page', 'user_id']);
      assert.deepEqual(first.data, { ref: 'share', n: 2, nested: { ok: true } });
      assert.equal(first.user_id, user.id);

      const typed = (await asAdmin.get('/api/logs/track/list?event_type=open')).json();
      assert.equal(typed.total, 3);
      assert.ok(typed.list.every((e: { event_type: string }) => e.event_type === 'open'));

      // days in APP_TIMEZONE (Asia/Shanghai, UTC+8): 2001-03-10T09:30Z is 17:30 on 10 March
      const day = (await asAdmin.get('/api/logs/track/list?startDate=2001-03-10&endDate=2001-03-10')).json();
      assert.deepEqual(
        day.list.map((e: { event_type: string }) => e.event_type),
        ['open', 'open', 'open', 'close'],
      );
      const late = (
        await asAdmin.get('/api/logs/track/list?startDate=2001-03-10&endDate=2001-03-10&event_type=close')
      ).json();
      assert.equal(late.total, 1);
      const from = (await asAdmin.get('/api/logs/track/list?endDate=2001-03-04')).json();
      assert.deepEqual(
        from.list.map((e: { event_type: string }) => e.event_type),
        ['gone'],
      );
      const page2 = (
        await asAdmin.get('/api/logs/track/list?startDate=2001-03-01&endDate=2001-03-31&pageSize=5&page=2')
      ).json();
      assert.equal(page2.total, 17);
      assert.equal(page2.list.length, 5);
    });

    it('validates the query', async () => {
      for (const qs of [
        'startDate=2001-02-30',
        'endDate=20010301',
        'startDate=2001-03-02&endDate=2001-03-01',
        'event_type=bad%20type',
        'pageSize=0',
        'page=-1',
      ]) {
        const res = await asAdmin.get(`/api/logs/track/list?${qs}`);
        assert.equal(res.statusCode, 400, qs);
        assert.equal(res.json().code, 40001, qs);
      }
    });

    it('is for administrators only', async () => {
      for (const url of ['/api/logs/track/list', '/api/logs/track/stats']) {
        assert.equal((await asUser.get(url)).json().code, 40301);
        assert.equal((await t.anon.get(url)).json().code, 40101);
      }
      assert.ok((await t.db.select().from(trackEvents).where(eq(trackEvents.userId, user.id))).length > 0);
    });
  });
});
