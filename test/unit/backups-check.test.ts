import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  BackupLineCheck,
  checkSchemaVersion,
  checkTargetTables,
  isGzip,
  orderByForeignKeys,
  type BackupSummary,
} from '../../src/modules/backups/backups.check.ts';

const header = {
  format: BACKUP_FORMAT,
  version: BACKUP_VERSION,
  schema_version: 'a'.repeat(64),
  schema_tag: '0001_tag',
  created_at: '2026-01-01T00:00:00.000Z',
  tables: [
    { name: 'users', columns: ['id', 'nickname'] },
    { name: 'categories', columns: ['id', 'user_id'] },
    { name: 'settings', columns: ['key'] },
  ],
};
const row = (t: string, r: Record<string, unknown> = { id: 1 }) => JSON.stringify({ t, r });
const end = (rows: Record<string, number>) => JSON.stringify({ end: true, rows });
const good = [
  JSON.stringify(header),
  row('users'),
  row('users', { id: 2 }),
  row('categories'),
  end({ users: 2, categories: 1, settings: 0 }),
];

function check(lines: string[]): BackupSummary {
  const c = new BackupLineCheck();
  for (const l of lines) c.line(l);
  return c.finish();
}

describe('backup file checks', () => {
  it('knows a gzip file by its first two bytes', () => {
    assert.equal(isGzip(Buffer.from([0x1f, 0x8b, 8])), true);
    assert.equal(isGzip(Buffer.from([0x1f, 0x8b])), true);
    for (const bytes of [[], [0x1f], [0x8b, 0x1f], [0x7b, 0x22]])
      assert.equal(isGzip(Buffer.from(bytes)), false, JSON.stringify(bytes));
  });

  it('accepts a complete file and counts its rows, blank lines after the end marker allowed', () => {
    const summary = check([...good, '', '  ']);
    assert.deepEqual(summary.rows, { users: 2, categories: 1, settings: 0 });
    assert.deepEqual(summary.header, header);
  });

  it('refuses each kind of damage with a message saying what is wrong', () => {
    const [h, u1, u2, c1, e] = good as [string, string, string, string, string];
    const cases: [string, string[], RegExp][] = [
      ['nothing at all', [], /the file is empty/],
      ['a header that is not JSON', ['hello world'], /not a ledger backup \(no header line\)/],
      ['another format', [JSON.stringify({ ...header, format: 'other' })], /^not a ledger backup$/],
      [
        'a newer version',
        [JSON.stringify({ ...header, version: 2 })],
        /format version 2 is not supported \(expected 1\)/,
      ],
      ['no schema version', [JSON.stringify({ ...header, schema_version: undefined })], /header is incomplete/],
      ['no table list', [JSON.stringify({ ...header, tables: {} })], /header is incomplete/],
      ['a malformed table', [JSON.stringify({ ...header, tables: [{ name: 'users' }] })], /lists a malformed table/],
      ['a row that is not JSON', [h, '{"t":"users","r":'], /line 2 is not a JSON object/],
      ['a JSON array as a row', [h, '[1,2]'], /line 2 is not a JSON object/],
      ['a row without its values', [h, JSON.stringify({ t: 'users' })], /line 2 is not a table row/],
      ['values that are a list', [h, JSON.stringify({ t: 'users', r: [1] })], /line 2 is not a table row/],
      ['an unknown table', [h, row('nope')], /line 2 belongs to table "nope", which the header does not list/],
      ['tables out of order', [h, u1, c1, u2], /line 4: rows of "users" are out of order/],
      ['no end marker', [h, u1, u2, c1], /truncated \(no end marker\)/],
      ['a line after the end marker', [...good, u1], /line 6 follows the end marker/],
      ['counts that do not add up', [h, u1, c1, e], /table "users" holds 1 rows but the end marker says 2/],
      [
        'an end marker without counts',
        [h, JSON.stringify({ end: true })],
        /table "users" holds 0 rows but the end marker says undefined/,
      ],
    ];
    for (const [label, lines, message] of cases) {
      assert.throws(
        () => check(lines),
        (err: unknown) => err instanceof BackupError && message.test(err.message),
        label,
      );
    }
  });

  it('refuses a backup of another schema, and one naming tables or columns the database lacks', () => {
    checkSchemaVersion(header, { version: header.schema_version, tag: 'other tag' });
    assert.throws(
      () => checkSchemaVersion(header, { version: 'b'.repeat(64), tag: '0002_next' }),
      (err: unknown) =>
        err instanceof BackupError &&
        err.message ===
          `the backup's schema (0001_tag ${'a'.repeat(12)}) differs from this build's (0002_next ${'b'.repeat(12)})`,
    );
    assert.throws(
      () => checkSchemaVersion({ ...header, schema_tag: null }, { version: 'b', tag: null }),
      /schema \(\? a{12}\) differs from this build's \(\? b\)/,
    );
    const target = new Map([
      ['users', { columns: [{ name: 'id' }, { name: 'nickname' }, { name: 'added_later' }] }],
      ['categories', { columns: [{ name: 'id' }, { name: 'user_id' }] }],
      ['settings', { columns: [{ name: 'key' }] }],
    ]);
    checkTargetTables(header, target);
    assert.throws(
      () => checkTargetTables({ tables: [...header.tables, { name: 'gone', columns: [] }] }, target),
      /table "gone" does not exist in this database/,
    );
    assert.throws(
      () => checkTargetTables({ tables: [{ name: 'settings', columns: ['key', 'value', 'note'] }] }, target),
      /table "settings" has no column value, note/,
    );
  });
});

describe('table order for a backup', () => {
  const tables = (names: string[]) => new Map(names.map((n) => [n, n]));

  it('puts parents first, alphabetically where free, ignoring self references and unknown parents', () => {
    const order = orderByForeignKeys(
      tables(['transactions', 'users', 'categories', 'tags', 'transaction_tags', 'audit']),
      [
        { child: 'transactions', parent: 'categories' },
        { child: 'transactions', parent: 'users' },
        { child: 'categories', parent: 'users' },
        { child: 'categories', parent: 'categories' },
        { child: 'transaction_tags', parent: 'transactions' },
        { child: 'transaction_tags', parent: 'tags' },
        { child: 'tags', parent: 'users' },
        { child: 'audit', parent: 'not_in_this_schema' },
      ],
    );
    assert.deepEqual(order, ['audit', 'users', 'categories', 'tags', 'transactions', 'transaction_tags']);
  });

  it('refuses a cycle of foreign keys', () => {
    assert.throws(
      () =>
        orderByForeignKeys(tables(['a', 'b', 'c']), [
          { child: 'a', parent: 'b' },
          { child: 'b', parent: 'c' },
          { child: 'c', parent: 'a' },
        ]),
      /foreign keys form a cycle/,
    );
  });

  it('lists every table once with each parent before its children, for any acyclic schema', () => {
    const schema = fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        // an edge from a later table to an earlier one keeps the graph acyclic
        edges: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })), {
          maxLength: 30,
        }),
        names: fc.shuffledSubarray(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'], {
          minLength: n,
          maxLength: n,
        }),
      }),
    );
    fc.assert(
      fc.property(schema, ({ edges, names }) => {
        const fks = edges
          .filter(([x, y]) => x !== y)
          .map(([x, y]) => ({ child: names[Math.max(x, y)]!, parent: names[Math.min(x, y)]! }));
        const order = orderByForeignKeys(tables(names), fks);
        assert.deepEqual([...order].sort(), [...names].sort());
        for (const fk of fks)
          assert.ok(order.indexOf(fk.parent) < order.indexOf(fk.child), `${fk.parent} before ${fk.child}`);
      }),
    );
  });
});
