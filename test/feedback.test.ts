import assert from 'node:assert/strict';
import { systemClock } from '../src/lib/clock.ts';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { feedback, notifications } from '../src/db/schema/index.ts';
import { AppError } from '../src/lib/errors.ts';
import { createFeedbackService, notifyAuthor, REPLY_NOTICE_TITLE } from '../src/modules/feedback/feedback.service.ts';
import { assertError, build, createAdmin, createUser, type TestApp, type UserRow } from './helpers/index.ts';

describe('feedback', () => {
  let t: TestApp;
  let admin: UserRow;
  before(async () => {
    t = await build();
    admin = await createAdmin(t.db);
  });
  after(async () => {
    await t.close();
  });

  async function submit(user: UserRow, content = 'The export button is hard to find') {
    const res = await t.as(user).post('/api/feedback', { content });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  }
  const noticesOf = (userId: number) =>
    t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.scope, 'personal')));

  it('accepts feedback with an optional contact', async () => {
    const u = await createUser(t.db);
    const res = await t
      .as(u)
      .post('/api/feedback', { content: '  Please add dark mode  ', contact: '  me@example.com ' });
    assert.equal(res.statusCode, 201, res.body);
    const fb = res.json();
    assert.deepEqual(Object.keys(fb).sort(), [
      'contact',
      'content',
      'created_at',
      'id',
      'replied_at',
      'reply',
      'status',
    ]);
    assert.equal(fb.content, 'Please add dark mode');
    assert.equal(fb.contact, 'me@example.com');
    assert.equal(fb.status, 'pending');
    assert.equal(fb.reply, null);
    assert.equal(fb.replied_at, null);
    assert.equal((await t.as(u).post('/api/feedback', { content: 'x', contact: '   ' })).json().contact, null);
    assert.equal((await t.as(u).post('/api/feedback', { content: 'x', contact: null })).json().contact, null);
    assert.equal((await t.as(u).post('/api/feedback', { content: 'x' })).json().contact, null);
    const long = await t.as(u).post('/api/feedback', { content: '反'.repeat(2000), contact: 'c'.repeat(100) });
    assert.equal(long.statusCode, 201);
    const bad: [string, unknown][] = [
      ['empty content', { content: '' }],
      ['blank content', { content: ' \n ' }],
      ['long content', { content: '反'.repeat(2001) }],
      ['numeric content', { content: 5 }],
      ['missing content', {}],
      ['long contact', { content: 'x', contact: 'c'.repeat(101) }],
      ['numeric contact', { content: 'x', contact: 12345 }],
    ];
    for (const [what, body] of bad) assertError(await t.as(u).post('/api/feedback', body), 400, 40001, what);
    assertError(await t.anon.post('/api/feedback', { content: 'x' }), 401, 40101, 'anonymous');
  });

  it("lists the caller's own feedback only, newest first, in pages", async () => {
    const u = await createUser(t.db);
    const other = await createUser(t.db);
    const a = await submit(u, 'first');
    const b = await submit(u, 'second');
    const c = await submit(u, 'third');
    await submit(other, 'not yours');
    const res = await t.as(u).get('/api/feedback/mine');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().total, 3);
    assert.deepEqual(
      res.json().list.map((f: { id: number }) => f.id),
      [c.id, b.id, a.id],
    );
    const page = (await t.as(u).get('/api/feedback/mine?page=2&pageSize=2')).json();
    assert.equal(page.total, 3);
    assert.deepEqual(
      page.list.map((f: { id: number }) => f.id),
      [a.id],
    );
    assertError(await t.as(u).get('/api/feedback/mine?pageSize=101'), 400, 40001, 'page size');
  });

  it('lists all feedback to administrators with the author, filtered by status', async () => {
    const author = await createUser(t.db, { nickname: 'Writer', avatarUrl: 'https://img.example/w.png' });
    const fb = await submit(author, 'admin list');
    const res = await t.as(admin).get('/api/admin/feedback?pageSize=100');
    assert.equal(res.statusCode, 200);
    const row = res.json().list.find((f: { id: number }) => f.id === fb.id);
    assert.deepEqual(row.user, { id: author.id, nickname: 'Writer', avatar_url: 'https://img.example/w.png' });
    assert.equal(row.content, 'admin list');
    assert.equal(res.json().total, (await t.db.select().from(feedback)).length);
    await t.as(admin).put(`/api/admin/feedback/${fb.id}/status`, { status: 'closed' });
    const closed = (await t.as(admin).get('/api/admin/feedback?status=closed')).json();
    assert.ok(closed.list.length >= 1);
    assert.ok(closed.list.every((f: { status: string }) => f.status === 'closed'));
    assert.ok(closed.list.some((f: { id: number }) => f.id === fb.id));
    const pending = (await t.as(admin).get('/api/admin/feedback?status=pending&pageSize=100')).json();
    assert.ok(!pending.list.some((f: { id: number }) => f.id === fb.id));
    assertError(await t.as(admin).get('/api/admin/feedback?status=open'), 400, 40001, 'bad status');
    assertError(await t.as(author).get('/api/admin/feedback'), 403, 40301, 'non-admin');
    assertError(await t.as(author).get('/api/admin/feedback?status=bogus'), 403, 40301, 'non-admin, bad query');
  });

  it('replies: status replied, replied_at set, and the author gets a personal notification', async () => {
    const author = await createUser(t.db);
    const bystander = await createUser(t.db);
    const fb = await submit(author);
    const res = await t
      .as(admin)
      .post(`/api/admin/feedback/${fb.id}/reply`, { reply: '  Thanks, it is under Settings.  ' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.status, 'replied');
    assert.equal(body.reply, 'Thanks, it is under Settings.');
    assert.match(body.replied_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(body.user.id, author.id);
    const mine = (await t.as(author).get('/api/feedback/mine')).json().list[0];
    assert.equal(mine.reply, 'Thanks, it is under Settings.');
    assert.equal(mine.status, 'replied');
    const notices = (await t.as(author).get('/api/notifications?scope=personal')).json();
    assert.equal(notices.total, 1);
    assert.equal(notices.list[0].title, REPLY_NOTICE_TITLE);
    assert.equal(notices.list[0].content, 'Thanks, it is under Settings.');
    assert.equal(notices.list[0].user_id, author.id);
    assert.equal(notices.list[0].read, false);
    assert.equal((await t.as(bystander).get('/api/notifications?scope=personal')).json().total, 0);
    assertError(
      await t.as(bystander).post(`/api/notifications/${notices.list[0].id}/read`),
      404,
      40401,
      'bystander reads',
    );
    // a second reply while replied replaces it and notifies again
    const again = await t.as(admin).post(`/api/admin/feedback/${fb.id}/reply`, { reply: 'Also in the menu.' });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().reply, 'Also in the menu.');
    assert.equal((await noticesOf(author.id)).length, 2);
  });

  it('validates replies and refuses closed feedback, unknown ids and non-administrators', async () => {
    const author = await createUser(t.db);
    const fb = await submit(author);
    const url = `/api/admin/feedback/${fb.id}/reply`;
    for (const reply of ['', '   ', 'r'.repeat(2001), 7])
      assertError(await t.as(admin).post(url, { reply }), 400, 40001, `reply ${JSON.stringify(reply)}`);
    assertError(await t.as(admin).post(url, {}), 400, 40001, 'missing reply');
    assert.equal((await t.as(admin).post(url, { reply: 'r'.repeat(2000) })).statusCode, 200);
    assertError(await t.as(admin).post('/api/admin/feedback/999999/reply', { reply: 'x' }), 404, 40401, 'unknown');
    assertError(await t.as(author).post(url, { reply: 'x' }), 403, 40301, 'non-admin');
    assertError(await t.as(author).post(url, {}), 403, 40301, 'non-admin, invalid body');
    assert.equal((await t.as(admin).put(`/api/admin/feedback/${fb.id}/status`, { status: 'closed' })).statusCode, 200);
    const before = (await noticesOf(author.id)).length;
    assertError(await t.as(admin).post(url, { reply: 'late' }), 422, 42201, 'closed');
    assert.equal((await noticesOf(author.id)).length, before);
  });

  it('moves through statuses: close any, reopen closed, never set replied by hand', async () => {
    const author = await createUser(t.db);
    const fb = await submit(author);
    const status = (id: number, s: unknown) => t.as(admin).put(`/api/admin/feedback/${id}/status`, { status: s });
    assertError(await status(fb.id, 'replied'), 422, 42201, 'pending -> replied by hand');
    const same = await status(fb.id, 'pending');
    assert.equal(same.statusCode, 200);
    assert.equal(same.json().status, 'pending');
    const closed = await status(fb.id, 'closed');
    assert.equal(closed.statusCode, 200);
    assert.equal(closed.json().status, 'closed');
    assert.equal(closed.json().user.id, author.id);
    assert.equal((await status(fb.id, 'closed')).json().status, 'closed');
    assertError(await status(fb.id, 'replied'), 422, 42201, 'closed -> replied by hand');
    const reopened = await status(fb.id, 'pending');
    assert.equal(reopened.json().status, 'pending');
    await t.as(admin).post(`/api/admin/feedback/${fb.id}/reply`, { reply: 'Done' });
    assertError(await status(fb.id, 'pending'), 422, 42201, 'replied -> pending');
    assertError(await status(fb.id, 'replied'), 422, 42201, 'replied -> replied by hand');
    const closedAfterReply = await status(fb.id, 'closed');
    assert.equal(closedAfterReply.json().status, 'closed');
    assert.equal(closedAfterReply.json().reply, 'Done');
    const reopenedAgain = (await status(fb.id, 'pending')).json();
    assert.equal(reopenedAgain.status, 'pending');
    assert.equal(reopenedAgain.reply, 'Done');
    assertError(await status(fb.id, 'open'), 400, 40001, 'bad status');
    assertError(await status(999999, 'closed'), 404, 40401, 'unknown');
    assertError(await status(999999, 'replied'), 404, 40401, 'unknown, replied');
    assertError(
      await t.as(author).put(`/api/admin/feedback/${fb.id}/status`, { status: 'closed' }),
      403,
      40301,
      'non-admin',
    );
  });

  it('writes the reply and its notification in one transaction', async () => {
    const author = await createUser(t.db);
    const fb = await submit(author);
    const failing = createFeedbackService({
      db: t.db,
      clock: systemClock,
      notify: async (tx, row, adminId) => {
        await notifyAuthor(tx, row, adminId);
        throw new AppError(503, 50301, 'notification channel down');
      },
    });
    await assert.rejects(
      failing.reply(admin.id, fb.id, 'will not stick'),
      (err: unknown) => err instanceof AppError && err.code === 50301,
    );
    const [row] = await t.db.select().from(feedback).where(eq(feedback.id, fb.id));
    assert.equal(row!.status, 'pending');
    assert.equal(row!.reply, null);
    assert.equal(row!.repliedAt, null);
    assert.equal((await noticesOf(author.id)).length, 0);
    const working = createFeedbackService({ db: t.db, clock: systemClock });
    const ok = await working.reply(admin.id, fb.id, 'sticks');
    assert.equal(ok.status, 'replied');
    assert.equal((await noticesOf(author.id)).length, 1);
  });
});
