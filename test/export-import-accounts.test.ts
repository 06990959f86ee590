import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asc, eq, sql } from 'drizzle-orm';
import { query } from '../src/db/client.ts';
import { accounts, transactions } from '../src/db/schema/index.ts';
import {
  assertError,
  build,
  type Client,
  createAccount,
  createCategory,
  createTransaction,
  createUser,
  expectOk,
  firstCategory,
  multipart,
  readCsv,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('export and import with accounts, currencies and transfers', () => {
  let t: TestApp;
  let alice: UserRow;
  let asAlice: Client;
  let cash: number;
  let bank: number;
  let wallet: number;
  const MARCH = 'startDate=2026-03-01&endDate=2026-03-31';

  const accountsOf = async (userId: number) =>
    t.db.select().from(accounts).where(eq(accounts.userId, userId)).orderBy(asc(accounts.sort), asc(accounts.id));
  const rowsOf = async (userId: number) =>
    t.db
      .select()
      .from(transactions)
      .where(eq(transactions.userId, userId))
      .orderBy(asc(transactions.date), asc(transactions.id));

  before(async () => {
    t = await build();
    alice = await createUser(t.db);
    asAlice = t.as(alice);
    const food = (await firstCategory(t.db, alice.id, 'expense')).id;
    const trips = (await createCategory(t.db, alice.id, { name: 'Trips', kind: 'expense' })).id;
    cash = (await accountsOf(alice.id)).find((a) => a.isDefault)!.id;
    bank = (await createAccount(t.db, alice.id, { name: 'Bank' })).id;
    wallet = (await createAccount(t.db, alice.id, { name: 'Dollars', currency: 'USD', sort: 2 })).id;
    const row = (o: Parameters<typeof createTransaction>[2]) => createTransaction(t.db, alice.id, o);
    await row({ date: '2026-03-02', amountMinor: 10000, categoryId: food, accountId: cash, note: 'lunch' });
    const tr = await row({
      kind: 'transfer',
      date: '2026-03-03',
      amountMinor: 30000,
      accountId: bank,
      toAccountId: cash,
      toAmount: 30000,
      toCurrency: 'CNY',
      note: 'atm',
    });
    await row({
      date: '2026-03-03',
      amountMinor: 200,
      categoryId: food,
      accountId: bank,
      parentId: tr.id,
      note: 'fee',
    });
    await row({ kind: 'adjustment', date: '2026-03-04', amountMinor: -1250, accountId: cash, note: 'counted' });
    await row({
      date: '2026-03-05',
      amountMinor: 1000,
      categoryId: trips,
      accountId: wallet,
      currency: 'USD',
      baseAmount: 7100,
      rate: '7.1',
      note: 'taxi',
    });
    await row({
      kind: 'transfer',
      date: '2026-03-06',
      amountMinor: 71000,
      accountId: bank,
      toAccountId: wallet,
      toAmount: 10000,
      toCurrency: 'USD',
      note: 'exchange',
    });
  });
  after(async () => t.close());

  it('exports the account, currency, rate and both sides of transfers', async () => {
    const { header, rows } = readCsv((await asAlice.get(`/api/export?${MARCH}`)).rawPayload);
    assert.deepEqual(header.slice(8), ['account', 'currency', 'to_account', 'to_amount', 'rate']);
    const pick = (r: string[]) => [r[1], r[2], r[3], r[4], r[8], r[9], r[10], r[11], r[12]];
    assert.deepEqual(rows.map(pick), [
      ['expense', '100.00', 'Food', 'lunch', 'Cash', 'CNY', '', '', ''],
      ['transfer', '300.00', '', 'atm', 'Bank', 'CNY', 'Cash', '300.00', ''],
      ['expense', '2.00', 'Food', 'fee', 'Bank', 'CNY', '', '', ''],
      ['adjustment', '-12.50', '', 'counted', 'Cash', 'CNY', '', '', ''],
      ['expense', '10.00', 'Trips', 'taxi', 'Dollars', 'USD', '', '', '7.1'],
      ['transfer', '710.00', '', 'exchange', 'Bank', 'CNY', 'Dollars', '100.00', ''],
    ]);
    const json: Json[] = (await asAlice.get(`/api/export?${MARCH}&format=json`)).json();
    const ex = json.find((r) => r.note === 'exchange')!;
    assert.deepEqual(
      [ex.kind, ex.amount, ex.category, ex.account, ex.to_account, ex.to_amount, ex.currency],
      ['transfer', 710, '', 'Bank', 'Dollars', 100, 'CNY'],
    );
    const transfers = readCsv((await asAlice.get(`/api/export?${MARCH}&type=transfer`)).rawPayload).rows;
    assert.deepEqual(
      transfers.map((r) => r[4]),
      ['atm', 'exchange'],
    );
    assertError(await asAlice.get(`/api/export?${MARCH}&type=refund`), 400, 40001);
  });

  for (const format of ['csv', 'json'] as const) {
    it(`a ${format} export imports into another user's books: accounts created, the same statistics, a second import adds nothing`, async () => {
      const file = (await asAlice.get(`/api/export?${MARCH}&format=${format}`)).rawPayload;
      const carol = await createUser(t.db);
      const asCarol = t.as(carol);
      const dry: Json = expectOk(await asCarol.post('/api/import?dry_run=true', multipart(file)));
      assert.deepEqual(dry, { imported: 6, skipped: 0, errors: [], accounts_created: ['Bank', 'Dollars'] });
      assert.equal((await accountsOf(carol.id)).length, 1, 'a dry run creates nothing');

      const res: Json = expectOk(await asCarol.post('/api/import', multipart(file)));
      assert.deepEqual(res, { imported: 6, skipped: 0, errors: [], accounts_created: ['Bank', 'Dollars'] });
      const own = await accountsOf(carol.id);
      assert.deepEqual(
        own.map((a) => [a.name, a.currency, a.type, a.openingDate, a.openingBalance]),
        [
          ['Cash', 'CNY', 'cash', own[0]!.openingDate, 0],
          ['Bank', 'CNY', 'other', '2026-03-03', 0],
          ['Dollars', 'USD', 'other', '2026-03-05', 0],
        ],
      );
      const id = (name: string) => own.find((a) => a.name === name)!.id;
      const rows = await rowsOf(carol.id);
      const exchange = rows.find((r) => r.note === 'exchange')!;
      assert.deepEqual(
        [
          exchange.kind,
          exchange.accountId,
          exchange.toAccountId,
          exchange.amountMinor,
          exchange.toAmount,
          exchange.toCurrency,
          exchange.categoryId,
        ],
        ['transfer', id('Bank'), id('Dollars'), 71000, 10000, 'USD', null],
      );
      const taxi = rows.find((r) => r.note === 'taxi')!;
      assert.deepEqual(
        [taxi.accountId, taxi.currency, taxi.amountMinor, taxi.baseAmount, taxi.rate],
        [id('Dollars'), 'USD', 1000, 7100, '7.1'],
      );
      const adj = rows.find((r) => r.note === 'counted')!;
      assert.deepEqual([adj.kind, adj.amountMinor, adj.accountId], ['adjustment', -1250, id('Cash')]);

      // the same statistics as the exporter's
      const mine: Json = expectOk(await asAlice.get('/api/stats/overview?period=month&date=2026-03-01'));
      const theirs: Json = expectOk(await asCarol.get('/api/stats/overview?period=month&date=2026-03-01'));
      assert.deepEqual([theirs.income, theirs.expense, theirs.count], [mine.income, mine.expense, mine.count]);
      assert.equal(theirs.expense, 173);

      const again: Json = expectOk(await asCarol.post('/api/import', multipart(file)));
      assert.deepEqual(again, { imported: 0, skipped: 6, errors: [] });
      assert.equal((await accountsOf(carol.id)).length, 3);
    });
  }

  it('brings a refund booked against its purchase (a negative expense) back as it left', async () => {
    const erin = await createUser(t.db);
    const food = (await firstCategory(t.db, erin.id, 'expense')).id;
    await createTransaction(t.db, erin.id, { date: '2026-03-02', amountMinor: 5000, categoryId: food, note: 'shoes' });
    await createTransaction(t.db, erin.id, {
      date: '2026-03-04',
      amountMinor: -1200,
      categoryId: food,
      note: 'shoes refund',
    });
    const file = (await t.as(erin).get(`/api/export?${MARCH}`)).rawPayload;
    const frank = await createUser(t.db);
    const res: Json = expectOk(await t.as(frank).post('/api/import', multipart(file)));
    assert.deepEqual([res.imported, res.errors], [2, []]);
    const refund = (await rowsOf(frank.id)).find((r) => r.note === 'shoes refund')!;
    assert.deepEqual([refund.kind, refund.amountMinor, refund.baseAmount], ['expense', -1200, -1200]);
    const stats: Json = expectOk(await t.as(frank).get('/api/stats/overview?period=month&date=2026-03-01'));
    assert.equal(stats.expense, 38);
    // a file without currencies keeps today's rule: amounts are positive
    const old: Json = expectOk(
      await t
        .as(frank)
        .post('/api/import?dry_run=true', multipart('date,kind,amount,category\n2026-03-01,expense,-5,Food\n')),
    );
    assert.equal(old.imported, 0);
  });

  it('imports a file without the account columns into the default account, as before', async () => {
    const dave = await createUser(t.db);
    const res: Json = expectOk(
      await t
        .as(dave)
        .post('/api/import', multipart('date,kind,amount,category,note\n2026-03-01,expense,12.50,Food,old file\n')),
    );
    assert.deepEqual(res, { imported: 1, skipped: 0, errors: [] });
    const [row] = await rowsOf(dave.id);
    const def = (await accountsOf(dave.id)).find((a) => a.isDefault)!;
    assert.deepEqual(
      [row!.accountId, row!.currency, row!.amountMinor, row!.baseAmount, row!.rate],
      [def.id, 'CNY', 1250, 1250, null],
    );
  });

  it("fits amounts to the account currency, converts foreign rows at the given rate or the user's rate, and refuses what cannot be booked", async () => {
    const erin = await createUser(t.db);
    const asErin = t.as(erin);
    const yen = await createAccount(t.db, erin.id, { name: 'Yen', currency: 'JPY' });
    // a rate the import finds for rows without one
    await query(
      t.db,
      sql`insert into exchange_rates (user_id, currency, date, rate) values (${erin.id}, 'JPY', '2026-01-01', '0.05')`,
    );
    const ok = [
      'date,kind,amount,category,account,currency,rate',
      '2026-03-01,expense,1000,Food,Yen,,', // no currency cell: whole yen, rate from the table
      '2026-03-02,expense,2000,Food,Yen,JPY,0.048',
      '2026-03-03,expense,5.5,Food,Euros,EUR,7.9', // a new account in EUR
    ].join('\n');
    const res: Json = expectOk(await asErin.post('/api/import', multipart(ok)));
    assert.deepEqual(res, { imported: 3, skipped: 0, errors: [], accounts_created: ['Euros'] });
    const rows = await rowsOf(erin.id);
    assert.deepEqual(
      rows.map((r) => [r.currency, r.amountMinor, r.baseAmount, r.rate]),
      [
        ['JPY', 1000, 5000, '0.05'],
        ['JPY', 2000, 9600, '0.048'],
        ['EUR', 550, 4345, '7.9'],
      ],
    );
    assert.equal(rows[0]!.accountId, yen.id);

    const bad = [
      'date,kind,amount,category,account,currency,to_account,to_amount,rate',
      '2026-03-01,expense,10.5,Food,Yen,,,,', // yen have no decimals
      '2026-03-01,expense,10,Food,Yen,USD,,,', // not the account's currency
      '2026-03-01,expense,10,Food,,USD,,,', // the default account is in CNY
      '2026-01-01,expense,10,Food,Pounds,GBP,,,', // no GBP rate anywhere
      '2026-03-01,transfer,10,,Cash,,Yen,,', // between currencies without to_amount
      '2026-03-01,transfer,10,,Cash,,Cash,,', // to itself
      '2026-03-01,transfer,10,,,,Yen,1000,', // fine: default account to Yen
    ].join('\n');
    const refused = await asErin.post('/api/import', multipart(bad));
    assertError(refused, 422, 42203);
    const errors: Json[] = refused.json().errors;
    assert.deepEqual(
      errors.map((e) => e.row),
      [1, 2, 3, 4, 5, 6],
    );
    assert.match(errors[0]!.message, /at most 0 decimals in JPY/);
    assert.match(errors[1]!.message, /holds JPY, not USD/);
    assert.match(errors[2]!.message, /not the default account's/);
    assert.match(errors[3]!.message, /rate is needed/);
    assert.match(errors[4]!.message, /to_amount is needed/);
    assert.match(errors[5]!.message, /two different accounts/);
    assert.equal((await rowsOf(erin.id)).length, 3, 'nothing written');
    assert.equal((await accountsOf(erin.id)).length, 3, 'no account created');
  });
});
