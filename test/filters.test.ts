import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { savedFilters } from '../src/db/schema/index.ts';
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
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

describe('saved filters', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let a: Client;
  let b: Client;
  let cat1: number;
  let cat2: number;
  let tag1: number;
  let groupId: number;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice: a, asBob: b } = await aliceAndBob(t));
    cat1 = (await createCategory(t.db, alice.id, { name: 'F one' })).id;
    cat2 = (await createCategory(t.db, alice.id, { name: 'F two', kind: 'income' })).id;
    tag1 = (await createTag(t.db, alice.id, { name: 'ftag' })).id;
    const g = await createGroup(t.db, bob.id);
    await addMember(t.db, g.id, alice.id);
    groupId = g.id;
  });
  after(async () => t.close());

  it('saves a filter (201) and returns its criteria exactly as given, 0 bounds included', async () => {
    const criteria = {
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      kind: 'expense',
      category_ids: [cat1, cat2],
      tag_ids: [tag1],
      min_amount: 0,
      max_amount: 0,
      keyword: 'coffee 100%',
      group_id: groupId,
      user_id: bob.id,
      sort: 'amount_desc',
    };
    const res = await a.post('/api/filters', { name: '  Big month  ', criteria });
    assert.equal(res.statusCode, 201, res.body);
    const saved = res.json();
    assert.deepEqual(Object.keys(saved).sort(), ['created_at', 'criteria', 'id', 'name']);
    assert.equal(saved.name, 'Big month');
    assert.deepEqual(saved.criteria, criteria);
    assert.strictEqual(saved.criteria.min_amount, 0);
    assert.strictEqual(saved.criteria.max_amount, 0);
    assert.match(saved.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const [row] = await t.db.select().from(savedFilters).where(eq(savedFilters.id, saved.id));
    assert.deepEqual(row!.criteria, criteria);

    const minimal = await a.post('/api/filters', { name: 'empty', criteria: {} });
    assert.equal(minimal.statusCode, 201);
    assert.deepEqual(minimal.json().criteria, {});
    const decimals = await a.post('/api/filters', {
      name: 'decimals',
      criteria: { min_amount: 12.5, max_amount: 99.99, kind: 'all' },
    });
    assert.deepEqual(decimals.json().criteria, { min_amount: 12.5, max_amount: 99.99, kind: 'all' });

    const list = await a.get('/api/filters');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(Object.keys(list.json()), ['list']);
    assert.deepEqual(list.json().list[0], saved);
    assert.deepEqual(
      list.json().list.map((f: { name: string }) => f.name),
      ['Big month', 'empty', 'decimals'],
    );
    assert.deepEqual((await b.get('/api/filters')).json().list, []);
  });

  it('validates name and every criteria key, refusing unknown keys', async () => {
    const bad: [string, unknown][] = [
      ['no name', { criteria: {} }],
      ['no criteria', { name: 'x' }],
      ['empty name', { name: '  ', criteria: {} }],
      ['long name', { name: 'n'.repeat(31), criteria: {} }],
      ['criteria not an object', { name: 'x', criteria: 'kind=expense' }],
      ['unknown key', { name: 'x', criteria: { colour: 'red' } }],
      ['page is not a criteria key', { name: 'x', criteria: { page: 2 } }],
      ['bad date', { name: 'x', criteria: { startDate: '2026-02-30' } }],
      ['bad date format', { name: 'x', criteria: { endDate: '2026/01/01' } }],
      ['dates reversed', { name: 'x', criteria: { startDate: '2026-05-01', endDate: '2026-04-01' } }],
      ['bad kind', { name: 'x', criteria: { kind: 'both' } }],
      ['ids as a comma string', { name: 'x', criteria: { category_ids: `${cat1},${cat2}` } }],
      ['ids as strings', { name: 'x', criteria: { tag_ids: [String(tag1)] } }],
      ['amount as a string', { name: 'x', criteria: { min_amount: '10' } }],
      ['negative amount', { name: 'x', criteria: { min_amount: -1 } }],
      ['3 decimals', { name: 'x', criteria: { max_amount: 1.234 } }],
      ['huge amount', { name: 'x', criteria: { max_amount: 1e13 } }],
      ['min above max', { name: 'x', criteria: { min_amount: 20, max_amount: 10 } }],
      ['bad sort', { name: 'x', criteria: { sort: 'random' } }],
      ['user_id without group', { name: 'x', criteria: { user_id: bob.id } }],
      ['null value', { name: 'x', criteria: { group_id: null } }],
      ['long keyword', { name: 'x', criteria: { keyword: 'k'.repeat(201) } }],
    ];
    for (const [label, body] of bad) assertError(await a.post('/api/filters', body), 400, 40001, label);
    const unknown = await a.post('/api/filters', { name: 'x', criteria: { kind: 'expense', colour: 'red' } });
    assert.equal(unknown.json().details[0].field, 'criteria.colour');
    assert.equal((await a.post('/api/filters', { name: 'n'.repeat(30), criteria: {} })).statusCode, 201);
  });

  it("refuses ids that are not the caller's with 40001", async () => {
    const bobsCat = await createCategory(t.db, bob.id, { name: 'B cat' });
    const bobsTag = await createTag(t.db, bob.id, { name: 'btag' });
    const lonely = await createGroup(t.db, bob.id);
    const cases: [string, Record<string, unknown>, string][] = [
      ['foreign category', { category_ids: [cat1, bobsCat.id] }, 'criteria.category_ids'],
      ['missing category', { category_ids: [99999999] }, 'criteria.category_ids'],
      ['foreign tag', { tag_ids: [bobsTag.id] }, 'criteria.tag_ids'],
      ['group not joined', { group_id: lonely.id }, 'criteria.group_id'],
      ['missing group', { group_id: 99999999 }, 'criteria.group_id'],
    ];
    for (const [label, criteria, field] of cases) {
      const res = await a.post('/api/filters', { name: 'x', criteria });
      assertError(res, 400, 40001, label);
      assert.equal(res.json().details[0].field, field, label);
    }
    const dup = await a.post('/api/filters', { name: 'dups', criteria: { category_ids: [cat1, cat1] } });
    assert.equal(dup.statusCode, 201, 'repeated own ids are still own ids');
    assert.deepEqual(dup.json().criteria, { category_ids: [cat1, cat1] });
  });

  it('updates name and/or criteria (criteria replaced as a whole)', async () => {
    const f = (await a.post('/api/filters', { name: 'to edit', criteria: { kind: 'income', min_amount: 5 } })).json();
    const r1 = await a.put(`/api/filters/${f.id}`, { name: 'edited' });
    assert.equal(r1.statusCode, 200);
    assert.deepEqual(r1.json(), { ...f, name: 'edited' });
    const r2 = await a.put(`/api/filters/${f.id}`, { criteria: { max_amount: 0, tag_ids: [tag1] } });
    assert.deepEqual(r2.json().criteria, { max_amount: 0, tag_ids: [tag1] });
    assert.equal(r2.json().name, 'edited');
    assert.equal(r2.json().created_at, f.created_at);
    const r3 = await a.put(`/api/filters/${f.id}`, {});
    assert.deepEqual(r3.json(), r2.json());
    assertError(await a.put(`/api/filters/${f.id}`, { criteria: { bogus: 1 } }), 400, 40001, 'unknown key');
    assertError(await a.put(`/api/filters/${f.id}`, { name: '' }), 400, 40001, 'empty name');
    assertError(
      await a.put(`/api/filters/${f.id}`, { criteria: { category_ids: [999999] } }),
      400,
      40001,
      'foreign id',
    );
    assert.deepEqual((await a.get('/api/filters')).json().list.find((x: { id: number }) => x.id === f.id).criteria, {
      max_amount: 0,
      tag_ids: [tag1],
    });
  });

  it('deletes a saved filter', async () => {
    const f = (await a.post('/api/filters', { name: 'to delete', criteria: {} })).json();
    const del = await a.delete(`/api/filters/${f.id}`);
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    assertError(await a.delete(`/api/filters/${f.id}`), 404, 40401);
    assertError(await a.put(`/api/filters/${f.id}`, { name: 'back' }), 404, 40401);
    assert.ok(!(await a.get('/api/filters')).json().list.some((x: { id: number }) => x.id === f.id));
  });

  it("hides another user's saved filters (404)", async () => {
    const bobs = (await b.post('/api/filters', { name: 'bob filter', criteria: { kind: 'income' } })).json();
    assertError(await a.put(`/api/filters/${bobs.id}`, { name: 'mine' }), 404, 40401, 'put');
    assertError(await a.delete(`/api/filters/${bobs.id}`), 404, 40401, 'delete');
    assert.ok(!(await a.get('/api/filters')).json().list.some((x: { id: number }) => x.id === bobs.id));
    assert.equal((await b.get('/api/filters')).json().list[0].name, 'bob filter');
    assertError(await a.put('/api/filters/0', { name: 'x' }), 400, 40001);
  });

  it('keeps at most 50 saved filters per user (42201)', async () => {
    const carol = await createUser(t.db);
    const c = t.as(carol);
    for (let i = 0; i < 50; i++)
      assert.equal(
        (await c.post('/api/filters', { name: `f${i}`, criteria: { kind: 'expense' } })).statusCode,
        201,
        `#${i}`,
      );
    assertError(await c.post('/api/filters', { name: 'f50', criteria: {} }), 422, 42201, '51st');
    assert.equal((await c.get('/api/filters')).json().list.length, 50);
    // validation comes before the rule
    assertError(await c.post('/api/filters', { name: '', criteria: {} }), 400, 40001);
    const first = (await c.get('/api/filters')).json().list[0];
    assert.equal((await c.delete(`/api/filters/${first.id}`)).statusCode, 204);
    assert.equal((await c.post('/api/filters', { name: 'room again', criteria: {} })).statusCode, 201);
  });

  it('holds the limit under concurrent creations', async () => {
    const dan = await createUser(t.db);
    await t.db
      .insert(savedFilters)
      .values(Array.from({ length: 48 }, (_, i) => ({ userId: dan.id, name: `seed${i}`, criteria: {} })));
    const asDan = t.as(dan);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => asDan.post('/api/filters', { name: `race${i}`, criteria: {} })),
    );
    assert.equal(results.filter((r) => r.statusCode === 201).length, 2);
    for (const r of results.filter((x) => x.statusCode !== 201)) assertError(r, 422, 42201);
    assert.equal((await t.db.select().from(savedFilters).where(eq(savedFilters.userId, dan.id))).length, 50);
  });

  it('requires authentication', async () => {
    assertError(await t.anon.get('/api/filters'), 401, 40101);
  });
});
