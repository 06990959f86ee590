import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { and, eq } from 'drizzle-orm';
import { transactions } from '../src/db/schema/index.ts';
import { currencyInfo, divRoundHalfAway, formatMinor } from '../src/lib/currency.ts';
import { addDays } from '../src/lib/dates.ts';
import {
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
 * Whatever the path a row takes into the books, its stored amount and base amount are those of the
 * same row recorded by hand (`POST /api/transactions`), for random currencies of 0, 2 and 3 minor
 * digits, random amounts and random rates. A bill (in yuan) booked into an account of another
 * currency is checked against the conversion computed here with BigInt.
 */

const CURRENCIES = ['JPY', 'KWD', 'CNY', 'USD', 'BHD', 'KRW'] as const;
type Code = (typeof CURRENCIES)[number];

const WECHAT_HEADER = '交易时间,交易类型,交易对方,商品,收/支,金额(元),支付方式,当前状态,交易单号,商户单号,备注';

function wechatBill(date: string, hundredths: number, id: string): Buffer {
  const amount = `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
  const lines = [
    '微信支付账单明细,,,,,,,,,,',
    '共1笔记录,,,,,,,,,,',
    ',,,,,,,,,,',
    '----------------------微信支付账单明细列表--------------------,,,,,,,,,,',
    WECHAT_HEADER,
    `${date} 12:00:00,商户消费,青禾小馆,"午餐",支出,¥${amount},零钱,支付成功,${id}\t,M${id}\t,"/"`,
  ];
  return Buffer.from('\ufeff' + lines.join('\n') + '\n');
}

/** A positive rate with at most 6 decimals, as text. */
const rateArb = fc
  .tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 999999 }), fc.integer({ min: 0, max: 6 }))
  .map(([int, frac, digits]) => {
    const f = digits ? String(frac).padStart(6, '0').slice(0, digits) : '';
    const text = f ? `${int}.${f}` : String(int);
    return Number(text) > 0 ? text : '0.5';
  });

describe('books writer: every path agrees with POST /api/transactions (property)', () => {
  let t: TestApp;
  let user: UserRow;
  let as: Client;
  let food: number;
  const accounts = new Map<Code, { main: number; other: number; reconcile: number; name: string; preset: number }>();
  let day = 0;
  let runs = 0;

  before(async () => {
    t = await build();
    user = await createUser(t.db);
    as = t.as(user);
    food = (await firstCategory(t.db, user.id, 'expense')).id;
    for (const code of CURRENCIES) {
      const open = async (name: string) =>
        expectOk<{ id: number }>(
          await as.post('/api/accounts', { name, type: 'cash', currency: code, opening_date: '2020-01-01' }),
          201,
        ).id;
      const name = `prop ${code}`;
      const main = await open(name);
      // a bank's bill in this account: amounts with 2 decimals, no currency named
      const preset = expectOk<{ id: number }>(
        await as.post('/api/import/presets', {
          name: `bank ${code}`,
          header: ['日期', '金额', '摘要'],
          mapping: {
            date: '日期',
            date_format: 'YYYY-MM-DD',
            amount: '金额',
            sign: 'negative_is_expense',
            description: '摘要',
          },
          account_id: main,
        }),
        201,
      ).id;
      accounts.set(code, { main, other: await open(`${name} 2`), reconcile: await open(`${name} r`), name, preset });
    }
  });
  after(async () => t.close());

  const row = async (id: number) => {
    const [r] = await t.db
      .select({ amount: transactions.amountMinor, base: transactions.baseAmount, rate: transactions.rate })
      .from(transactions)
      .where(eq(transactions.id, id));
    return r!;
  };

  it('manual, edit, transfer, reconcile, CSV import and bill import book the same figures', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CURRENCIES),
        fc.integer({ min: 1, max: 1_000_000_000 }),
        rateArb,
        fc.integer({ min: 1, max: 2_000_000 }),
        async (code, minor, rate, billHundredths) => {
          runs++;
          const cur = currencyInfo(code)!;
          const acc = accounts.get(code)!;
          // a day of its own, so that this run's rate is the one of its date
          const date = addDays('2021-01-01', day++);
          if (code !== 'CNY') expectOk(await as.put('/api/rates', { rates: [{ currency: code, date, rate }] }));
          const amount = formatMinor(minor, cur);

          // the reference: recorded by hand
          const ref = expectOk<{ id: number }>(
            await as.post('/api/transactions', {
              kind: 'expense',
              amount,
              category_id: food,
              account_id: acc.main,
              date,
            }),
            201,
          );
          const want = await row(ref.id);
          assert.equal(want.amount, minor);

          // edited to the amount from another one
          const other = expectOk<{ id: number }>(
            await as.post('/api/transactions', {
              kind: 'expense',
              amount: formatMinor(minor + 1, cur),
              category_id: food,
              account_id: acc.main,
              date,
            }),
            201,
          );
          expectOk(await as.put(`/api/transactions/${other.id}`, { amount }));
          assert.deepEqual(await row(other.id), want, 'edit');

          // a transfer between two accounts of the currency
          const tr = expectOk<{ id: number }>(
            await as.post('/api/transactions', {
              kind: 'transfer',
              amount,
              account_id: acc.main,
              to_account_id: acc.other,
              date,
            }),
            201,
          );
          assert.deepEqual(await row(tr.id), want, 'transfer');

          // a reconcile whose difference is the amount
          const balance = expectOk<{ balance: number }>(
            await as.get(`/api/accounts/${acc.reconcile}?date=${date}`),
          ).balance;
          const bank = formatMinor(Math.round(balance * 10 ** cur.digits) + minor, cur);
          const rec = expectOk<{ adjustment: { id: number } }>(
            await as.post(`/api/accounts/${acc.reconcile}/reconcile`, { balance: bank, date }),
          );
          assert.deepEqual(await row(rec.adjustment.id), want, 'reconcile');

          // a CSV import naming the account and its currency
          const note = `prop ${runs}`;
          const csv = `date,kind,amount,category,note,tags,group_id,created_at,account,currency,to_account,to_amount,rate\n${date},expense,${amount},Food,${note},,,,${acc.name},${code},,,\n`;
          expectOk(await as.post('/api/import', multipart(csv)));
          const [imported] = await t.db
            .select({ id: transactions.id })
            .from(transactions)
            .where(and(eq(transactions.userId, user.id), eq(transactions.note, note)));
          assert.deepEqual(await row(imported!.id), want, 'CSV import');

          // a bank bill through a column mapping into the account: the same figures as that amount recorded by hand, or
          // refused when the amount has more decimals than the currency
          const yuan = (h: number) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`;
          const bankBill = Buffer.from(`日期,金额,摘要\n${date},-${yuan(billHundredths)},bank ${runs}\n`);
          const mapped = expectOk<{ id: number }>(
            await as.post(`/api/import/bills?preset_id=${acc.preset}`, multipart(bankBill, { filename: 'bank.csv' })),
          );
          // the entry typed by hand above may have the same amount, day and account: the row is then probably it,
          // booked anyway here
          expectOk(
            await as.patch(`/api/import/bills/${mapped.id}/rows`, {
              rows: [{ row: 1, category_id: food, decision: 'import' }],
            }),
          );
          const step = 10 ** Math.max(0, 2 - cur.digits);
          const fitted =
            billHundredths % step === 0 ? (billHundredths / step) * 10 ** Math.max(0, cur.digits - 2) : null;
          const mappedCommit = await as.post(`/api/import/bills/${mapped.id}/commit`);
          if (fitted === null) assert.equal(mappedCommit.statusCode, 422, mappedCommit.body);
          else {
            assert.equal(mappedCommit.statusCode, 200, mappedCommit.body);
            const byHand = expectOk<{ id: number }>(
              await as.post('/api/transactions', {
                kind: 'expense',
                amount: formatMinor(fitted, cur),
                category_id: food,
                account_id: acc.main,
                date,
              }),
              201,
            );
            const [booked] = await t.db
              .select({ id: transactions.id })
              .from(transactions)
              .where(and(eq(transactions.userId, user.id), eq(transactions.note, `bank ${runs}`)));
            assert.deepEqual(await row(booked!.id), await row(byHand.id), 'bank bill');
          }

          // a WeChat bill (yuan) into the account: converted once into it, the base amount exactly the bill's
          const externalId = `4200002021${String(runs).padStart(10, '0')}`;
          const preview = expectOk<{ id: number; rows: { row: number; decision: string; reason: string | null }[] }>(
            await as.post(
              '/api/import/bills',
              multipart(wechatBill(date, billHundredths, externalId), { filename: 'wechat.csv' }),
            ),
          );
          // the entry typed above may have the same amount, day and account: the row is then probably it, booked
          // anyway here
          const line = preview.rows.find((r) => r.decision === 'import' || r.reason === 'probably_recorded')!;
          expectOk(
            await as.patch(`/api/import/bills/${preview.id}/rows`, {
              rows: [{ row: line.row, account_id: acc.main, category_id: food, decision: 'import' }],
            }),
          );
          // yuan per unit is `rate`: units = hundredths / 100 / rate, in the currency's minor units
          const [num, den] = rate.includes('.')
            ? [BigInt(rate.replace('.', '')), 10n ** BigInt(rate.split('.')[1]!.length)]
            : [BigInt(rate), 1n];
          const expected =
            code === 'CNY'
              ? billHundredths
              : Number(divRoundHalfAway(BigInt(billHundredths) * den * 10n ** BigInt(cur.digits), num * 100n));
          const commit = await as.post(`/api/import/bills/${preview.id}/commit`);
          if (expected === 0) {
            assert.equal(commit.statusCode, 422, commit.body);
            return;
          }
          assert.equal(commit.statusCode, 200, commit.body);
          const [bill] = await t.db
            .select({ amount: transactions.amountMinor, base: transactions.baseAmount, rate: transactions.rate })
            .from(transactions)
            .where(and(eq(transactions.userId, user.id), eq(transactions.externalId, externalId)));
          assert.deepEqual(
            bill,
            { amount: expected, base: billHundredths, rate: code === 'CNY' ? null : want.rate },
            'bill import',
          );
        },
      ),
      { numRuns: 20 },
    );
  });
});
