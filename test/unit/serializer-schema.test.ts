import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Type } from 'typebox';
import { nullableAsTypeList } from '../../src/lib/serializer-schema.ts';
import { TransactionList } from '../../src/modules/transactions/transactions.schemas.ts';

// the serializer Fastify itself compiles responses with (its own dependency)
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const fjs = fastifyRequire('fast-json-stringify') as (schema: unknown) => (data: unknown) => string;

describe('response schemas as the serializer compiles them', () => {
  it('turns "this or null" into a type list, and leaves other unions and the schema itself alone', () => {
    const schema = Type.Object({
      a: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'd' }),
      b: Type.Union([Type.Literal('x'), Type.Literal('y')]),
      c: Type.Array(Type.Object({ v: Type.Union([Type.String(), Type.Null()]) })),
    });
    const before = JSON.stringify(schema);
    const out = nullableAsTypeList(schema) as {
      properties: { a: unknown; b: unknown; c: { items: { properties: { v: unknown } } } };
    };
    assert.deepEqual(out.properties.a, { type: ['integer', 'null'], minimum: 1, description: 'd' });
    assert.deepEqual(out.properties.b, JSON.parse(JSON.stringify(schema.properties.b)));
    assert.deepEqual(out.properties.c.items.properties.v, { type: ['string', 'null'] });
    assert.equal(JSON.stringify(schema), before);
  });

  it('writes dates, empty values and wrong values as the schema as written does', () => {
    const schema = Type.Object({
      t: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      n: Type.Union([Type.Number(), Type.Null()]),
      i: Type.Union([Type.Integer(), Type.Null()]),
      s: Type.Union([Type.String(), Type.Null()]),
      b: Type.Union([Type.Boolean(), Type.Null()]),
    });
    const asWritten = fjs(schema);
    const compiled = fjs(nullableAsTypeList(schema));
    const out = (f: (d: unknown) => string, v: unknown) => {
      try {
        return f(v);
      } catch (err) {
        return `refused: ${(err as Error).message}`;
      }
    };
    for (const v of [
      { t: new Date('2025-01-02T03:04:05.678Z'), n: 1.5, i: 3, s: 'x', b: true },
      { t: '2025-01-02T03:04:05.678Z', n: null, i: null, s: null, b: null },
      { t: null, n: 0, i: 0, s: '', b: false },
      {},
      { t: null, n: '5', i: null, s: null, b: null },
    ])
      assert.equal(out(compiled, v), out(asWritten, v), JSON.stringify(v));
    const empty = { n: null, i: null, s: null, b: null };
    assert.equal(
      out(compiled, { t: new Date('2025-01-02T03:04:05.678Z'), ...empty }),
      '{"t":"2025-01-02T03:04:05.678Z","n":null,"i":null,"s":null,"b":null}',
    );
    assert.match(out(compiled, { ...empty, t: null, n: '5' }), /^refused/);
  });

  it('serializes a page of the list to the very bytes the schema as written gives', () => {
    const asWritten = fjs(TransactionList);
    const compiled = fjs(nullableAsTypeList(TransactionList));
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
    const id = fc.integer({ min: 1, max: 2147483647 });
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const money = fc.double({ min: -1e12, max: 1e12, noNaN: true });
    const row = fc.record({
      id,
      kind: fc.constantFrom('expense', 'income', 'transfer', 'adjustment'),
      amount: money,
      currency: fc.constantFrom('CNY', 'USD', 'JPY', 'KWD'),
      account_id: maybe(id),
      to_account_id: maybe(id),
      to_amount: maybe(money),
      rate: maybe(fc.constantFrom('7.1234', '0.05', '1')),
      original_amount: maybe(money),
      original_currency: maybe(fc.constantFrom('EUR', 'HKD')),
      parent_id: maybe(id),
      refund_of: maybe(id),
      category_id: maybe(id),
      category_picked: fc.boolean(),
      category: maybe(
        fc.record({ id, name: text, color: fc.constant('#12AB34'), kind: fc.constantFrom('expense', 'income') }),
      ),
      note: text,
      date: fc.constant('2025-03-04'),
      group_id: maybe(id),
      paid_by: maybe(id),
      shares: fc.array(fc.record({ user_id: id, amount: money }), { maxLength: 2 }),
      split: maybe(
        fc.record({
          mode: fc.constantFrom('equal', 'shares', 'exact', 'percent'),
          members: fc.array(fc.record({ user_id: id, value: maybe(fc.constantFrom('1', '2.5')) }), { maxLength: 2 }),
        }),
      ),
      tags: fc.array(fc.record({ id, name: text }), { maxLength: 2 }),
      user_id: id,
      owner: fc.record({ id, nickname: text, avatar_url: maybe(fc.constant('/api/avatars/1.png')) }),
      recurring_id: maybe(id),
      created_at: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
      updated_at: fc.constant('2025-03-04T05:06:07.089Z'),
      attachments: fc.array(
        fc.record({ id, mime: fc.constant('image/png'), name: text, has_thumbnail: fc.boolean() }),
        { maxLength: 2 },
      ),
    });
    const page = fc.record({
      list: fc.array(row, { maxLength: 5 }),
      total: fc.nat(),
      sums: fc.record({ income: money, expense: money, balance: money, count: fc.nat() }),
    });
    fc.assert(
      fc.property(page, (p) => assert.equal(compiled(p), asWritten(p))),
      { numRuns: 500 },
    );
  });
});
