import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_FEATURES } from '../src/plugins/openapi-info.ts';
import { build, type TestApp } from './helpers/index.ts';

interface Operation {
  tags?: string[];
  summary?: string;
  responses: Record<string, unknown>;
}
interface Document {
  info: { description: string; license: { name: string; identifier?: string } };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
}

describe('the API documentation', () => {
  let t: TestApp;
  let doc: Document;
  before(async () => {
    t = await build();
    doc = (await t.anon.get('/api/openapi.json')).json<Document>();
  });
  after(async () => t?.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );

  it('groups every operation under one of the named features, each feature described', () => {
    const names = new Set<string>(API_FEATURES.map((f) => f.name));
    assert.deepEqual(
      doc.tags.map((tag) => tag.name),
      API_FEATURES.map((f) => f.name),
    );
    for (const tag of doc.tags) assert.ok(tag.description.length > 10, tag.name);
    const stray = operations().filter(({ op }) => op.tags?.length !== 1 || !names.has(op.tags[0]!));
    assert.deepEqual(
      stray.map((s) => `${s.key} ${JSON.stringify(s.op.tags)}`),
      [],
      'a route under a path segment with no feature',
    );
    // every feature shows something
    const used = new Set(operations().map(({ op }) => op.tags![0]));
    assert.deepEqual(
      API_FEATURES.map((f) => f.name).filter((n) => !used.has(n)),
      [],
    );
  });

  it('gives every operation a summary and its error answers in the error shape', () => {
    for (const { key, op } of operations()) {
      assert.ok(op.summary, `${key} has a summary`);
      const errors = Object.keys(op.responses).filter((code) => /^[45]\d\d$/.test(code));
      assert.ok(errors.includes('400') && errors.includes('500'), `${key} documents its errors: ${errors}`);
      const bad = op.responses['400'] as { content: Record<string, { schema: { $ref?: string } }> };
      assert.equal(bad.content['application/json']!.schema.$ref, '#/components/schemas/Error', key);
    }
  });

  it('states the real money rule, the error codes, idempotency keys, token scopes and the MIT licence', () => {
    const intro = doc.info.description;
    assert.doesNotMatch(intro, /at most 2 decimals/);
    assert.match(intro, /minor unit/);
    assert.match(intro, /JPY/);
    assert.match(intro, /KWD/);
    for (const code of ['40001', '40301', '40302', '40401', '42202', '42203', '42901', '50301'])
      assert.match(intro, new RegExp(code), code);
    assert.match(intro, /Idempotency-Key/);
    assert.match(intro, /`read`/);
    assert.match(intro, /`write`/);
    assert.match(intro, /MIT/);
    assert.deepEqual(doc.info.license, { name: 'MIT', identifier: 'MIT' });
  });

  it('serves the interactive documentation publicly', async () => {
    const page = await t.anon.get('/api/docs/');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /swagger-ui/);
    const json = (await t.anon.get('/api/docs/json')).json<Document>();
    assert.equal(Object.keys(json.paths).length, Object.keys(doc.paths).length);
  });
});
