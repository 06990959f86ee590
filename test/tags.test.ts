import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { tags, transactionTags } from '../src/db/schema/index.ts';
import { isUniqueViolation } from '../src/db/errors.ts';
import { updateTag } from '../src/modules/tags/tags.repo.ts';
import {
  aliceAndBob,
  assertError,
  build,
  type Client,
  createTag,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

describe('tags', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let a: Client;
  let b: Client;

  before(async () => {
    t = await build();
    ({ alice, bob, asAlice: a, asBob: b } = await aliceAndBob(t));
  });
  after(async () => t.close());

  it("creates tags (201) and lists only the caller's, by name", async () => {
    const res = await a.post('/api/tags', { name: '  travel ', color: '#1A2b3C' });
    assert.equal(res.statusCode, 201, res.body);
    const tag = res.json();
    assert.deepEqual(Object.keys(tag).sort(), ['color', 'created_at', 'id', 'name']);
    assert.equal(tag.name, 'travel');
    assert.equal(tag.color, '#1A2b3C');
    assert.match(tag.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const plain = await a.post('/api/tags', { name: 'business' });
    assert.equal(plain.statusCode, 201);
    assert.equal(plain.json().color, null);
    await b.post('/api/tags', { name: 'bob only' });
    const list = await a.get('/api/tags');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(Object.keys(list.json()), ['list']);
    assert.deepEqual(
      list.json().list.map((x: { name: string }) => x.name),
      ['business', 'travel'],
    );
    assert.deepEqual(list.json().list[1], tag);
  });

  it('validates name (1 to 20 characters after trimming) and color', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(21) },
      { name: 5 },
      { name: null },
      { name: 'ok', color: 'red' },
      { name: 'ok', color: '#12345' },
      { name: 'ok', color: '#1234567' },
      { name: 'ok', color: '123456' },
      { name: 'a|b' },
    ]) {
      assertError(await a.post('/api/tags', body), 400, 40001, JSON.stringify(body));
    }
    const twenty = await a.post('/api/tags', { name: '标'.repeat(20) });
    assert.equal(twenty.statusCode, 201, twenty.body);
    assert.equal(
      (await a.post('/api/tags', { name: ` ${'y'.repeat(20)} ` })).statusCode,
      201,
      'trimmed before counting',
    );
  });

  it('refuses a duplicate name of the same user with 40901, but not across users', async () => {
    assert.equal((await a.post('/api/tags', { name: 'dup' })).statusCode, 201);
    assertError(await a.post('/api/tags', { name: 'dup' }), 409, 40901, 'exact');
    assertError(await a.post('/api/tags', { name: ' dup ' }), 409, 40901, 'after trimming');
    assert.equal((await b.post('/api/tags', { name: 'dup' })).statusCode, 201);
  });

  it("updates name and color; renaming onto another tag's name is 40901", async () => {
    const x = (await a.post('/api/tags', { name: 'x-tag', color: '#000000' })).json();
    await a.post('/api/tags', { name: 'y-tag' });
    const r1 = await a.put(`/api/tags/${x.id}`, { name: 'x-renamed' });
    assert.equal(r1.statusCode, 200);
    assert.deepEqual(r1.json(), { ...x, name: 'x-renamed' });
    const r2 = await a.put(`/api/tags/${x.id}`, { color: '#FFFFFF' });
    assert.equal(r2.json().color, '#FFFFFF');
    assert.equal(r2.json().name, 'x-renamed');
    const r3 = await a.put(`/api/tags/${x.id}`, { color: null });
    assert.equal(r3.json().color, null);
    assertError(await a.put(`/api/tags/${x.id}`, { name: 'y-tag' }), 409, 40901, 'rename onto another');
    const same = await a.put(`/api/tags/${x.id}`, { name: 'x-renamed' });
    assert.equal(same.statusCode, 200, 'keeping its own name is fine');
    assert.equal((await a.put(`/api/tags/${x.id}`, {})).json().name, 'x-renamed');
    for (const body of [{ name: '' }, { name: 'z'.repeat(21) }, { color: 'blue' }]) {
      assertError(await a.put(`/api/tags/${x.id}`, body), 400, 40001, JSON.stringify(body));
    }
  });

  it('deletes a tag and detaches it from its transactions', async () => {
    const tag = (await a.post('/api/tags', { name: 'to-delete' })).json();
    const keep = (await a.post('/api/tags', { name: 'to-keep' })).json();
    const cat = await firstCategory(t.db, alice.id);
    const tx = (
      await a.post('/api/transactions', {
        kind: 'expense',
        amount: 3,
        category_id: cat.id,
        date: '2026-02-01',
        tag_ids: [tag.id, keep.id],
      })
    ).json();
    assert.equal(tx.tags.length, 2);
    const del = await a.delete(`/api/tags/${tag.id}`);
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    const after = (await a.get(`/api/transactions/${tx.id}`)).json();
    assert.deepEqual(after.tags, [{ id: keep.id, name: 'to-keep' }]);
    assert.deepEqual(await t.db.select().from(transactionTags).where(eq(transactionTags.tagId, tag.id)), []);
    assertError(await a.delete(`/api/tags/${tag.id}`), 404, 40401, 'twice');
    assertError(await a.put(`/api/tags/${tag.id}`, { name: 'back' }), 404, 40401, 'update deleted');
    assert.ok(!(await a.get('/api/tags')).json().list.some((x: { id: number }) => x.id === tag.id));
    // the name is free again
    assert.equal((await a.post('/api/tags', { name: 'to-delete' })).statusCode, 201);
  });

  it('drops a deleted tag from recurring rules and saved filter criteria', async () => {
    const gone = (await a.post('/api/tags', { name: 'gone-soon' })).json();
    const kept = (await a.post('/api/tags', { name: 'stays' })).json();
    const cat = await firstCategory(t.db, alice.id);
    const rule = await a.post('/api/recurring', {
      kind: 'expense',
      amount: 5,
      category_id: cat.id,
      frequency: 'monthly',
      start_date: '2026-01-01',
      tag_ids: [gone.id, kept.id],
    });
    assert.equal(rule.statusCode, 201, rule.body);
    const filter = await a.post('/api/filters', {
      name: 'tagged',
      criteria: { tag_ids: [kept.id, gone.id], min_amount: 0 },
    });
    assert.equal(filter.statusCode, 201, filter.body);
    assert.equal((await a.delete(`/api/tags/${gone.id}`)).statusCode, 204);
    const rules = (await a.get('/api/recurring')).json().list;
    assert.deepEqual(rules.find((r: { id: number }) => r.id === rule.json().id).tag_ids, [kept.id]);
    const filters = (await a.get('/api/filters')).json().list;
    assert.deepEqual(filters.find((f: { id: number }) => f.id === filter.json().id).criteria, {
      tag_ids: [kept.id],
      min_amount: 0,
    });
  });

  it("treats another user's tag as not found, and as an invalid reference", async () => {
    const bobs = await createTag(t.db, bob.id, { name: 'bob-secret', color: '#ABCDEF' });
    assertError(await a.put(`/api/tags/${bobs.id}`, { name: 'stolen' }), 404, 40401, 'put');
    assertError(await a.delete(`/api/tags/${bobs.id}`), 404, 40401, 'delete');
    assert.ok(!(await a.get('/api/tags')).json().list.some((x: { id: number }) => x.id === bobs.id));
    const cat = await firstCategory(t.db, alice.id);
    assertError(
      await a.post('/api/transactions', {
        kind: 'expense',
        amount: 3,
        category_id: cat.id,
        date: '2026-02-01',
        tag_ids: [bobs.id],
      }),
      400,
      40001,
      'reference',
    );
    const [still] = await t.db.select().from(tags).where(eq(tags.id, bobs.id));
    assert.equal(still!.name, 'bob-secret');
    assertError(await a.put('/api/tags/0', { name: 'q' }), 400, 40001, 'bad id');
    assertError(await a.delete('/api/tags/abc'), 400, 40001, 'bad id');
  });

  it('recognises the unique index refusing a duplicate, whichever driver raised it', async () => {
    const one = await createTag(t.db, alice.id, { name: 'race-a' });
    await createTag(t.db, alice.id, { name: 'race-b' });
    const err = await updateTag(t.db, alice.id, one.id, { name: 'race-b' }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err, 'the unique index refused it');
    assert.equal(isUniqueViolation(err), true);
    assert.equal(isUniqueViolation(new Error('other')), false);
  });

  it('requires authentication', async () => {
    assertError(await t.anon.get('/api/tags'), 401, 40101);
    assertError(await t.anon.post('/api/tags', { name: 'x' }), 401, 40101);
  });
});
