import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, build, type Client, createUser, expectOk, multipart, type TestApp } from './helpers/index.ts';
import { wechatCsv } from './fixtures/bills/generate.ts';

/*
 * Nothing counted twice between typing and importing: a taxi typed by hand, then the WeChat bill
 * that holds it; and the other way round, an entry typed after the bill was imported.
 */

interface Row {
  row: number;
  amount: number;
  counterparty: string;
  decision: string;
  reason: string | null;
  account_id: number | null;
  external_id: string | null;
  existing_id: number | null;
}
interface Preview {
  id: number;
  rows: Row[];
  summary: { duplicate: number; import: number; methods: { method: string; account_id: number | null }[] };
}
interface Tx {
  id: number;
  amount: number;
  currency: string;
  note: string;
  date: string;
  account_id: number;
  created_at: string;
}

const line = (time: string, who: string, item: string, yuan: string, id: string) => [
  time,
  '商户消费',
  who,
  item,
  '支出',
  `¥${yuan}`,
  '零钱',
  '支付成功',
  id,
  `M${id}`,
  '/',
];
// the bill: the taxi typed by hand (same day), a coffee nobody typed, the same fare three days later, and a 45.00 lunch
// a day off
const BILL = [
  line('2026-11-27 18:05:00', '滴滴出行', '快车', '32.00', '4200002026112700000000000001'),
  line('2026-11-27 09:10:00', '瑞幸咖啡', '拿铁', '9.90', '4200002026112700000000000002'),
  line('2026-11-30 08:00:00', '滴滴出行', '快车', '32.00', '4200002026113000000000000003'),
  line('2026-11-21 12:30:00', '老乡鸡', '午餐', '45.00', '4200002026112100000000000004'),
];

describe('typed by hand, then imported: counted once', () => {
  let t: TestApp;
  let as: Client;
  let wallet: number;
  let cash: number;
  let transport: number;
  let food: number;

  const upload = async (rows: string[][]) =>
    expectOk<Preview>(
      await as.post('/api/import/bills', multipart(wechatCsv(rows), { filename: 'wechat.csv', type: 'text/csv' })),
    );
  const rows = async (id: number) =>
    expectOk<Preview>(await as.get(`/api/import/bills/${id}?pageSize=100`)).rows.sort((a, b) => a.row - b.row);
  const typed = async (body: Record<string, unknown>) =>
    expectOk<Tx>(await as.post('/api/transactions', { kind: 'expense', ...body }), 201);
  const all = async () => expectOk<{ list: Tx[] }>(await as.get('/api/transactions?pageSize=100')).list;

  before(async () => {
    t = await build();
    // the bill's times are read in the owner's time zone
    as = t.as(await createUser(t.db, { timezone: 'Asia/Shanghai' }));
    const cats = expectOk<{ list: { id: number; icon: string }[] }>(await as.get('/api/categories')).list;
    transport = cats.find((c) => c.icon === 'transport')!.id;
    food = cats.find((c) => c.icon === 'food')!.id;
    wallet = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: '微信', type: 'e_wallet', currency: 'CNY' }),
      201,
    ).id;
    cash = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: '钱包', type: 'cash', currency: 'CNY' }),
      201,
    ).id;
  });
  after(async () => t.close());

  let taxi: Tx;
  let preview: Preview;

  it('shows the typed taxi as probably recorded once the payment method is mapped to its account', async () => {
    taxi = await typed({ amount: '32', category_id: transport, account_id: wallet, date: '2026-11-27', note: '打车' });
    // the lunch was typed in another account: not the same payment
    await typed({ amount: '45', category_id: food, account_id: cash, date: '2026-11-21', note: '午饭' });
    preview = await upload(BILL);
    const method = preview.summary.methods.find((m) => m.method !== '')!;
    if (method.account_id !== wallet) {
      const res = await as.patch(`/api/import/bills/${preview.id}/rows`, {
        bulk: { method: method.method, set: { account_id: wallet } },
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    const [fare, coffee, later, lunch] = await rows(preview.id);
    assert.deepEqual(
      [fare!.decision, fare!.reason, fare!.existing_id, fare!.external_id],
      ['duplicate', 'probably_recorded', taxi.id, BILL[0]![8]],
    );
    // a payment nobody typed, the same fare three days off, and the lunch typed in another account are new
    for (const r of [coffee!, later!, lunch!]) assert.equal(r.reason === 'probably_recorded', false, r.counterparty);
    const summary = expectOk<Preview>(await as.get(`/api/import/bills/${preview.id}?pageSize=1`)).summary;
    assert.equal(summary.duplicate, 1);
  });

  it('commits the taxi into the typed entry: its id, time and counterparty, nothing booked twice', async () => {
    // the rows to book get their category from the person
    const toBook = (await rows(preview.id)).filter((r) => r.decision === 'import');
    const edit = await as.patch(`/api/import/bills/${preview.id}/rows`, {
      rows: toBook.map((r) => ({ row: r.row, category_id: food })),
    });
    assert.equal(edit.statusCode, 200, edit.body);
    const res = await as.post(`/api/import/bills/${preview.id}/commit`);
    assert.equal(res.statusCode, 200, res.body);
    const result = res.json<{ imported: number; merged: number }>();
    assert.deepEqual([result.imported, result.merged], [3, 1]);
    const list = await all();
    // two typed + three new from the bill: 32 yuan on 11-27 once
    assert.equal(list.length, 5);
    const fares = list.filter((x) => x.amount === 32 && x.date === '2026-11-27');
    assert.equal(fares.length, 1);
    const merged = fares[0]!;
    assert.equal(merged.id, taxi.id);
    assert.equal(merged.note, '打车 · 滴滴出行');
    // the bill's time: 18:05 in China is 10:05 UTC
    assert.equal(merged.created_at, '2026-11-27T10:05:00.000Z');
    // the wallet paid the taxi, the coffee, the later fare and the bill's lunch once each: 32 + 9.90 + 32 + 45
    const accounts = expectOk<{ list: { id: number; balance: number }[] }>(await as.get('/api/accounts')).list;
    assert.equal(accounts.find((a) => a.id === wallet)!.balance, -118.9);
  });

  it('books nothing on a re-upload', async () => {
    const again = await upload(BILL);
    const r = await rows(again.id);
    assert.deepEqual(
      r.map((x) => x.decision),
      ['duplicate', 'duplicate', 'duplicate', 'duplicate'],
    );
    assert.deepEqual(
      r.map((x) => x.reason),
      ['duplicate', 'duplicate', 'duplicate', 'duplicate'],
    );
    const res = await as.post(`/api/import/bills/${again.id}/commit`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<{ imported: number }>().imported, 0);
    assert.equal((await all()).length, 5);
  });

  it('books a probable row anyway when the person overrides it, keeping the bill id', async () => {
    const bus = await typed({
      amount: '2',
      category_id: transport,
      account_id: wallet,
      date: '2026-12-02',
      note: '公交',
    });
    const p = await upload([line('2026-12-02 07:40:00', '公交乘车码', '乘车', '2.00', '4200002026120200000000000005')]);
    const [row] = await rows(p.id);
    assert.deepEqual([row!.reason, row!.existing_id], ['probably_recorded', bus.id]);
    const res = await as.patch(`/api/import/bills/${p.id}/rows`, {
      rows: [{ row: row!.row, decision: 'import', category_id: transport }],
    });
    assert.equal(res.statusCode, 200, res.body);
    const [forced] = await rows(p.id);
    assert.deepEqual([forced!.decision, forced!.reason, forced!.external_id], ['import', 'forced', row!.external_id]);
    const commit = await as.post(`/api/import/bills/${p.id}/commit`);
    assert.equal(commit.statusCode, 200, commit.body);
    assert.deepEqual([commit.json<{ imported: number }>().imported, commit.json<{ merged: number }>().merged], [1, 0]);
    assert.equal((await all()).filter((x) => x.date === '2026-12-02').length, 2);
  });

  it('warns of an imported row before an entry typed afterwards is saved', async () => {
    const ask = (q: Record<string, string | number>) =>
      as.get(
        `/api/transactions/possible-duplicates?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`,
      );
    const coffee = { kind: 'expense', amount: '9.9', currency: 'CNY', account_id: wallet, date: '2026-11-28' };
    const found = expectOk<{ list: Tx[] }>(await ask(coffee)).list;
    assert.deepEqual(
      found.map((x) => [x.amount, x.date, x.note]),
      [[9.9, '2026-11-27', '瑞幸咖啡 拿铁']],
    );
    // two days off, another amount, another account: none
    for (const q of [
      { ...coffee, date: '2026-11-29' },
      { ...coffee, amount: '9.8' },
      { ...coffee, account_id: cash },
      { ...coffee, kind: 'income' },
    ])
      assert.deepEqual(expectOk<{ list: Tx[] }>(await ask(q)).list, []);
    // with a time: within 10 minutes of the bill's 09:10 only
    assert.equal(expectOk<{ list: Tx[] }>(await ask({ ...coffee, time: '2026-11-27T01:15:00Z' })).list.length, 1);
    assert.equal(expectOk<{ list: Tx[] }>(await ask({ ...coffee, time: '2026-11-27T01:25:00Z' })).list.length, 0);
    // an entry typed by hand is not an imported row
    assert.deepEqual(expectOk<{ list: Tx[] }>(await ask({ ...coffee, amount: '45', account_id: cash })).list, []);
    await assertError(await ask({ ...coffee, currency: 'XYZ' }), 400, 40001);
    await assertError(await ask({ ...coffee, amount: '9.999' }), 400, 40001);
    await assertError(await ask({ kind: 'expense', amount: '1', currency: 'CNY', date: '2026-11-28' }), 400, 40001);
  });
});
