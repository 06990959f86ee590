import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, inArray } from 'drizzle-orm';
import { transactions } from '../src/db/schema/index.ts';
import { seedDemoData } from '../src/modules/demo/demo.service.ts';
import { recurringTask } from '../src/modules/recurring/recurring.task.ts';
import {
  assertError,
  build,
  type Client,
  createUser,
  expectOk,
  firstCategory,
  multipart,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

/**
 * Every way a row reaches the books, in a currency without minor unit (JPY) and one with three
 * (KWD), for a user whose base is CNY: the stored amount is in the account currency's own minor
 * units and the base amount is converted once from it. The expected figures are computed by hand.
 */

type Stored = {
  amountMinor: number;
  baseAmount: number;
  currency: string;
  rate: string | null;
  toAmount: number | null;
  kind: string;
  parentId: number | null;
};

interface Case {
  code: 'JPY' | 'KWD';
  /** CNY per unit */
  rate: string;
  /** an amount as a person types it, its minor units and its base amount (fen) */
  amount: string;
  minor: number;
  base: number;
  /** an edited amount, its minor units and base amount at the booked rate */
  edited: string;
  editedMinor: number;
  editedBase: number;
  /** a fee of a transfer, its minor units and base amount */
  fee: string;
  feeMinor: number;
  feeBase: number;
  /** 28.00 CNY of a WeChat bill booked into the account: its minor units there */
  billMinor: number;
}

const CASES: Case[] = [
  // 1234 yen at 0.05 = 61.70 yuan; 999 yen = 49.95; fee 15 yen = 0.75; 28.00 yuan / 0.05 = 560 yen
  {
    code: 'JPY',
    rate: '0.05',
    amount: '1234',
    minor: 1234,
    base: 6170,
    edited: '999',
    editedMinor: 999,
    editedBase: 4995,
    fee: '15',
    feeMinor: 15,
    feeBase: 75,
    billMinor: 560,
  },
  // 1.234 dinar at 23.5 = 28.999 -> 29.00 yuan; 0.101 dinar = 2.3735 -> 2.37; fee 0.005 = 0.1175 -> 0.12;
  // 28.00 yuan / 23.5 = 1.19148.. -> 1.191 dinar
  {
    code: 'KWD',
    rate: '23.5',
    amount: '1.234',
    minor: 1234,
    base: 2900,
    edited: '0.101',
    editedMinor: 101,
    editedBase: 237,
    fee: '0.005',
    feeMinor: 5,
    feeBase: 12,
    billMinor: 1191,
  },
];

const WECHAT_HEADER = '交易时间,交易类型,交易对方,商品,收/支,金额(元),支付方式,当前状态,交易单号,商户单号,备注';

/** A WeChat Pay bill of one 28.00 yuan payment. */
function wechatBill(id: string): Buffer {
  const lines = [
    '微信支付账单明细,,,,,,,,,,',
    '微信昵称：[示例用户],,,,,,,,,,',
    '起始时间：[2026-03-01 00:00:00] 终止时间：[2026-03-31 23:59:59],,,,,,,,,,',
    '共1笔记录,,,,,,,,,,',
    ',,,,,,,,,,',
    '----------------------微信支付账单明细列表--------------------,,,,,,,,,,',
    WECHAT_HEADER,
    `2026-03-18 12:00:00,商户消费,青禾小馆,"午餐",支出,¥28.00,零钱,支付成功,${id}\t,M${id}\t,"/"`,
  ];
  return Buffer.from('\ufeff' + lines.join('\n') + '\n');
}

describe('books writer: every write path in JPY and KWD', () => {
  let t: TestApp;

  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  const stored = async (ids: number[]): Promise<Stored[]> =>
    t.db
      .select({
        amountMinor: transactions.amountMinor,
        baseAmount: transactions.baseAmount,
        currency: transactions.currency,
        rate: transactions.rate,
        toAmount: transactions.toAmount,
        kind: transactions.kind,
        parentId: transactions.parentId,
      })
      .from(transactions)
      .where(inArray(transactions.id, ids))
      .orderBy(transactions.id);
  const one = async (id: number) => (await stored([id]))[0]!;

  for (const c of CASES) {
    describe(`${c.code} (${c.code === 'JPY' ? 0 : 3} minor digits), base CNY`, () => {
      let user: UserRow;
      let as: Client;
      let food: number;
      let salary: number;
      let acc: number;
      let acc2: number;

      before(async () => {
        user = await createUser(t.db);
        as = t.as(user);
        food = (await firstCategory(t.db, user.id, 'expense')).id;
        salary = (await firstCategory(t.db, user.id, 'income')).id;
        acc = expectOk<{ id: number }>(
          await as.post('/api/accounts', {
            name: `${c.code} wallet`,
            type: 'cash',
            currency: c.code,
            opening_date: '2026-01-01',
          }),
          201,
        ).id;
        acc2 = expectOk<{ id: number }>(
          await as.post('/api/accounts', {
            name: `${c.code} bank`,
            type: 'debit_card',
            currency: c.code,
            opening_date: '2026-01-01',
          }),
          201,
        ).id;
        expectOk(await as.put('/api/rates', { rates: [{ currency: c.code, date: '2026-01-01', rate: c.rate }] }));
      });

      it('manual create and edit', async () => {
        const tx = expectOk<{ id: number; amount: number; currency: string }>(
          await as.post('/api/transactions', {
            kind: 'expense',
            amount: c.amount,
            category_id: food,
            account_id: acc,
            date: '2026-03-01',
          }),
          201,
        );
        assert.equal(tx.amount, Number(c.amount));
        assert.deepEqual(await one(tx.id), {
          amountMinor: c.minor,
          baseAmount: c.base,
          currency: c.code,
          rate: c.rate,
          toAmount: null,
          kind: 'expense',
          parentId: null,
        });
        expectOk(await as.put(`/api/transactions/${tx.id}`, { amount: c.edited }));
        const after = await one(tx.id);
        assert.equal(after.amountMinor, c.editedMinor);
        assert.equal(after.baseAmount, c.editedBase);
        // more decimals than the currency has: refused, nothing written
        assertError(
          await as.post('/api/transactions', {
            kind: 'expense',
            amount: c.code === 'JPY' ? '12.5' : '1.2345',
            category_id: food,
            account_id: acc,
            date: '2026-03-01',
          }),
          400,
          40001,
          'decimals',
        );
      });

      it('batch create: rows recorded at the same moment', async () => {
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            as.post('/api/transactions', {
              kind: 'income',
              amount: c.amount,
              category_id: salary,
              account_id: acc,
              date: '2026-03-02',
              note: `batch ${i}`,
            }),
          ),
        );
        const ids = answers.map((r) => expectOk<{ id: number }>(r, 201).id);
        for (const r of await stored(ids)) {
          assert.equal(r.amountMinor, c.minor);
          assert.equal(r.baseAmount, c.base);
        }
      });

      it('transfer with a fee, and the fee edited', async () => {
        const tr = expectOk<{ id: number }>(
          await as.post('/api/transactions', {
            kind: 'transfer',
            amount: c.amount,
            account_id: acc,
            to_account_id: acc2,
            fee: c.fee,
            fee_category_id: food,
            date: '2026-03-03',
          }),
          201,
        );
        const rows = await t.db
          .select({ id: transactions.id })
          .from(transactions)
          .where(eq(transactions.parentId, tr.id));
        const [transfer, fee] = [await one(tr.id), await one(rows[0]!.id)];
        assert.deepEqual(transfer, {
          amountMinor: c.minor,
          baseAmount: c.base,
          currency: c.code,
          rate: c.rate,
          toAmount: c.minor,
          kind: 'transfer',
          parentId: null,
        });
        assert.deepEqual(fee, {
          amountMinor: c.feeMinor,
          baseAmount: c.feeBase,
          currency: c.code,
          rate: c.rate,
          toAmount: null,
          kind: 'expense',
          parentId: tr.id,
        });
        expectOk(await as.put(`/api/transactions/${tr.id}`, { amount: c.edited, fee: c.fee }));
        assert.equal((await one(tr.id)).baseAmount, c.editedBase);
        assert.equal((await one(rows[0]!.id)).baseAmount, c.feeBase);
      });

      it('reconcile adjustment', async () => {
        const fresh = expectOk<{ id: number }>(
          await as.post('/api/accounts', {
            name: `${c.code} card`,
            type: 'debit_card',
            currency: c.code,
            opening_date: '2026-01-01',
          }),
          201,
        ).id;
        const res = expectOk<{ adjustment: { id: number; amount: number } }>(
          await as.post(`/api/accounts/${fresh}/reconcile`, { balance: c.amount, date: '2026-03-04' }),
        );
        assert.equal(res.adjustment.amount, Number(c.amount));
        const row = await one(res.adjustment.id);
        assert.equal(row.amountMinor, c.minor);
        assert.equal(row.baseAmount, c.base);
      });

      it('CSV import into an account of the currency', async () => {
        const csv = `date,kind,amount,category,note,tags,group_id,created_at,account,currency,to_account,to_amount,rate\n2026-03-05,expense,${c.amount},Imported,csv row,,,,${c.code} wallet,${c.code},,,\n`;
        const res = expectOk<{ imported: number }>(await as.post('/api/import', multipart(csv)));
        assert.equal(res.imported, 1);
        const [row] = await t.db
          .select({ id: transactions.id })
          .from(transactions)
          .where(and(eq(transactions.note, 'csv row'), eq(transactions.userId, user.id)));
        const s = (await stored([row!.id]))[0]!;
        assert.equal(s.amountMinor, c.minor);
        assert.equal(s.baseAmount, c.base);
      });

      it('bill import: a 28.00 yuan WeChat payment into the account is whole minor units and exactly 28.00 yuan in the base', async () => {
        const externalId = `4200002026031800000${c.code === 'JPY' ? '1' : '2'}`;
        const preview = expectOk<{ id: number; rows: { row: number; decision: string }[] }>(
          await as.post('/api/import/bills', multipart(wechatBill(externalId), { filename: 'wechat.csv' })),
        );
        const row = preview.rows.find((r) => r.decision === 'import')!;
        expectOk(
          await as.patch(`/api/import/bills/${preview.id}/rows`, {
            rows: [{ row: row.row, account_id: acc, category_id: food }],
          }),
        );
        expectOk(await as.post(`/api/import/bills/${preview.id}/commit`));
        const [written] = await t.db
          .select({ id: transactions.id })
          .from(transactions)
          .where(eq(transactions.externalId, externalId));
        const s = (await stored([written!.id]))[0]!;
        assert.equal(s.currency, c.code);
        assert.equal(s.amountMinor, c.billMinor, `28.00 CNY is ${c.billMinor} minor units of ${c.code}, never 2800`);
        assert.equal(s.baseAmount, 2800);
        assert.equal(s.rate, c.rate);
      });
    });
  }

  it('bill import into a foreign account without a rate: refused with the row and its reason', async () => {
    const user = await createUser(t.db);
    const as = t.as(user);
    const food = (await firstCategory(t.db, user.id, 'expense')).id;
    const acc = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: 'yen', type: 'cash', currency: 'JPY', opening_date: '2026-01-01' }),
      201,
    ).id;
    const preview = expectOk<{ id: number; rows: { row: number; decision: string }[] }>(
      await as.post('/api/import/bills', multipart(wechatBill('42000020260318000009'), { filename: 'wechat.csv' })),
    );
    const row = preview.rows.find((r) => r.decision === 'import')!;
    expectOk(
      await as.patch(`/api/import/bills/${preview.id}/rows`, {
        rows: [{ row: row.row, account_id: acc, category_id: food }],
      }),
    );
    const res = await as.post(`/api/import/bills/${preview.id}/commit`);
    assertError(res, 422, 42203);
    assert.match(JSON.stringify(res.json()), /rate/);
    assert.equal((await t.db.select().from(transactions).where(eq(transactions.userId, user.id))).length, 0);
  });

  it('bill import for a user whose base is not the bill currency: both rates, each amount converted once', async () => {
    const user = await createUser(t.db, { baseCurrency: 'USD' });
    const as = t.as(user);
    const food = (await firstCategory(t.db, user.id, 'expense')).id;
    const acc = expectOk<{ id: number }>(
      await as.post('/api/accounts', { name: 'yen', type: 'cash', currency: 'JPY', opening_date: '2026-01-01' }),
      201,
    ).id;
    // USD per unit: 1 CNY = 0.14 USD, 1 JPY = 0.0067 USD
    expectOk(
      await as.put('/api/rates', {
        rates: [
          { currency: 'CNY', date: '2026-01-01', rate: '0.14' },
          { currency: 'JPY', date: '2026-01-01', rate: '0.0067' },
        ],
      }),
    );
    const preview = expectOk<{ id: number; rows: { row: number; decision: string }[] }>(
      await as.post('/api/import/bills', multipart(wechatBill('42000020260318000010'), { filename: 'wechat.csv' })),
    );
    const row = preview.rows.find((r) => r.decision === 'import')!;
    expectOk(
      await as.patch(`/api/import/bills/${preview.id}/rows`, {
        rows: [{ row: row.row, account_id: acc, category_id: food }],
      }),
    );
    expectOk(await as.post(`/api/import/bills/${preview.id}/commit`));
    const [s] = await t.db.select().from(transactions).where(eq(transactions.userId, user.id));
    // 28.00 CNY * 0.14 / 0.0067 = 585.07.. -> 585 yen; 28.00 * 0.14 = 3.92 USD
    assert.equal(s!.amountMinor, 585);
    assert.equal(s!.baseAmount, 392);
    assert.equal(s!.rate, '0.0067');
  });

  for (const c of [
    { code: 'JPY', amount: '1000', minor: 1000 },
    { code: 'KWD', amount: '12.5', minor: 12500 },
  ]) {
    it(`recurring generation in a ${c.code} base: the rule's amount in ${c.code} minor units`, async () => {
      const user = await createUser(t.db, { baseCurrency: c.code });
      const as = t.as(user);
      const food = (await firstCategory(t.db, user.id, 'expense')).id;
      expectOk(
        await as.post('/api/recurring', {
          kind: 'expense',
          amount: c.amount,
          category_id: food,
          frequency: 'monthly',
          // after today: a rule whose start has passed books what is due at once, and this is the task's work
          start_date: '2035-01-15',
        }),
        201,
      );
      await recurringTask.run(t.app, new Date('2035-03-20T12:00:00Z'));
      const rows = await t.db.select().from(transactions).where(eq(transactions.userId, user.id));
      assert.equal(rows.length, 3);
      for (const r of rows) {
        assert.equal(r.currency, c.code);
        assert.equal(r.amountMinor, c.minor);
        assert.equal(r.baseAmount, c.minor);
      }
    });

    it(`demo data in a ${c.code} base: prices in ${c.code} minor units, their own base amounts`, async () => {
      const user = await createUser(t.db, { baseCurrency: c.code });
      await seedDemoData(t.db, user.id, new Date('2026-03-20T12:00:00Z'), 'UTC');
      const rows = await t.db.select().from(transactions).where(eq(transactions.userId, user.id));
      assert.ok(rows.length > 30);
      const rent = rows.find((r) => r.note === 'Rent')!;
      // a rent of 2,500 to 3,500 in the currency's major units, whatever its minor digits
      const major = rent.amountMinor / (c.code === 'JPY' ? 1 : 1000);
      assert.ok(major >= 2500 && major <= 3500, `rent ${rent.amountMinor} ${c.code}`);
      for (const r of rows) {
        assert.ok(Number.isSafeInteger(r.amountMinor) && r.amountMinor > 0);
        assert.equal(r.baseAmount, r.amountMinor);
      }
    });
  }
});
