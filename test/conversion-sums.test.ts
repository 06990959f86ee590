import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { query } from '../src/db/client.ts';
import { convertMinor, parseRate, requireCurrency, toMajorUnits } from '../src/lib/currency.ts';
import { build, createUser, expectOk, firstCategory, type TestApp } from './helpers/index.ts';

/**
 * Conversions do not drift: 10,000 rows in foreign currencies, each converted once at booking
 * (rounded half away from zero), add up exactly in the balances, the totals and the net worth,
 * whatever their number; nothing is summed in floating point.
 */

const CNY = requireCurrency('CNY');
const N = 10_000;

describe('no drift over 10,000 converted rows', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  it('keeps balances, base totals and net worth exact', async () => {
    const u = await createUser(t.db);
    const c = t.as(u);
    const food = (await firstCategory(t.db, u.id, 'expense')).id;
    const rates: Record<string, string> = { USD: '7.123456789012', JPY: '0.048123', KWD: '23.4567' };
    expectOk(
      await c.put('/api/rates', {
        rates: Object.entries(rates).map(([currency, rate]) => ({ currency, date: '2026-01-01', rate })),
      }),
    );
    const accs: Record<string, number> = {};
    for (const code of Object.keys(rates))
      accs[code] = expectOk<{ id: number }>(
        await c.post('/api/accounts', { name: code, type: 'other', currency: code, opening_date: '2026-01-01' }),
        201,
      ).id;

    // amounts from a seeded generator, each booked the way the service books a row
    const amounts = fc.sample(fc.integer({ min: 1, max: 99_999_999 }), { numRuns: N, seed: 42 });
    const codes = Object.keys(rates);
    const rows = amounts.map((amount, i) => {
      const code = codes[i % codes.length]!;
      const cur = requireCurrency(code);
      return {
        amount,
        code,
        account_id: accs[code],
        base: convertMinor(amount, cur, CNY, parseRate(rates[code]!)),
        rate: rates[code],
      };
    });
    await query(
      t.db,
      sql`insert into transactions (user_id, kind, amount_cents, category_id, date, account_id, currency, base_amount, rate)
          select ${u.id}, 'expense', x.amount, ${food}, '2026-02-01', x.account_id, x.code, x.base, x.rate
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(amount bigint, code text, account_id int, base bigint, rate text)`,
    );

    const res = expectOk<{
      list: { currency: string; balance: number; balance_in_base: number | null }[];
      net_worth: number;
    }>(await c.get('/api/accounts'));
    let worth = 0n;
    for (const code of codes) {
      const cur = requireCurrency(code);
      const sum = rows.filter((r) => r.code === code).reduce((s, r) => s + BigInt(r.amount), 0n);
      const shown = res.list.find((a) => a.currency === code)!;
      assert.equal(shown.balance, toMajorUnits(-sum, cur), `${code} balance`);
      assert.equal(Math.round(shown.balance * 10 ** cur.digits), -Number(sum), `${code} balance in minor units`);
      const inBase = convertMinor(-Number(sum), cur, CNY, parseRate(rates[code]!));
      assert.equal(shown.balance_in_base, toMajorUnits(inBase, CNY));
      worth += BigInt(inBase);
    }
    assert.equal(Math.round(res.net_worth * 100), Number(worth), 'net worth: each balance converted once');

    const baseSum = rows.reduce((s, r) => s + BigInt(r.base), 0n);
    const sums = expectOk<{ sums: { expense: number; count: number } }>(
      await c.get('/api/transactions?pageSize=1'),
    ).sums;
    assert.equal(sums.count, N);
    assert.equal(
      Math.round(sums.expense * 100),
      Number(baseSum),
      'the expense total is the exact sum of the booked base amounts',
    );
    // per-row rounding of half a minor unit at most: the booked total stays within N/2 fen of the exact value
    let exactNum = 0n;
    const den = 10n ** 12n * 1000n;
    for (const r of rows) {
      const cur = requireCurrency(r.code);
      const rate = parseRate(r.rate);
      exactNum += (BigInt(r.amount) * rate.num * 100n * den) / (rate.den * 10n ** BigInt(cur.digits));
    }
    const drift = Number(baseSum * den - exactNum) / Number(den);
    assert.ok(Math.abs(drift) <= N / 2, `drift ${drift}`);
  });
});
