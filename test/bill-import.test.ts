import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { accounts, importSessions, transactions } from '../src/db/schema/index.ts';
import { query } from '../src/db/client.ts';
import {
  assertError,
  build,
  type Client,
  createCategory,
  createUser,
  multipart,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';
import { committed, decideBill } from './helpers/bill-decide.ts';
import { BANK_HEADER } from './fixtures/bills/generate.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/bills/${name}`, import.meta.url));
const upload = (name: string) =>
  multipart(fixture(name), {
    filename: name,
    type: name.endsWith('xlsx') ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv',
  });

interface Row {
  row: number;
  kind: string;
  amount: number;
  decision: string;
  reason: string | null;
  method: string;
  to_method: string | null;
  account_id: number | null;
  to_account_id: number | null;
  category_id: number | null;
  refund: boolean;
  refund_of_row: number | null;
  refund_of: number | null;
  external_id: string | null;
  counterparty: string;
  note: string;
}
interface PreviewBody {
  id: number;
  format: string;
  rows: Row[];
  total: number;
  summary: {
    total: number;
    import: number;
    duplicate: number;
    skip: number;
    transfer: number;
    methods: { method: string; account_id: number | null; rows: number }[];
    undecided: { rows: number; category: number; account: number };
  };
}

async function account(
  t: TestApp,
  userId: number,
  name: string,
  type: 'debit_card' | 'e_wallet' | 'credit_card' | 'investment' = 'e_wallet',
) {
  const [a] = await t.db
    .insert(accounts)
    .values({ userId, name, type, currency: 'CNY', openingDate: '2024-01-01' })
    .returning();
  return a!.id;
}

async function firstCategory(as: Client, kind: string) {
  return (await as.get('/api/categories'))
    .json<{ list: { id: number; kind: string }[] }>()
    .list.find((c) => c.kind === kind)?.id;
}

describe('bill import', () => {
  let t: TestApp;
  let alice: UserRow;
  let bob: UserRow;
  let asAlice: Client;
  let asBob: Client;

  before(async () => {
    t = await build();
    alice = await createUser(t.db);
    bob = await createUser(t.db);
    asAlice = t.as(alice);
    asBob = t.as(bob);
  });
  after(async () => t.close());

  async function preview(as: Client, name: string, query = ''): Promise<PreviewBody> {
    const res = await as.post(`/api/import/bills${query}`, upload(name));
    assert.equal(res.statusCode, 200, res.body);
    return res.json<PreviewBody>();
  }
  const row = (p: PreviewBody, n: number) => p.rows.find((r) => r.row === n)!;

  it('WeChat Pay: a preview with meaning, then mapped accounts, then one commit', async () => {
    const p = await preview(asAlice, 'wechat.csv');
    assert.equal(p.format, 'wechat');
    assert.equal(p.total, 15);
    assert.equal(row(p, 1).kind, 'expense');
    assert.equal(row(p, 1).amount, 58);
    // nothing chosen for the person: a payment method with no account waits for one, and a row that
    // nothing places has no category
    assert.equal(row(p, 1).account_id, null, 'no account until the person chooses one');
    assert.ok(p.summary.methods.every((m) => m.account_id === null));
    const cats = (await asAlice.get('/api/categories')).json<{ list: { id: number; name: string; kind: string }[] }>()
      .list;
    const named = (name: string) =>
      cats.find((c) => c.name === name || c.name === { 餐饮: 'Food', 购物: 'Shopping', 住房: 'Housing' }[name])!.id;
    assert.equal(row(p, 1).category_id, named('餐饮'), '晚餐 at a restaurant is food');
    assert.equal(row(p, 2).category_id, named('购物'), 'a convenience store is shopping');
    assert.equal(row(p, 3).category_id, null, 'a red packet sent is for the person to place');
    assert.equal(row(p, 14).category_id, null, 'so is money received from a person');
    const open = p.rows.filter((r) => r.decision === 'import' && r.kind !== 'transfer' && r.category_id === null);
    assert.equal(p.summary.undecided.category, open.length);
    assert.equal(p.summary.undecided.account, p.rows.filter((r) => r.decision === 'import').length);
    assert.deepEqual([row(p, 8).decision, row(p, 8).reason], ['skip', 'closed']);
    // moves need accounts on both ends: skipped until the person maps them
    assert.deepEqual([row(p, 9).decision, row(p, 9).reason], ['skip', 'no_account']);
    // the refund reduces the purchase of the same bill
    assert.deepEqual([row(p, 6).refund, row(p, 6).refund_of_row, row(p, 6).kind], [true, 7, 'expense']);
    assert.equal(row(p, 13).counterparty, 'HYPERLINK("http://example.invalid","小卖部")');
    assert.ok(p.summary.methods.some((m) => m.method === '招商银行储蓄卡(1234)'));

    const card = await account(t, alice.id, '招商银行储蓄卡', 'debit_card');
    const wallet = await account(t, alice.id, '微信零钱');
    const fund = await account(t, alice.id, '零钱通', 'investment');
    const credit = await account(t, alice.id, '招商银行信用卡', 'credit_card');
    for (const [method, id] of [
      ['招商银行储蓄卡(1234)', card],
      ['微信零钱', wallet],
      ['微信零钱通', fund],
      ['招商银行信用卡', credit],
    ] as const) {
      const res = await asAlice.patch(`/api/import/bills/${p.id}/rows`, { bulk: { method, set: { account_id: id } } });
      assert.equal(res.statusCode, 200, res.body);
    }
    const after = (await asAlice.get(`/api/import/bills/${p.id}?pageSize=100`)).json<PreviewBody>();
    assert.deepEqual(
      [row(after, 9).decision, row(after, 9).account_id, row(after, 9).to_account_id],
      ['transfer', card, wallet],
    );
    assert.deepEqual([row(after, 12).decision, row(after, 12).to_account_id], ['transfer', credit]);
    assert.equal(row(after, 1).account_id, card);
    assert.equal(row(after, 15).account_id, fund);
    assert.equal(after.summary.transfer, 4);

    // a single row skipped by hand
    const res = await asAlice.patch(`/api/import/bills/${p.id}/rows`, { rows: [{ row: 14, decision: 'skip' }] });
    assert.equal(res.statusCode, 200, res.body);

    // rows still to decide refuse the commit, each named
    const undecided = await asAlice.post(`/api/import/bills/${p.id}/commit`);
    assertError(undecided, 422, 42203);
    const still = open.filter((r) => r.row !== 14).map((r) => r.row);
    assert.deepEqual(
      undecided.json<{ errors: { row: number; code: string }[] }>().errors.map((e) => [e.row, e.code]),
      still.map((n) => [n, 'no_category']),
    );
    // one choice for all of them of a kind
    const decided = await asAlice.patch(`/api/import/bills/${p.id}/rows`, {
      bulk: {
        undecided: 'category',
        set: { category_id: cats.find((c) => c.kind === 'expense' && c.id !== named('餐饮'))!.id },
      },
    });
    assert.equal(decided.statusCode, 200, decided.body);
    const incomeCat = cats.find((c) => c.kind === 'income')!.id;
    const rest = await asAlice.patch(`/api/import/bills/${p.id}/rows`, {
      bulk: { undecided: 'category', set: { category_id: incomeCat } },
    });
    assert.deepEqual(rest.json<PreviewBody>().summary.undecided, { rows: 0, category: 0, account: 0 });

    const commit = await asAlice.post(`/api/import/bills/${p.id}/commit`);
    assert.equal(commit.statusCode, 200, commit.body);
    assert.deepEqual(committed(commit.json()), { imported: 13, skipped: 2, transfers: 4, refunds: 1 });

    const rows = await t.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.userId, alice.id), eq(transactions.source, 'wechat')));
    assert.equal(rows.length, 13);
    const purchase = rows.find((r) => r.externalId === '4200002024031400000000000007')!;
    const refund = rows.find((r) => r.externalId === '50300000022024031400000000006')!;
    assert.equal(refund.refundOf, purchase.id);
    assert.equal(refund.kind, 'expense');
    assert.equal(refund.amountMinor + purchase.amountMinor, 0);
    assert.equal(refund.categoryId, purchase.categoryId);
    const move = rows.find((r) => r.externalId === '1000100001202403120000000009')!;
    assert.deepEqual(
      [move.kind, move.accountId, move.toAccountId, move.toAmount, move.categoryId],
      ['transfer', card, wallet, 20000, null],
    );

    // committed twice: refused
    await assertError(await asAlice.post(`/api/import/bills/${p.id}/commit`), 409, 40901);
  });

  it('the same payments again (the same bill, or its XLSX) are duplicates, and payment methods are remembered', async () => {
    for (const name of ['wechat.csv', 'wechat.xlsx']) {
      const p = await preview(asAlice, name);
      assert.equal(p.summary.import, name === 'wechat.csv' ? 1 : 0, name);
      assert.equal(row(p, 1).decision, 'duplicate');
      assert.equal(
        row(p, 14).decision,
        name === 'wechat.csv' ? 'import' : 'duplicate',
        'the row skipped by hand was not imported the first time',
      );
      // remembered from the first time
      assert.notEqual(row(p, 9).reason, 'no_account');
      assert.equal(p.summary.undecided.account, 0);
      if (row(p, 14).decision === 'import')
        await asAlice.patch(`/api/import/bills/${p.id}/rows`, {
          rows: [{ row: 14, category_id: (await firstCategory(asAlice, 'income'))! }],
        });
      const c = await asAlice.post(`/api/import/bills/${p.id}/commit`);
      assert.equal(c.statusCode, 200, c.body);
      assert.equal(c.json<{ imported: number }>().imported, name === 'wechat.csv' ? 1 : 0);
    }
    const [{ n } = { n: -1 }] = await query<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from transactions where user_id = ${alice.id} and source = 'wechat'`,
    );
    assert.equal(n, 14);
  });

  it('Alipay: rules first, then suggestion; a refund of an earlier purchase becomes income', async () => {
    const food = await createCategory(t.db, bob.id, { name: '水果', kind: 'expense' });
    const first = await asBob.post('/api/import-rules', {
      field: 'counterparty',
      match: 'contains',
      value: '果园',
      category_id: food.id,
    });
    assert.equal(first.statusCode, 201, first.body);
    const other = await createCategory(t.db, bob.id, { name: '杂项', kind: 'expense' });
    const second = await asBob.post('/api/import-rules', {
      field: 'any',
      value: '果',
      category_id: other.id,
      position: 1,
    });
    assert.equal(second.statusCode, 201);
    let p = await preview(asBob, 'alipay.csv');
    assert.equal(row(p, 1).category_id, other.id, 'the rule placed first wins');
    const order = await asBob.put('/api/import-rules/order', {
      ids: [first.json<{ id: number }>().id, second.json<{ id: number }>().id],
    });
    assert.equal(order.statusCode, 200, order.body);
    p = await preview(asBob, 'alipay.csv');
    assert.equal(p.format, 'alipay');
    assert.equal(row(p, 1).category_id, food.id);
    assert.deepEqual([row(p, 6).refund_of_row, row(p, 6).kind], [7, 'expense']);
    assert.deepEqual([row(p, 8).decision, row(p, 8).reason], ['skip', 'closed']);
    // a refund whose purchase is in neither the bill nor the books is money back all the same: an income
    assert.deepEqual(
      [row(p, 11).refund, row(p, 11).kind, row(p, 11).refund_of, row(p, 11).decision, row(p, 11).reason],
      [true, 'income', null, 'import', 'refund_unpaired'],
    );
    await decideBill(asBob, p.id, await account(t, bob.id, '支付宝'));
    const c = await asBob.post(`/api/import/bills/${p.id}/commit`);
    assert.equal(c.statusCode, 200, c.body);
    const web = await preview(asBob, 'alipay-web.csv');
    assert.equal(web.format, 'alipay');
    assert.equal(row(web, 2).amount, 70);
  });

  it('an unknown layout: 42203 with what was recognised; a saved mapping reads it, and is offered for the same header', async () => {
    const res = await asAlice.post('/api/import/bills', upload('bank.csv'));
    assertError(res, 422, 42203);
    const body = res.json<{ recognised: { header: string[]; container: string } }>();
    assert.deepEqual(body.recognised.header, BANK_HEADER);
    const bank = await account(t, alice.id, '示例银行', 'debit_card');
    const preset = await asAlice.post('/api/import/presets', {
      name: '示例银行',
      header: body.recognised.header,
      mapping: {
        date: '记账日期',
        date_format: 'YYYY-MM-DD',
        amount: '交易金额',
        sign: 'negative_is_expense',
        description: '交易摘要',
        counterparty: '对手信息',
        external_id: '流水号',
      },
      account_id: bank,
    });
    assert.equal(preset.statusCode, 201, preset.body);
    const bad = await asAlice.post('/api/import/presets', {
      name: 'x',
      header: ['a'],
      mapping: { date: 'b', date_format: 'YYYY-MM-DD', amount: 'a', sign: 'negative_is_expense' },
    });
    assertError(bad, 400, 40001);
    const p = await preview(asAlice, 'bank.csv');
    assert.equal(p.format, 'mapped');
    assert.equal(row(p, 2).kind, 'income');
    assert.equal(row(p, 1).account_id, bank);
    await decideBill(asAlice, p.id, bank);
    const c = await asAlice.post(`/api/import/bills/${p.id}/commit`);
    assert.deepEqual(committed(c.json()), { imported: 5, skipped: 0, transfers: 0, refunds: 0 });
    const again = await preview(asAlice, 'bank.csv', `?preset_id=${preset.json<{ id: number }>().id}`);
    assert.equal(again.summary.duplicate, 5);
  });

  it('our own export previews as ledger and commits its categories', async () => {
    const p = await preview(asBob, 'ledger.csv');
    assert.equal(p.format, 'ledger');
    const c = await asBob.post(`/api/import/bills/${p.id}/commit`);
    assert.equal(c.statusCode, 200, c.body);
    assert.equal(c.json<{ imported: number }>().imported, 3);
    const again = await preview(asBob, 'ledger.csv');
    assert.equal(again.summary.duplicate, 3);
  });

  it('a refund whose purchase is left out must become an income before commit', async () => {
    const carol = await createUser(t.db);
    const asCarol = t.as(carol);
    const p = await preview(asCarol, 'alipay.csv');
    assert.equal(row(p, 6).refund_of_row, 7);
    await decideBill(asCarol, p.id, await account(t, carol.id, '支付宝'));
    assert.equal(
      (await asCarol.patch(`/api/import/bills/${p.id}/rows`, { rows: [{ row: 7, decision: 'skip' }] })).statusCode,
      200,
    );
    const refused = await asCarol.post(`/api/import/bills/${p.id}/commit`);
    assertError(refused, 422, 42203);
    assert.deepEqual(
      refused.json<{ errors: { row: number }[] }>().errors.map((e) => e.row),
      [6],
    );
    // as an income it needs an income category: nothing places it, so the person decides
    const asIncome = await asCarol.patch(`/api/import/bills/${p.id}/rows`, { rows: [{ row: 6, kind: 'income' }] });
    assert.equal(asIncome.json<PreviewBody>().summary.undecided.category, 1);
    await decideBill(asCarol, p.id, 0);
    const c = await asCarol.post(`/api/import/bills/${p.id}/commit`);
    assert.equal(c.statusCode, 200, c.body);
    const [refund] = await t.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.userId, carol.id),
          eq(transactions.externalId, '2024031422001400000000000006_1710471600000'),
        ),
      );
    assert.deepEqual([refund!.kind, refund!.amountMinor, refund!.refundOf], ['income', 4500, null]);
  });

  it('a malformed row is reported with its number and reason; nothing kept', async () => {
    const text = fixture('wechat.csv').toString('utf8').replace('¥12.50', '¥12.5x');
    const res = await asAlice.post('/api/import/bills', multipart(Buffer.from(text)));
    assertError(res, 422, 42203);
    assert.deepEqual(res.json<{ errors: unknown[] }>().errors, [
      {
        row: 2,
        message: 'amount "¥12.5x" is not an amount with at most 2 decimals',
        code: 'bad_amount',
        params: { column: '金额', value: '¥12.5x' },
      },
    ]);
    const [{ n } = { n: -1 }] = await query<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from import_sessions where user_id = ${alice.id} and status = 'reading'`,
    );
    assert.equal(n, 0);
  });

  it('text with backslashes and what COPY would read as a null or an escape is stored and booked as written', async () => {
    const user = await createUser(t.db);
    const as = t.as(user);
    const odd = 'C:\\云杉\\N 便利店 \\t\\';
    const text = fixture('wechat.csv').toString('utf8').replace('云杉便利店,"矿泉水, 面包"', `${odd},"\\N"`);
    const res = await as.post('/api/import/bills', multipart(Buffer.from(text)));
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json<PreviewBody>();
    const line = p.rows.find((r) => r.counterparty === odd);
    assert.ok(line, JSON.stringify(p.rows.map((r) => r.counterparty)));
    assert.equal(line.note, `${odd} \\N`);
    await decideBill(as, p.id, await account(t, user.id, '微信零钱'));
    assert.equal((await as.post(`/api/import/bills/${p.id}/commit`)).statusCode, 200);
    const [booked] = await t.db
      .select({ note: transactions.note })
      .from(transactions)
      .where(and(eq(transactions.userId, user.id), eq(transactions.externalId, line.external_id!)));
    assert.equal(booked?.note, `${odd} \\N`);
  });

  it('a file over 20 MB is 41301', async () => {
    const res = await asAlice.post('/api/import/bills', multipart(Buffer.alloc(20 * 1024 * 1024 + 10, 0x41)));
    assertError(res, 413, 41301);
  });

  it("another user's preview, rule or mapping is not found; an expired preview is gone", async () => {
    const p = await preview(asAlice, 'alipay-web.csv');
    assertError(await asBob.get(`/api/import/bills/${p.id}`), 404, 40401);
    assertError(
      await asBob.patch(`/api/import/bills/${p.id}/rows`, { rows: [{ row: 1, decision: 'skip' }] }),
      404,
      40401,
    );
    assertError(await asBob.post(`/api/import/bills/${p.id}/commit`), 404, 40401);
    const rules = (await asBob.get('/api/import-rules')).json<{ list: { id: number }[] }>().list;
    assertError(await asAlice.delete(`/api/import-rules/${rules[0]!.id}`), 404, 40401);
    const own = await createCategory(t.db, bob.id, { name: '仅限本人', kind: 'expense' });
    assertError(
      await asAlice.patch(`/api/import/bills/${p.id}/rows`, { rows: [{ row: 1, category_id: own.id }] }),
      400,
      40001,
    );
    await t.db
      .update(importSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(importSessions.id, p.id));
    assertError(await asAlice.get(`/api/import/bills/${p.id}`), 404, 40401);
  });
});
