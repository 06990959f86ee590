import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FIRST_CONTRACT_WRITES } from '../src/plugins/body-rules.ts';
import {
  assertError,
  build,
  type Client,
  createUser,
  expectOk,
  firstCategory,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Doc = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

function refusedField(res: { statusCode: number; json: () => unknown; body: string }, field: string): void {
  assertError(res as never, 400, 40001);
  const body = res.json() as { message: string; details?: { field: string }[] };
  assert.ok(
    body.details?.some((d) => d.field === field),
    `details name ${field}: ${res.body}`,
  );
  assert.match(body.message, new RegExp(`^${field.replace(/\./g, '\\.')} `));
}

describe('unknown body fields', () => {
  let t: TestApp;
  let ann: UserRow;
  let a: Client;
  let food: number;

  before(async () => {
    t = await build();
    ann = await createUser(t.db, { nickname: 'Ann' });
    a = t.as(ann);
    food = (await firstCategory(t.db, ann.id)).id;
  });
  after(() => t.close());

  describe('first-contract routes accept and ignore them', () => {
    it('POST /api/transactions creates the transaction and drops the extra fields, nested ones too', async () => {
      const created = expectOk<Record<string, unknown>>(
        await a.post('/api/transactions', {
          kind: 'expense',
          amount: 12.5,
          category_id: food,
          date: '2026-03-01',
          note: 'lunch',
          colour: 'red',
          user_id: 999999,
        }),
        201,
      );
      assert.equal(created.amount, 12.5);
      assert.equal(created.note, 'lunch');
      assert.equal(created.user_id, ann.id);
      assert.equal('colour' in created, false);
    });

    it('an extra field does not change what an idempotency key stands for', async () => {
      const body = { kind: 'expense', amount: 3, category_id: food, date: '2026-03-02' };
      const first = expectOk<{ id: number }>(
        await a.post(
          '/api/transactions',
          { ...body, client_ref: 'x' },
          { headers: { 'idempotency-key': 'unknown-fields-1' } },
        ),
        201,
      );
      const again = expectOk<{ id: number }>(
        await a.post(
          '/api/transactions',
          { ...body, client_ref: 'y' },
          { headers: { 'idempotency-key': 'unknown-fields-1' } },
        ),
        201,
      );
      assert.equal(again.id, first.id);
    });

    it('PUT /api/me updates the profile and ignores fields it does not know, role included', async () => {
      const me = expectOk<{ nickname: string; role: string }>(
        await a.put('/api/me', { nickname: 'Annie', role: 'admin', theme: 'dark' }),
      );
      assert.equal(me.nickname, 'Annie');
      assert.equal(me.role, 'user');
      assert.equal('theme' in me, false);
    });

    it('POST /api/tags ignores an extra field', async () => {
      const tag = expectOk<{ name: string }>(await a.post('/api/tags', { name: 'trip', icon: 'plane' }), 201);
      assert.equal(tag.name, 'trip');
    });
  });

  describe('every other route refuses them, naming the field', () => {
    it('POST /api/accounts', async () => {
      refusedField(await a.post('/api/accounts', { name: 'Wallet', type: 'cash', colour: '#ff0000' }), 'colour');
      expectOk(await a.post('/api/accounts', { name: 'Wallet', type: 'cash' }), 201);
    });

    it('PUT /api/rates, in a nested object', async () => {
      refusedField(
        await a.put('/api/rates', { rates: [{ currency: 'USD', date: '2026-01-01', rate: '7', source: 'me' }] }),
        'rates.0.source',
      );
      refusedField(await a.put('/api/rates', { rates: [], base: 'CNY' }), 'base');
      expectOk(await a.put('/api/rates', { rates: [{ currency: 'USD', date: '2026-01-01', rate: '7' }] }));
    });

    it('POST /api/import-rules', async () => {
      refusedField(
        await a.post('/api/import-rules', { field: 'any', value: 'coffee', category_id: food, priority: 1 }),
        'priority',
      );
      expectOk(await a.post('/api/import-rules', { field: 'any', value: 'coffee', category_id: food }), 201);
    });

    it('a new field of a first-contract route is part of its body and still accepted', async () => {
      const me = expectOk<{ notify_splits: boolean }>(
        await a.put('/api/me', { notify_splits: false, unknown_flag: true }),
      );
      assert.equal(me.notify_splits, false);
    });
  });

  describe('the OpenAPI document states the rule', () => {
    let doc: Doc;
    before(async () => {
      doc = expectOk<Doc>(await t.anon.get('/api/openapi.json'));
    });

    const deref = (s: Schema | undefined): Schema | undefined =>
      s?.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s;

    /** every object in the body that declares fields, with its path inside the body */
    function objectsOf(schema: Schema | undefined, path = 'body', out: { path: string; schema: Schema }[] = []) {
      const s = deref(schema);
      if (!s) return out;
      const isObj = s.type === 'object' || s.properties !== undefined;
      if (isObj) out.push({ path, schema: s });
      for (const [k, v] of Object.entries(s.properties ?? {})) objectsOf(v, `${path}.${k}`, out);
      if (s.items) objectsOf(s.items, `${path}[]`, out);
      for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) objectsOf(alt, path, out);
      return out;
    }

    function jsonBodies() {
      const out: { key: string; schema: Schema }[] = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          const schema = op.requestBody?.content?.['application/json']?.schema;
          if (schema) out.push({ key: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, schema });
        }
      }
      return out;
    }

    it('lists only operations that exist', () => {
      const operations = new Set(
        Object.entries(doc.paths).flatMap(([path, ops]) =>
          Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
        ),
      );
      for (const key of FIRST_CONTRACT_WRITES) assert.ok(operations.has(key), `${key} is documented`);
    });

    it('every first-contract body is open, every other JSON body closed', () => {
      const bodies = jsonBodies();
      assert.ok(bodies.length > 40, `found ${bodies.length} JSON bodies`);
      let contract = 0;
      for (const { key, schema } of bodies) {
        const objects = objectsOf(schema);
        assert.ok(objects.length > 0 && objects[0]!.path === 'body', `${key}: an object body`);
        if (FIRST_CONTRACT_WRITES.has(key)) {
          contract++;
          for (const o of objects) assert.notEqual(o.schema.additionalProperties, false, `${key}: ${o.path} is open`);
        } else {
          for (const o of objects) {
            if (o.path !== 'body' && o.schema.additionalProperties === true) continue; // a free-form map by design
            assert.equal(o.schema.additionalProperties, false, `${key}: ${o.path} is closed`);
          }
        }
      }
      assert.ok(contract >= 30, `found ${contract} first-contract JSON bodies`);
    });
  });
});
