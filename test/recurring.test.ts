import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  accounts,
  groups,
  recurringRules,
  tags,
  transactions,
  transactionTags,
  users,
} from '../src/db/schema/index.ts';
import { addDays, todayIn } from '../src/lib/dates.ts';
import { recurringTask } from '../src/modules/recurring/recurring.task.ts';
import {
  addMember,
  aliceAndBob,
  assertError,
  build,
  type Client,
  createCategory,
  createGroup,
  createTag,
  createUser,
  firstCategory,
  onPostgres,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

const at = (date: string, time = '12:00:00') => new Date(`${date}T${time}Z`);

describe('recurring rules', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let asAlice: Client;
  let asBob: Client;
  let food: number;
  let salary: number;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice, asBob } = await aliceAndBob(t));
    food = (await firstCategory(t.db, alice.id, 'expense')).id;
    salary = (await firstCategory(t.db, alice.id, 'income')).id;
  });
  after(async () => t.close());

  const run = (now: Date) => recurringTask.run(t.app, now) as Promise<{ rules: number; created: number }>;
  const generated = (ruleId: number) =>
    t.db.select().from(transactions).where(eq(transactions.recurringId, ruleId)).orderBy(asc(transactions.date));
  const create = async (payload: Record<string, unknown>, as = asAlice) => {
    const res = await as.post('/api/recurring', {
      kind: 'expense',
      amount: 10,
      category_id: food,
      frequency: 'monthly',
      ...payload,
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  };

  it('creates a rule (201) with every field, and lists it', async () => {
    const tag = await createTag(t.db, alice.id, { name: 'rent' });
    const res = await asAlice.post('/api/recurring', {
      kind: 'expense',
      amount: '1200.50',
      category_id: food,
      note: '  monthly rent  ',
      tag_ids: [tag.id, tag.id],
      frequency: 'monthly',
      interval: 1,
      start_date: '2030-01-31',
      end_date: '2030-12-31',
    });
    assert.equal(res.statusCode, 201, res.body);
    const rule = res.json();
    assert.ok(rule.id > 0);
    assert.deepEqual(
      { ...rule, id: 0, created_at: '' },
      {
        id: 0,
        kind: 'expense',
        amount: 1200.5,
        category_id: food,
        account_id: (
          await t.db
            .select()
            .from(accounts)
            .where(and(eq(accounts.userId, alice.id), eq(accounts.isDefault, true)))
        )[0]!.id,
        to_account_id: null,
        note: 'monthly rent',
        tag_ids: [tag.id],
        group_id: null,
        frequency: 'monthly',
        interval: 1,
        start_date: '2030-01-31',
        end_date: '2030-12-31',
        next_date: '2030-01-31',
        active: true,
        created_at: '',
      },
    );
    assert.match(rule.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const l = await asAlice.get('/api/recurring');
    assert.equal(l.statusCode, 200);
    assert.ok(l.json().list.some((r: { id: number }) => r.id === rule.id));
    assert.deepEqual((await asBob.get('/api/recurring')).json(), { list: [] });
    // a deleted tag disappears from the rule
    await t.db.delete(tags).where(eq(tags.id, tag.id));
    const after = (await asAlice.get('/api/recurring')).json().list.find((r: { id: number }) => r.id === rule.id);
    assert.deepEqual(after.tag_ids, []);
  });

  it("defaults interval to 1, start_date to today in the caller's zone, no end, active", async () => {
    const rule = await create({ frequency: 'weekly' });
    assert.equal(rule.interval, 1);
    assert.equal(rule.start_date, todayIn('UTC'));
    // today's occurrence is booked at once: the next one is a week later
    assert.equal(rule.next_date, addDays(rule.start_date, 7));
    assert.equal((await generated(rule.id)).length, 1);
    assert.equal(rule.end_date, null);
    assert.equal(rule.active, true);
    const far = await createUser(t.db, { timezone: 'Pacific/Kiritimati' });
    const farRule = await create(
      { frequency: 'daily', category_id: (await firstCategory(t.db, far.id)).id },
      t.as(far),
    );
    assert.equal(farRule.start_date, todayIn('Pacific/Kiritimati'));
  });

  it('validates the body with 40001', async () => {
    const base = { kind: 'expense', amount: 10, category_id: food, frequency: 'monthly', start_date: '2030-01-01' };
    const bad: [string, Record<string, unknown>][] = [
      ['amount 0', { amount: 0 }],
      ['amount 3 decimals', { amount: '1.234' }],
      ['amount negative', { amount: -5 }],
      ['amount empty', { amount: '' }],
      ['kind', { kind: 'gift' }],
      ['frequency', { frequency: 'hourly' }],
      ['interval 0', { interval: 0 }],
      ['interval 366', { interval: 366 }],
      ['interval as string', { interval: '2' }],
      ['impossible date', { start_date: '2030-02-30' }],
      ['date format', { start_date: '2030/01/01' }],
      ['end before start', { end_date: '2029-12-31' }],
      ['end impossible', { end_date: '2030-13-01' }],
      ['note too long', { note: 'x'.repeat(201) }],
      ['start centuries back', { start_date: '0001-01-01' }],
      ['start before 2000', { start_date: '1999-12-31' }],
      ['end after 2099', { end_date: '2100-01-01' }],
      ['category of the other kind', { category_id: salary }],
      ['missing category', { category_id: undefined }],
      ['missing frequency', { frequency: undefined }],
    ];
    for (const [label, patch] of bad)
      assertError(await asAlice.post('/api/recurring', { ...base, ...patch }), 400, 40001, label);
  });

  it("refuses another user's category or tags, and more than 10 tags, with 40001", async () => {
    const bobCat = await createCategory(t.db, bob.id, { kind: 'expense' });
    const bobTag = await createTag(t.db, bob.id);
    const base = { kind: 'expense', amount: 10, category_id: food, frequency: 'daily' };
    assertError(
      await asAlice.post('/api/recurring', { ...base, category_id: bobCat.id }),
      400,
      40001,
      'foreign category',
    );
    assertError(await asAlice.post('/api/recurring', { ...base, tag_ids: [bobTag.id] }), 400, 40001, 'foreign tag');
    assertError(await asAlice.post('/api/recurring', { ...base, tag_ids: [2147483000] }), 400, 40001, 'missing tag');
    const many = [];
    for (let i = 0; i < 11; i++) many.push((await createTag(t.db, alice.id, { name: `many${i}` })).id);
    assertError(await asAlice.post('/api/recurring', { ...base, tag_ids: many }), 400, 40001, '11 tags');
    assert.equal((await asAlice.post('/api/recurring', { ...base, tag_ids: many.slice(0, 10) })).statusCode, 201);
  });

  it('needs membership of a live group (40302, 40902)', async () => {
    const bobGroup = await createGroup(t.db, bob.id);
    const base = { kind: 'expense', amount: 10, category_id: food, frequency: 'daily' };
    assertError(await asAlice.post('/api/recurring', { ...base, group_id: bobGroup.id }), 403, 40302, 'not a member');
    await addMember(t.db, bobGroup.id, alice.id);
    const ok = await asAlice.post('/api/recurring', { ...base, group_id: bobGroup.id });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().group_id, bobGroup.id);
    const dissolved = await createGroup(t.db, alice.id, { dissolvedAt: new Date() });
    assertError(await asAlice.post('/api/recurring', { ...base, group_id: dissolved.id }), 409, 40902, 'dissolved');
    assertError(
      await asAlice.put(`/api/recurring/${ok.json().id}`, { group_id: dissolved.id }),
      409,
      40902,
      'update into dissolved',
    );
  });

  it('requires a token (40101)', async () => {
    assertError(await t.anon.get('/api/recurring'), 401, 40101);
    assertError(await t.anon.post('/api/recurring', {}), 401, 40101);
  });

  it("keeps another user's rules private: 404 on update and delete", async () => {
    const rule = await create({ start_date: '2030-01-01' });
    assertError(await asBob.put(`/api/recurring/${rule.id}`, { amount: 5 }), 404, 40401, 'put');
    assertError(await asBob.delete(`/api/recurring/${rule.id}`), 404, 40401, 'delete');
    assertError(await asAlice.put(`/api/recurring/${2147483000}`, { amount: 5 }), 404, 40401, 'missing');
    assertError(await asAlice.delete(`/api/recurring/${2147483000}`), 404, 40401, 'missing');
    assert.ok(!(await asBob.get('/api/recurring')).json().list.some((r: { id: number }) => r.id === rule.id));
    const [still] = await t.db.select().from(recurringRules).where(eq(recurringRules.id, rule.id));
    assert.equal(still!.amountMinor, 1000);
  });

  it('updates any subset; a kind change needs a category of that kind', async () => {
    const rule = await create({ start_date: '2030-01-15', note: 'gym' });
    const res = await asAlice.put(`/api/recurring/${rule.id}`, { amount: '33.3', note: 'pool' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().amount, 33.3);
    assert.equal(res.json().note, 'pool');
    assert.equal(res.json().next_date, '2030-01-15');
    assertError(
      await asAlice.put(`/api/recurring/${rule.id}`, { kind: 'income' }),
      400,
      40001,
      'kind without category',
    );
    const inc = await asAlice.put(`/api/recurring/${rule.id}`, { kind: 'income', category_id: salary });
    assert.equal(inc.statusCode, 200, inc.body);
    assert.equal(inc.json().kind, 'income');
    assertError(
      await asAlice.put(`/api/recurring/${rule.id}`, { end_date: '2030-01-14' }),
      400,
      40001,
      'end before start',
    );
    assertError(await asAlice.put(`/api/recurring/${rule.id}`, { interval: 0 }), 400, 40001, 'interval');
    assert.equal((await asAlice.put(`/api/recurring/${rule.id}`, {})).statusCode, 200);
  });

  it('catches up every missed occurrence over several months, each once, with tags, note and recurring_id', async () => {
    const tag = await createTag(t.db, alice.id, { name: 'home' });
    const rule = await create({ amount: 800, note: 'rent', tag_ids: [tag.id], start_date: '2035-01-31' });
    const r = await run(at('2035-06-15'));
    assert.ok(r.created >= 5);
    let rows = await generated(rule.id);
    assert.deepEqual(
      rows.map((x) => x.date),
      ['2035-01-31', '2035-02-28', '2035-03-31', '2035-04-30', '2035-05-31'],
    );
    for (const x of rows) {
      assert.equal(x.userId, alice.id);
      assert.equal(x.amountMinor, 80000);
      assert.equal(x.note, 'rent');
      assert.equal(x.kind, 'expense');
      assert.equal(x.categoryId, food);
      assert.equal(x.groupId, null);
    }
    const tagged = await t.db.select().from(transactionTags).where(eq(transactionTags.tagId, tag.id));
    assert.equal(tagged.length, 5);
    const [stored] = await t.db.select().from(recurringRules).where(eq(recurringRules.id, rule.id));
    assert.equal(stored!.nextDate, '2035-06-30');

    // running again the same day adds nothing; the next month adds one
    assert.equal((await run(at('2035-06-15'))).created, 0);
    assert.equal((await generated(rule.id)).length, 5);
    await run(at('2035-07-01'));
    rows = await generated(rule.id);
    assert.equal(rows.length, 6);
    assert.equal(rows.at(-1)!.date, '2035-06-30');

    // the generated transactions are the user's own, visible like any other
    const own = await t.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.userId, alice.id), eq(transactions.recurringId, rule.id)));
    assert.equal(own.length, 6);
  });

  it('never duplicates a date even when next_date is moved back (unique rule + date)', async () => {
    const rule = await create({ frequency: 'daily', start_date: '2035-03-01' });
    await run(at('2035-03-05'));
    assert.equal((await generated(rule.id)).length, 5);
    await t.db.update(recurringRules).set({ nextDate: '2035-03-01' }).where(eq(recurringRules.id, rule.id));
    const r = await run(at('2035-03-06'));
    const rows = await generated(rule.id);
    assert.deepEqual(
      rows.map((x) => x.date),
      ['2035-03-01', '2035-03-02', '2035-03-03', '2035-03-04', '2035-03-05', '2035-03-06'],
    );
    assert.ok(r.created >= 1);
  });

  it('stops at end_date and sets next_date to null', async () => {
    const rule = await create({ frequency: 'weekly', interval: 2, start_date: '2035-01-01', end_date: '2035-02-10' });
    await run(at('2035-12-31'));
    assert.deepEqual(
      (await generated(rule.id)).map((x) => x.date),
      ['2035-01-01', '2035-01-15', '2035-01-29'],
    );
    const [stored] = await t.db.select().from(recurringRules).where(eq(recurringRules.id, rule.id));
    assert.equal(stored!.nextDate, null);
    await run(at('2036-12-31'));
    assert.equal((await generated(rule.id)).length, 3);
  });

  it('uses the owner\'s time zone for "today"', async () => {
    const east = await createUser(t.db, { timezone: 'Pacific/Kiritimati' }); // UTC+14
    const west = await createUser(t.db, { timezone: 'Etc/GMT+12' }); // UTC-12
    const mk = async (u: UserRow) =>
      create(
        { frequency: 'daily', start_date: '2035-03-02', category_id: (await firstCategory(t.db, u.id)).id },
        t.as(u),
      );
    const e = await mk(east);
    const w = await mk(west);
    const utc = await create({ frequency: 'daily', start_date: '2035-03-02' });
    await run(new Date('2035-03-01T10:30:00Z')); // 2035-03-02 00:30 in Kiritimati
    assert.equal((await generated(e.id)).length, 1);
    assert.equal((await generated(utc.id)).length, 0);
    await run(new Date('2035-03-02T11:00:00Z')); // still 2035-03-01 at UTC-12
    assert.equal((await generated(utc.id)).length, 1);
    assert.equal((await generated(w.id)).length, 0);
    assert.equal((await generated(e.id)).length, 2);
    await run(new Date('2035-03-02T12:00:00Z'));
    assert.equal((await generated(w.id)).length, 1);
  });

  it('skips rules whose owner is deleted or disabled', async () => {
    const gone = await createUser(t.db);
    const off = await createUser(t.db);
    const g = await create(
      { frequency: 'daily', start_date: '2035-04-01', category_id: (await firstCategory(t.db, gone.id)).id },
      t.as(gone),
    );
    const o = await create(
      { frequency: 'daily', start_date: '2035-04-01', category_id: (await firstCategory(t.db, off.id)).id },
      t.as(off),
    );
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    await t.db.update(users).set({ status: 'disabled' }).where(eq(users.id, off.id));
    await run(at('2035-04-10'));
    assert.equal((await generated(g.id)).length, 0);
    assert.equal((await generated(o.id)).length, 0);
    await t.db.update(users).set({ status: 'active' }).where(eq(users.id, off.id));
    await run(at('2035-04-10'));
    assert.equal((await generated(o.id)).length, 10);
  });

  it('books into the group, and personally once the owner left it or it was dissolved', async () => {
    const group = await createGroup(t.db, bob.id);
    await addMember(t.db, group.id, alice.id);
    const rule = await create({ frequency: 'daily', start_date: '2035-05-01', group_id: group.id });
    await run(at('2035-05-02'));
    let rows = await generated(rule.id);
    assert.deepEqual(
      rows.map((x) => x.groupId),
      [group.id, group.id],
    );
    await t.db.update(groups).set({ dissolvedAt: new Date() }).where(eq(groups.id, group.id));
    await run(at('2035-05-03'));
    rows = await generated(rule.id);
    assert.equal(rows.length, 3);
    assert.equal(rows.at(-1)!.groupId, null);
  });

  it('pausing skips the paused dates; resuming starts at today, not filling the gap', async () => {
    const today = todayIn('UTC');
    const rule = await create({ frequency: 'daily', start_date: addDays(today, -10), active: false });
    assert.equal(rule.active, false);
    await run(new Date());
    assert.equal((await generated(rule.id)).length, 0);
    const resumed = await asAlice.put(`/api/recurring/${rule.id}`, { active: true });
    assert.equal(resumed.statusCode, 200, resumed.body);
    assert.equal(resumed.json().active, true);
    // today's occurrence is booked as the rule resumes
    assert.equal(resumed.json().next_date, addDays(today, 1));
    await run(new Date());
    assert.deepEqual(
      (await generated(rule.id)).map((x) => x.date),
      [today],
    );
    // pause again after generating: next_date is kept while paused, nothing is generated
    const paused = await asAlice.put(`/api/recurring/${rule.id}`, { active: false });
    assert.equal(paused.json().active, false);
    assert.equal(paused.json().next_date, addDays(today, 1));
    await run(new Date(Date.now() + 3 * 86_400_000));
    assert.equal((await generated(rule.id)).length, 1);
    // resuming does not go back to a date already generated
    const again = await asAlice.put(`/api/recurring/${rule.id}`, { active: true });
    assert.equal(again.json().next_date, addDays(today, 1));
  });

  it('resuming a rule paused over past occurrences skips them', async () => {
    const today = todayIn('UTC');
    const rule = await create({ frequency: 'weekly', start_date: addDays(today, -35) });
    await run(new Date());
    assert.equal((await generated(rule.id)).length, 6);
    await asAlice.put(`/api/recurring/${rule.id}`, { active: false });
    // weeks pass while paused: simulate by moving the rule's schedule back in time
    await t.db
      .update(recurringRules)
      .set({ startDate: addDays(today, -70), nextDate: addDays(today, -63) })
      .where(eq(recurringRules.id, rule.id));
    const res = await asAlice.put(`/api/recurring/${rule.id}`, { active: true });
    // today's date was booked before the pause; resuming moves on to the next week
    assert.equal(res.json().next_date, addDays(today, 7));
    await run(new Date());
    const dates = (await generated(rule.id)).map((x) => x.date);
    assert.ok(!dates.includes(addDays(today, -63)));
    assert.equal(dates.length, 6);
  });

  it('changing the schedule recomputes next_date', async () => {
    const rule = await create({ frequency: 'monthly', start_date: '2035-01-31' });
    await run(at('2035-03-10'));
    assert.equal((await generated(rule.id)).length, 2);
    // next was 2035-03-31; weekly from the same start: first weekly date on or after it
    const weekly = await asAlice.put(`/api/recurring/${rule.id}`, { frequency: 'weekly' });
    assert.equal(weekly.statusCode, 200, weekly.body);
    assert.equal(weekly.json().next_date, '2035-04-04');
    const every2 = await asAlice.put(`/api/recurring/${rule.id}`, { interval: 2 });
    assert.equal(every2.json().next_date, '2035-04-11');
    const ended = await asAlice.put(`/api/recurring/${rule.id}`, { end_date: '2035-04-01' });
    assert.equal(ended.json().next_date, null);
    await run(at('2035-12-31'));
    assert.equal((await generated(rule.id)).length, 2);
    // a rule that has generated nothing yet follows a new start date, back-filling from it
    const fresh = await create({ frequency: 'monthly', start_date: '2041-01-01' });
    const moved = await asAlice.put(`/api/recurring/${fresh.id}`, { start_date: '2035-02-15' });
    assert.equal(moved.json().next_date, '2035-02-15');
    await run(at('2035-04-20'));
    assert.deepEqual(
      (await generated(fresh.id)).map((x) => x.date),
      ['2035-02-15', '2035-03-15', '2035-04-15'],
    );
  });

  it('deleting a rule (204) keeps its transactions, detached', async () => {
    const rule = await create({ frequency: 'daily', start_date: '2035-06-01' });
    await run(at('2035-06-03'));
    const before = await generated(rule.id);
    assert.equal(before.length, 3);
    const res = await asAlice.delete(`/api/recurring/${rule.id}`);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assertError(await asAlice.delete(`/api/recurring/${rule.id}`), 404, 40401);
    const kept = await t.db
      .select()
      .from(transactions)
      .where(
        sql`${transactions.id} in (${sql.join(
          before.map((b) => sql`${b.id}`),
          sql`, `,
        )})`,
      );
    assert.equal(kept.length, 3);
    assert.ok(kept.every((x) => x.recurringId === null));
  });

  it('catches up a very long backlog in chunks', async () => {
    const rule = await create({ frequency: 'daily', start_date: '2000-01-01' });
    // the request books the first 500 days at once and leaves the rest to the scheduler
    assert.equal(rule.next_date, '2001-05-15');
    assert.equal((await generated(rule.id)).length, 500);
    await run(at('2030-12-31'));
    const rows = await generated(rule.id);
    const expected = Math.round((Date.UTC(2030, 11, 31) - Date.UTC(2000, 0, 1)) / 86_400_000) + 1;
    assert.ok(expected > 10_500);
    // at most 10,000 per run; the rest follows on the next runs
    assert.equal(rows.length, 10_500);
    await run(at('2030-12-31'));
    assert.equal((await generated(rule.id)).length, expected);
    assert.equal(new Set((await generated(rule.id)).map((x) => x.date)).size, expected);
  });
});

describe('recurring generation with two processes on one database', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await build();
    b = await build({}, { database: a.testDb });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it(`creates each occurrence exactly once when two instances run together${onPostgres ? '' : ' (serialized by the embedded database)'}`, async () => {
    const owners = [];
    for (let i = 0; i < 4; i++) owners.push(await createUser(a.db));
    const rules: { id: number; frequency: string; startDate: string }[] = [];
    const tag = await createTag(a.db, owners[0]!.id, { name: 'shared' });
    for (const [i, u] of owners.entries()) {
      const h = a.as(u);
      const cat = (await firstCategory(a.db, u.id)).id;
      for (const [frequency, startDate] of [
        ['daily', '2035-01-01'],
        ['weekly', '2035-01-03'],
        ['monthly', '2034-10-31'],
        ['daily', '2035-02-20'],
      ] as const) {
        const res = await h.post('/api/recurring', {
          kind: 'expense',
          amount: 5,
          category_id: cat,
          frequency,
          start_date: startDate,
          ...(i === 0 ? { tag_ids: [tag.id] } : {}),
        });
        assert.equal(res.statusCode, 201, res.body);
        rules.push({ id: res.json().id, frequency, startDate });
      }
    }
    const days = ['2035-02-01', '2035-03-01', '2035-03-02', '2035-03-15', '2035-04-30'];
    for (const d of days) {
      const now = new Date(`${d}T08:00:00Z`);
      await Promise.all([
        recurringTask.run(a.app, now),
        recurringTask.run(b.app, now),
        recurringTask.run(a.app, now),
        recurringTask.run(b.app, now),
      ]);
    }
    const counts = await a.db
      .select({ recurringId: transactions.recurringId, date: transactions.date, n: sql<number>`count(*)::int` })
      .from(transactions)
      .where(sql`${transactions.recurringId} is not null`)
      .groupBy(transactions.recurringId, transactions.date);
    assert.ok(
      counts.every((c) => c.n === 1),
      'no (rule, date) twice',
    );
    const perRule = new Map<number, number>();
    for (const c of counts) perRule.set(c.recurringId!, (perRule.get(c.recurringId!) ?? 0) + 1);
    const expected: Record<string, number> = { '2035-01-01': 120, '2035-01-03': 17, '2034-10-31': 7, '2035-02-20': 70 };
    for (const r of rules) assert.equal(perRule.get(r.id), expected[r.startDate], `${r.frequency} from ${r.startDate}`);
    // tags attached once per generated transaction
    const tagged = await a.db
      .select({ n: sql<number>`count(*)::int` })
      .from(transactionTags)
      .where(eq(transactionTags.tagId, tag.id));
    assert.equal(tagged[0]!.n, 120 + 17 + 7 + 70);
  });
});
