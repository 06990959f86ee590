import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { transactions } from '../src/db/schema/index.ts';
import { write } from '../src/modules/books/index.ts';
import {
  addMember,
  build,
  createGroup,
  createTag,
  createUser,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

describe('transactions recorded at the same moment', () => {
  let t: TestApp;
  let users: UserRow[];
  before(async () => {
    t = await build();
    users = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
  });
  after(() => t.close());

  it('records many parallel creates of several users exactly, each with its own checks', async () => {
    const [a, b, c] = users as [UserRow, UserRow, UserRow];
    const catA = await firstCategory(t.db, a.id);
    const catB = await firstCategory(t.db, b.id);
    const incomeC = await firstCategory(t.db, c.id, 'income');
    const tagA = await createTag(t.db, a.id, { name: 'work' });
    const tagB = await createTag(t.db, b.id, { name: 'home' });
    const group = await createGroup(t.db, a.id);
    await addMember(t.db, group.id, b.id);
    const clients = users.map((u) => t.as(u));
    type Case = { who: number; body: Record<string, unknown>; status: number };
    const cases: Case[] = [];
    for (let i = 0; i < 20; i++) {
      cases.push({
        who: 0,
        body: {
          kind: 'expense',
          amount: `${i + 1}.25`,
          category_id: catA.id,
          date: '2026-03-01',
          note: `a${i}`,
          tag_ids: [tagA.id],
        },
        status: 201,
      });
      cases.push({
        who: 1,
        body: {
          kind: 'expense',
          amount: i + 1,
          category_id: catB.id,
          date: '2026-03-02',
          note: `b${i}`,
          group_id: group.id,
          tag_ids: [tagB.id],
        },
        status: 201,
      });
      cases.push({
        who: 2,
        body: { kind: 'income', amount: '1000', category_id: incomeC.id, date: '2026-03-03', note: `c${i}` },
        status: 201,
      });
    }
    // refused rows in the same moment: another user's category or tag, a group the caller is not in, a wrong kind
    cases.push({ who: 2, body: { kind: 'expense', amount: 1, category_id: catA.id, date: '2026-03-01' }, status: 400 });
    cases.push({
      who: 1,
      body: { kind: 'expense', amount: 1, category_id: catB.id, date: '2026-03-01', tag_ids: [tagA.id] },
      status: 400,
    });
    cases.push({
      who: 2,
      body: { kind: 'income', amount: 1, category_id: incomeC.id, date: '2026-03-01', group_id: group.id },
      status: 403,
    });
    cases.push({ who: 0, body: { kind: 'income', amount: 1, category_id: catA.id, date: '2026-03-01' }, status: 400 });
    const results = await Promise.all(cases.map((k) => clients[k.who]!.post('/api/transactions', k.body)));
    results.forEach((res, i) =>
      assert.equal(res.statusCode, cases[i]!.status, `${JSON.stringify(cases[i])}: ${res.body}`),
    );
    const ids = new Set<number>();
    results.forEach((res, i) => {
      if (res.statusCode !== 201) return;
      const tx = res.json();
      const k = cases[i]!;
      ids.add(tx.id);
      assert.equal(tx.user_id, users[k.who]!.id);
      assert.equal(tx.note, k.body.note);
      assert.equal(tx.amount, Number(k.body.amount));
      assert.equal(tx.category_id, k.body.category_id);
      assert.equal(tx.group_id, k.body.group_id ?? null);
      assert.deepEqual(
        tx.tags.map((g: { id: number }) => g.id),
        (k.body.tag_ids as number[] | undefined) ?? [],
      );
    });
    assert.equal(ids.size, 60);
    for (const u of users) {
      const rows = await t.db.select().from(transactions).where(eq(transactions.userId, u.id));
      assert.equal(rows.length, 20);
    }
    // what the answers said is what was stored
    const listed = (await clients[0]!.get('/api/transactions?pageSize=100')).json();
    assert.equal(listed.total, 20);
    assert.equal(listed.sums.expense, (20 * 21) / 2 + 20 * 0.25);
  });

  it('writes the good rows of a batch when one row breaks the statement', async () => {
    const [a] = users as [UserRow];
    const cat = await firstCategory(t.db, a.id);
    // outside a transaction, manual entries written in the same turn share one statement
    const record = (note: string, date = '2026-04-01') =>
      write(t.db, a.id, {
        type: 'manual',
        draft: { kind: 'expense', amount: 5, categoryId: cat.id, accountId: null, note, date, tagIds: [] },
        inTransaction: false,
      });
    const outcomes = await Promise.allSettled([record('first'), record('broken', '2026-02-30'), record('third')]);
    assert.equal(outcomes[0]!.status, 'fulfilled');
    assert.equal(outcomes[1]!.status, 'rejected');
    assert.equal(outcomes[2]!.status, 'fulfilled');
    const notes = (await t.db.select().from(transactions).where(eq(transactions.userId, a.id))).map((r) => r.note);
    assert.ok(notes.includes('first') && notes.includes('third') && !notes.includes('broken'));
  });
});
