import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { build, createUser, multipart, type TestApp } from './helpers/index.ts';
import { committed, decideBill } from './helpers/bill-decide.ts';
import { sharedFolder } from './helpers/shared-files.ts';

/*
 * Real bank and payment exports (../shared/bills/real beside the repository, sources and licence in
 * its README) imported by a fresh user: preview, commit and the books agree to the cent with figures
 * computed without our parser (fixtures/bills/real/expected.mjs, rules in RULES.md); a second upload
 * books nothing; no answer is a 500. Without that folder every case skips and says why.
 */

interface Figures {
  rows: number;
  import: number;
  skip: number;
  duplicate: number;
  transfer: number;
  expense: number;
  income: number;
  refunds: number;
  ignored?: number;
}
interface Case {
  file: string;
  format: string;
  header?: string[];
  mapping?: Record<string, unknown>;
  refused?: { code: number; suggestion: string };
  expected?: Figures;
}

const real = sharedFolder('bills/real');
const cases = JSON.parse(
  readFileSync(new URL('./fixtures/bills/real/expected.json', import.meta.url), 'utf8'),
) as Case[];
const upload = (file: string) =>
  multipart(readFileSync(real.file(file)), { filename: file, type: 'application/octet-stream' });

describe('real bills', { skip: real.skip }, () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  it('the corpus holds at least 15 files of WeChat, Alipay and at least six banks', () => {
    assert.ok(cases.length >= 15);
    assert.ok(cases.some((c) => c.format === 'wechat') && cases.some((c) => c.format === 'alipay'));
  });

  for (const c of cases) {
    it(`${c.file}: ${c.refused ? 'refused with a reason a person can act on' : 'preview, commit and books agree with the independent figures'}`, async () => {
      const user = await createUser(t.db);
      const as = t.as(user);
      let query = '';
      if (c.mapping) {
        const res = await as.post('/api/import/presets', {
          name: c.file.slice(0, 30),
          header: c.header,
          mapping: c.mapping,
        });
        assert.equal(res.statusCode, 201, res.body);
        query = `?preset_id=${res.json<{ id: number }>().id}`;
      }
      const res = await as.post(`/api/import/bills${query}`, upload(c.file));
      assert.notEqual(res.statusCode, 500, res.body);
      if (c.refused) {
        assert.equal(res.statusCode, 422, res.body);
        const body = res.json<{ code: number; recognised?: { suggestion?: string }; errors?: { code?: string }[] }>();
        assert.equal(body.code, c.refused.code);
        const suggestion = body.recognised?.suggestion ?? body.errors?.[0]?.code;
        assert.equal(suggestion, c.refused.suggestion);
        return;
      }
      assert.equal(res.statusCode, 200, res.body);
      const p = res.json<{ id: number; total: number; summary: Figures & { total: number }; ignored: unknown[] }>();
      const e = c.expected!;
      assert.deepEqual(
        {
          rows: p.summary.total,
          import: p.summary.import,
          skip: p.summary.skip,
          duplicate: p.summary.duplicate,
          transfer: p.summary.transfer,
          expense: p.summary.expense,
          income: p.summary.income,
        },
        {
          rows: e.rows,
          import: e.import,
          skip: e.skip,
          duplicate: e.duplicate,
          transfer: e.transfer,
          expense: e.expense,
          income: e.income,
        },
        'preview summary',
      );
      if (e.ignored !== undefined) assert.equal(p.ignored.length, e.ignored, 'lines that are no payments');
      // the person's choices: their one account for every payment method, a category for each row nothing placed
      const decided = await decideBill(as, p.id);
      assert.deepEqual(decided.undecided, { rows: 0, category: 0, account: 0 });
      const commit = await as.post(`/api/import/bills/${p.id}/commit`);
      assert.equal(commit.statusCode, 200, commit.body);
      assert.deepEqual(
        committed(commit.json()),
        {
          imported: e.import + e.transfer,
          skipped: e.rows - e.import - e.transfer,
          transfers: e.transfer,
          refunds: e.refunds,
        },
        'commit result',
      );
      const books = await as.get('/api/transactions?startDate=1900-01-01&endDate=2999-12-31&pageSize=1');
      assert.equal(books.statusCode, 200, books.body);
      const sums = books.json<{ sums: { income: number; expense: number; count: number } }>().sums;
      assert.deepEqual(
        { expense: sums.expense, income: sums.income },
        { expense: e.expense, income: e.income },
        'the books',
      );
      // the same bill again books nothing
      const again = await as.post(`/api/import/bills${query}`, upload(c.file));
      assert.equal(again.statusCode, 200, again.body);
      const q = again.json<{ id: number; summary: Figures }>();
      assert.equal(q.summary.import + q.summary.transfer, 0, 'a second upload finds every row in the books');
      const second = await as.post(`/api/import/bills/${q.id}/commit`);
      assert.equal(second.statusCode, 200, second.body);
      assert.equal(second.json<{ imported: number }>().imported, 0);
    });
  }
});
