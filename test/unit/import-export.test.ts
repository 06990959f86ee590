import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { AppError } from '../../src/lib/errors.ts';
import type { ExportRow } from '../../src/modules/export/export.repo.ts';
import {
  minorToDecimal,
  csvCell,
  csvLines,
  EXPORT_COLUMNS,
  isoFromUtcText,
  jsonRecord,
  neutralizeFormula,
} from '../../src/modules/export/export.format.ts';
import { decodeText } from '../../src/modules/import/bill.read.ts';
import {
  IMPORT_MAX_ROWS,
  readLedgerFile,
  restoreFormula,
  validateRecords,
  type ImportRow,
} from '../../src/modules/import/ledger.read.ts';

/** Reads a file's text as POST /api/import reads its bytes. */
const parseFile = (text: string) => readLedgerFile(Buffer.from(text));

const HEADER = EXPORT_COLUMNS.join(',');

/** The AppError a promise rejects with. */
async function rejected(p: Promise<unknown>): Promise<{ status: number; code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return { status: err.status, code: err.code, message: err.message };
  }
  assert.fail('expected an error');
}

describe('export helpers', () => {
  it('writes cents as plain decimals with two places', () => {
    const table: [string | number, string][] = [
      [1, '0.01'],
      [5, '0.05'],
      [10, '0.10'],
      [99, '0.99'],
      [100, '1.00'],
      ['1250', '12.50'],
      [123456789, '1234567.89'],
      ['99999999999999', '999999999999.99'],
      [-5, '-0.05'],
    ];
    for (const [cents, text] of table) assert.equal(minorToDecimal(cents), text, String(cents));
  });

  it('writes UTC timestamps as ISO 8601 with milliseconds', () => {
    assert.equal(isoFromUtcText('2026-11-23 02:47:45.625799'), '2026-11-23T02:47:45.625Z');
    assert.equal(isoFromUtcText('2026-11-23 02:47:45.6'), '2026-11-23T02:47:45.600Z');
    assert.equal(isoFromUtcText('2026-11-23 02:47:45'), '2026-11-23T02:47:45.000Z');
    assert.equal(isoFromUtcText('0999-01-01 00:00:00.001'), '0999-01-01T00:00:00.001Z');
  });

  it('writes each cell exactly as csv-stringify does', () => {
    const cells = [
      '',
      'plain',
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\rx',
      '"',
      ',',
      ' spaced ',
      "'=x",
      'tab\tx',
      '汉字',
      'a|b',
      '""',
      '\r\n',
    ];
    for (const v of cells) assert.equal(csvCell(v), stringify([[v]], { eof: false }), JSON.stringify(v));
    assert.equal(csvCell('a,"b"'), '"a,""b"""');
  });

  it('prefixes text that a spreadsheet would run as a formula', () => {
    for (const s of ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) assert.equal(neutralizeFormula(s), `'${s}`);
    for (const s of ['', 'plain', ' =not first', "'quoted", '1-2']) assert.equal(neutralizeFormula(s), s);
    // text that already looks neutralized gets its own prefix, so that the import gives it back unchanged
    for (const s of ["'=x", "''+1", "'\tx"]) assert.equal(neutralizeFormula(s), `'${s}`);
  });
});

describe('import helpers', () => {
  it('decodes UTF-8 with and without BOM, UTF-16 with BOM, and GB18030/GBK', () => {
    const text = '日期,类别\n2026-01-01,餐饮 — café\n';
    assert.equal(decodeText(Buffer.from(text)), text);
    assert.equal(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])), text);
    assert.equal(decodeText(iconv.encode(text.replace(' — café', ''), 'gbk')), text.replace(' — café', ''));
    assert.equal(decodeText(iconv.encode(text, 'gb18030')), text);
    assert.equal(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')])), text);
  });

  it('removes only the formula prefix the export adds', () => {
    for (const s of ['=1', '+1', '-1', '@a', '\tx', '\rx']) assert.equal(restoreFormula(`'${s}`), s);
    for (const s of ["'plain", "'", 'x', '']) assert.equal(restoreFormula(s), s);
    // the export prefixes text that already looks neutralized too: one apostrophe comes off
    for (const s of ["'=x", "''+1", "'\tx"]) assert.equal(restoreFormula(`'${s}`), s);
  });
});

describe('import file parsing', () => {
  it('tells CSV from JSON by the first visible character, after a BOM and blank space', async () => {
    const cases: [string, 'csv' | 'json', number][] = [
      [`${HEADER}\n2026-01-01,expense,1,Food,,,,\n`, 'csv', 1],
      [`\ufeff${HEADER}\n2026-01-01,expense,1,Food,,,,\n`, 'csv', 1],
      ['[]', 'json', 0],
      ['  \n\t[{"date":"2026-01-01"}]', 'json', 1],
      ['\ufeff[{}, {}]', 'json', 2],
    ];
    for (const [text, source, n] of cases) {
      const file = await parseFile(text);
      assert.equal(file.source, source, JSON.stringify(text));
      assert.equal(file.records.length, n, JSON.stringify(text));
    }
  });

  it('refuses what is not an import file with 40001 naming the problem', async () => {
    const cases: [string, RegExp][] = [
      ['', /file is empty/],
      ['\ufeff \n\t', /file is empty/],
      ['[{"date":', /not valid JSON/],
      ['{"date":"2026-01-01"}', /must be a JSON array/],
      ['date,kind,amount\n2026-01-01,expense,1\n', /missing: category/],
      ['hello world\n', /missing: date, kind, amount, category/],
      [`${HEADER},note\n`, /names the column note twice/],
      ['date,kind,amount,category\n"unclosed,expense,1,Food\n', /not valid CSV/],
    ];
    for (const [text, message] of cases) {
      const err = await rejected(parseFile(text));
      assert.equal(err.code, 40001, JSON.stringify(text));
      assert.match(err.message, message, JSON.stringify(text));
    }
  });

  it('reads header names in any order and case, ignoring unknown columns and rows of empty cells', async () => {
    const { records } = await parseFile(
      ' Amount ,KIND,extra,date,Category\n12.5,expense,zzz,2026-01-01,Food\n,,,,\n\n3,income,,2026-01-02,Pay\n',
    );
    assert.deepEqual(records, [
      { date: '2026-01-01', kind: 'expense', amount: '12.5', category: 'Food' },
      { date: '2026-01-02', kind: 'income', amount: '3', category: 'Pay' },
    ]);
  });

  it('marks rows with more cells than the header, and gives missing cells as empty text', async () => {
    const { records } = await parseFile(
      'date,kind,amount,category,note\n2026-01-01,expense,1,Food,n,surplus\n2026-01-01,expense,1\n',
    );
    assert.deepEqual(records, [
      { date: '2026-01-01', kind: 'expense', amount: '1', category: 'Food', note: 'n', $extra: 1 },
      { date: '2026-01-01', kind: 'expense', amount: '1', category: '', note: '' },
    ]);
  });

  it(`stops at ${IMPORT_MAX_ROWS} rows with 41301, in CSV and in JSON`, async () => {
    const json = `[${'{},'.repeat(IMPORT_MAX_ROWS)}{}]`;
    assert.deepEqual((await rejected(parseFile(json))).code, 41301);
    assert.equal((await parseFile(`[${'{},'.repeat(IMPORT_MAX_ROWS - 1)}{}]`)).records.length, IMPORT_MAX_ROWS);
    const line = '2026-01-01,expense,1,Food\n';
    const csv = `date,kind,amount,category\n${line.repeat(IMPORT_MAX_ROWS + 1)}`;
    assert.deepEqual((await rejected(parseFile(csv))).code, 41301);
    // rows of empty cells do not count
    assert.equal(
      (await parseFile(`date,kind,amount,category\n${line.repeat(IMPORT_MAX_ROWS)}${',,,\n'.repeat(10)}`)).records
        .length,
      IMPORT_MAX_ROWS,
    );
  });
});

describe('import row validation', () => {
  const valid = { date: '2026-01-31', kind: 'expense', amount: '12.50', category: 'Food' };
  const csvRow = (rec: Record<string, unknown>) => validateRecords({ source: 'csv', records: [rec] });
  const jsonRow = (rec: unknown) => validateRecords({ source: 'json', records: [rec as Record<string, unknown>] });

  it('turns a valid record into a row, removing the formula prefix (CSV only) and trimming text', () => {
    const { rows, errors } = csvRow({
      ...valid,
      date: ' 2026-01-31 ',
      kind: ' income ',
      amount: ' 12.50 ',
      category: "'=Food ",
      note: "'+note ",
      tags: "'@a| b |a||",
      group_id: ' 42 ',
      created_at: '2026-01-31T23:30:00+08:00',
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(rows, [
      {
        row: 1,
        date: '2026-01-31',
        kind: 'income',
        amountMinor: 1250,
        category: '=Food',
        note: '+note',
        tags: ['@a', 'b', 'a'],
        groupId: 42,
        createdAt: '2026-01-31T15:30:00.000Z',
      },
    ]);
    const json = jsonRow({
      ...valid,
      amount: 0.07,
      category: "'=Food",
      note: null,
      tags: ['x', 'x', ' y '],
      group_id: 7,
      created_at: null,
    });
    assert.deepEqual(json.rows, [
      {
        row: 1,
        date: '2026-01-31',
        kind: 'expense',
        amountMinor: 7,
        category: "'=Food",
        note: '',
        tags: ['x', 'y'],
        groupId: 7,
        createdAt: null,
      },
    ]);
  });

  it('names every problem of a row in one message', () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['bad date', { ...valid, date: '2026-02-30' }, ['date must be a valid date']],
      ['year 0', { ...valid, date: '0000-12-31' }, ['date must be a valid date']],
      ['date as a number', { ...valid, date: 20260101 }, ['date must be a valid date']],
      ['kind', { ...valid, kind: 'gift' }, ['kind must be expense, income, transfer or adjustment']],
      [
        'transfer with a category',
        { ...valid, kind: 'transfer', to_account: 'Bank' },
        ['a transfer or an adjustment has no category'],
      ],
      ['transfer without to_account', { ...valid, kind: 'transfer', category: '' }, ['a transfer needs to_account']],
      ['to_account on an expense', { ...valid, to_account: 'Bank' }, ['only a transfer has to_account and to_amount']],
      ['bad currency', { ...valid, currency: 'ABC' }, ['currency must be an ISO 4217 code']],
      [
        'too many decimals for JPY',
        { ...valid, currency: 'JPY', amount: '1.5' },
        ['amount must have at most 0 decimals in JPY'],
      ],
      ['bad rate', { ...valid, rate: '-1' }, ['rate must be a positive decimal']],
      [
        'bad to_amount',
        { ...valid, kind: 'transfer', category: '', to_account: 'Bank', to_amount: 'x' },
        ['to_amount must be a positive decimal'],
      ],
      [
        'transfer in a group',
        { ...valid, kind: 'transfer', category: '', to_account: 'Bank', group_id: 3 },
        ['a transfer or an adjustment is not recorded in a group'],
      ],
      ['zero amount', { ...valid, amount: '0' }, ['amount must be > 0']],
      ['three decimals', { ...valid, amount: '1.234' }, ['amount must be a positive number']],
      ['negative', { ...valid, amount: -1 }, ['amount must be a positive number']],
      ['empty category', { ...valid, category: '  ' }, ['category must be 1 to 20 characters']],
      ['long category', { ...valid, category: '类'.repeat(21) }, ['category must be 1 to 20 characters']],
      ['long note', { ...valid, note: 'n'.repeat(201) }, ['note must be at most 200 characters']],
      ['note not text', { ...valid, note: 5 }, ['note must be text']],
      ['tags not text', { ...valid, tags: [1] }, ['tags must be names joined by |']],
      ['long tag', { ...valid, tags: ['t'.repeat(21)] }, ['each tag must be 1 to 20 characters']],
      ['tag with a bar', { ...valid, tags: ['a|b'] }, ['a tag name cannot contain "|"']],
      ['eleven tags', { ...valid, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, ['at most 10 tags']],
      ['group id', { ...valid, group_id: 'abc' }, ['group_id must be a positive integer']],
      ['group id too big', { ...valid, group_id: 2147483648 }, ['group_id must be a positive integer']],
      ['created_at', { ...valid, created_at: '2026-01-01' }, ['created_at must be an ISO 8601 timestamp']],
      [
        'created_at past 9999',
        { ...valid, created_at: '9999-12-31T23:00:00-14:00' },
        ['created_at must be an ISO 8601 timestamp'],
      ],
      [
        'created_at before 1000',
        { ...valid, created_at: '0999-12-31T23:59:59Z' },
        ['created_at must be an ISO 8601 timestamp'],
      ],
      ['NUL', { ...valid, note: 'a\u0000b' }, ['must not contain NUL characters']],
      ['extra cells', { ...valid, $extra: 2 }, ['has more cells than the header']],
      [
        'everything',
        { date: 'x', kind: 'x', amount: 'x', category: '' },
        ['date must', 'kind must', 'amount must', 'category must'],
      ],
    ];
    for (const [label, rec, parts] of cases) {
      const { rows, errors } = jsonRow(rec);
      assert.deepEqual(rows, [], label);
      assert.equal(errors.length, 1, label);
      assert.equal(errors[0]!.row, 1, label);
      for (const part of parts) assert.ok(errors[0]!.message.includes(part), `${label}: ${errors[0]!.message}`);
      assert.equal(errors[0]!.message.split('; ').length, parts.length, `${label}: ${errors[0]!.message}`);
    }
  });

  it('refuses JSON entries that are not objects, numbering rows from 1', () => {
    const { rows, errors } = validateRecords({
      source: 'json',
      records: [valid, null, [valid], 'text', valid] as Record<string, unknown>[],
    });
    assert.deepEqual(
      rows.map((r) => r.row),
      [1, 5],
    );
    assert.deepEqual(errors, [
      { row: 2, message: 'must be an object' },
      { row: 3, message: 'must be an object' },
      { row: 4, message: 'must be an object' },
    ]);
  });
});

// ---- properties: what the export writes, the import reads back ----

/** One character: any code point, or one of those the CSV and formula rules care about. */
const char = fc.oneof(
  fc.constantFrom('=', '+', '-', '@', "'", '"', ',', '|', '\n', '\r', '\t', ' ', '汉', '😀'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
/** Text as a user may type it: no NUL, no blank at either end (the import trims). */
const text = (min: number, max: number) =>
  fc
    .string({ unit: char, minLength: min, maxLength: max * 2 })
    .filter((s) => s === s.trim() && [...s].length >= min && [...s].length <= max && !s.includes('\u0000'));
const tagName = text(1, 20).filter((s) => !s.includes('|'));
const day = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const instant = fc.date({
  min: new Date('1000-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59.999Z'),
  noInvalidDate: true,
});
const record = fc.record({
  date: day,
  kind: fc.constantFrom('expense' as const, 'income' as const),
  cents: fc.integer({ min: 1, max: 99_999_999_999_999 }),
  category: text(1, 20),
  note: text(0, 200),
  tags: fc.uniqueArray(tagName, { maxLength: 10 }),
  groupId: fc.option(fc.integer({ min: 1, max: 2147483647 }), { nil: null }),
  createdAt: instant,
  micros: fc.integer({ min: 0, max: 999 }),
});
type Generated = typeof record extends fc.Arbitrary<infer T> ? T : never;

/** The export's rows, tags and category names for generated records (ids 1, 2, ...). */
function exportPage(recs: Generated[]) {
  const rows: ExportRow[] = recs.map((r, i) => ({
    id: i + 1,
    date: r.date,
    kind: r.kind,
    amount_minor: String(r.cents),
    category_id: i + 1,
    note: r.note,
    group_id: r.groupId,
    created_utc: `${r.createdAt.toISOString().slice(0, 23).replace('T', ' ')}${String(r.micros).padStart(3, '0')}`,
  }));
  return {
    rows,
    tags: new Map(recs.map((r, i) => [i + 1, r.tags])),
    categories: new Map(recs.map((r, i) => [i + 1, r.category])),
  };
}

const expected = (recs: Generated[]): ImportRow[] =>
  recs.map((r, i) => ({
    row: i + 1,
    date: r.date,
    kind: r.kind,
    amountMinor: r.cents,
    category: r.category,
    note: r.note,
    tags: r.tags,
    groupId: r.groupId,
    createdAt: r.createdAt.toISOString(),
  }));

describe('export then import (properties)', () => {
  const files: [string, (recs: Generated[]) => string][] = [
    ['CSV', (recs) => `\ufeff${stringify([[...EXPORT_COLUMNS]])}${csvLines(exportPage(recs))}`],
    [
      'JSON',
      (recs) => JSON.stringify(exportPage(recs).rows.map((r, i) => jsonRecord(r, recs[i]!.tags, recs[i]!.category))),
    ],
  ];
  for (const [format, write] of files) {
    it(`a ${format} export parses back into the same rows`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 8 }), async (recs) => {
          const parsed = validateRecords(await readLedgerFile(Buffer.from(write(recs))));
          assert.deepEqual(parsed.errors, []);
          assert.deepEqual(parsed.rows, expected(recs));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('restoreFormula undoes neutralizeFormula for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: char }), (s) => {
        assert.equal(restoreFormula(neutralizeFormula(s)), s);
      }),
    );
  });

  it('decodes any text written as UTF-8 (with or without BOM) or UTF-16 with a BOM', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        assert.equal(decodeText(Buffer.from(s)), s);
        assert.equal(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s)])), s);
        assert.equal(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(s, 'utf-16le')])), s);
        assert.equal(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(s, 'utf-16be')])), s);
      }),
    );
  });
});
