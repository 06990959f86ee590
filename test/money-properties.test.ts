import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { query } from '../src/db/client.ts';
import { convertMinor, formatMinor, parseRate, requireCurrency, type CurrencyInfo } from '../src/lib/currency.ts';
import { build, type Client, createUser, expectOk, firstCategory, type TestApp } from './helpers/index.ts';

/**
 * For any sequence of creates, edits, deletes and transfers over accounts in four currencies: each
 * account's balance is its opening balance plus the signed sum of its rows, net worth is the sum of
 * the balances converted at the stored rates, and transfers never count as income or expense.
 */

const BASE = requireCurrency('CNY');
const CURRENCIES = ['CNY', 'CNY', 'USD', 'JPY', 'KWD'].map((c) => requireCurrency(c));
const RATES: Record<string, string> = { USD: '7.1234', JPY: '0.0481', KWD: '23.4567' };
const DATE = '2026-02-10';

type Op =
  | { t: 'create'; kind: 'expense' | 'income'; acc: number; amount: number }
  | { t: 'transfer'; from: number; to: number; amount: number; toAmount: number; fee: number | null }
  | { t: 'edit'; pick: number; amount: number; acc: number | null }
  | { t: 'editTransfer'; pick: number; amount: number }
  | { t: 'delete'; pick: number };

interface MRow {
  id: number;
  kind: 'expense' | 'income' | 'transfer';
  acc: number;
  amount: number;
  to: number | null;
  toAmount: number | null;
  base: number;
  parent: number | null;
}

const minor = fc.integer({ min: 1, max: 50_000_000 });
const acc = fc.integer({ min: 0, max: CURRENCIES.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('create' as const),
      kind: fc.constantFrom('expense' as const, 'income' as const),
      acc,
      amount: minor,
    }),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        t: fc.constant('transfer' as const),
        from: acc,
        to: acc,
        amount: minor,
        toAmount: minor,
        fee: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
      })
      .filter((o) => o.from !== o.to),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('edit' as const),
      pick: fc.nat(),
      amount: minor,
      acc: fc.option(acc, { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('editTransfer' as const), pick: fc.nat(), amount: minor }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('delete' as const), pick: fc.nat() }) },
);

const toBase = (amount: number, cur: CurrencyInfo): number =>
  cur.code === BASE.code ? amount : convertMinor(amount, cur, BASE, parseRate(RATES[cur.code]!));
const toMinor = (major: number, cur: CurrencyInfo): number => Math.round(major * 10 ** cur.digits);
const text = (amount: number, cur: CurrencyInfo) => formatMinor(amount, cur);

describe('balances, net worth and totals under any sequence of changes (fast-check)', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  async function setUp() {
    const u = await createUser(t.db);
    const c = t.as(u);
    const food = (await firstCategory(t.db, u.id, 'expense')).id;
    const salary = (await firstCategory(t.db, u.id, 'income')).id;
    expectOk(
      await c.put('/api/rates', {
        rates: Object.entries(RATES).map(([currency, rate]) => ({ currency, date: '2026-01-01', rate })),
      }),
    );
    const ids: number[] = [];
    const openings: number[] = [];
    const def = expectOk<{ list: { id: number }[] }>(await c.get('/api/accounts')).list[0]!.id;
    for (const [i, cur] of CURRENCIES.entries()) {
      const opening = ((i * 7919 + 13) % 100_000) - 20_000;
      if (i === 0) {
        expectOk(
          await c.put(`/api/accounts/${def}`, { opening_balance: text(opening, cur), opening_date: '2026-01-01' }),
        );
        ids.push(def);
      } else {
        ids.push(
          expectOk<{ id: number }>(
            await c.post('/api/accounts', {
              name: `acc ${i}`,
              type: 'other',
              currency: cur.code,
              opening_balance: text(opening, cur),
              opening_date: '2026-01-01',
            }),
            201,
          ).id,
        );
      }
      openings.push(opening);
    }
    return { u, c, food, salary, ids, openings };
  }

  async function apply(c: Client, s: Awaited<ReturnType<typeof setUp>>, rows: MRow[], o: Op): Promise<void> {
    const curOf = (i: number) => CURRENCIES[i]!;
    switch (o.t) {
      case 'create': {
        const cur = curOf(o.acc);
        const res = expectOk<{ id: number }>(
          await c.post('/api/transactions', {
            kind: o.kind,
            amount: text(o.amount, cur),
            category_id: o.kind === 'expense' ? s.food : s.salary,
            account_id: s.ids[o.acc],
            date: DATE,
          }),
          201,
        );
        rows.push({
          id: res.id,
          kind: o.kind,
          acc: o.acc,
          amount: o.amount,
          to: null,
          toAmount: null,
          base: toBase(o.amount, cur),
          parent: null,
        });
        return;
      }
      case 'transfer': {
        const from = curOf(o.from);
        const to = curOf(o.to);
        const toAmount = from.code === to.code ? o.amount : o.toAmount;
        const body: Record<string, unknown> = {
          kind: 'transfer',
          amount: text(o.amount, from),
          account_id: s.ids[o.from],
          to_account_id: s.ids[o.to],
          date: DATE,
        };
        if (from.code !== to.code) body.to_amount = text(toAmount, to);
        if (o.fee !== null) Object.assign(body, { fee: text(o.fee, from), fee_category_id: s.food });
        const res = expectOk<{ id: number }>(await c.post('/api/transactions', body), 201);
        rows.push({
          id: res.id,
          kind: 'transfer',
          acc: o.from,
          amount: o.amount,
          to: o.to,
          toAmount,
          base: toBase(o.amount, from),
          parent: null,
        });
        if (o.fee !== null) {
          const [fee] = await query<{ id: number }>(t.db, sql`select id from transactions where parent_id = ${res.id}`);
          rows.push({
            id: fee!.id,
            kind: 'expense',
            acc: o.from,
            amount: o.fee,
            to: null,
            toAmount: null,
            base: toBase(o.fee, from),
            parent: res.id,
          });
        }
        return;
      }
      case 'edit': {
        const candidates = rows.filter((r) => r.kind !== 'transfer' && r.parent === null);
        if (!candidates.length) return;
        const r = candidates[o.pick % candidates.length]!;
        const target = o.acc ?? r.acc;
        const cur = curOf(target);
        const body: Record<string, unknown> = { amount: text(o.amount, cur) };
        if (o.acc !== null) body.account_id = s.ids[o.acc];
        expectOk(await c.put(`/api/transactions/${r.id}`, body));
        Object.assign(r, { acc: target, amount: o.amount, base: toBase(o.amount, cur) });
        return;
      }
      case 'editTransfer': {
        const candidates = rows.filter((r) => r.kind === 'transfer');
        if (!candidates.length) return;
        const r = candidates[o.pick % candidates.length]!;
        const from = curOf(r.acc);
        expectOk(await c.put(`/api/transactions/${r.id}`, { amount: text(o.amount, from) }));
        r.amount = o.amount;
        r.base = toBase(o.amount, from);
        if (curOf(r.to!).code === from.code) r.toAmount = o.amount;
        return;
      }
      case 'delete': {
        if (!rows.length) return;
        const r = rows[o.pick % rows.length]!;
        assert.equal((await c.delete(`/api/transactions/${r.id}`)).statusCode, 204);
        for (let i = rows.length - 1; i >= 0; i--)
          if (rows[i]!.id === r.id || rows[i]!.parent === r.id) rows.splice(i, 1);
        return;
      }
    }
  }

  async function check(c: Client, s: Awaited<ReturnType<typeof setUp>>, rows: MRow[]): Promise<void> {
    const expected = s.openings.slice();
    for (const r of rows) {
      expected[r.acc]! += r.kind === 'income' ? r.amount : -r.amount;
      if (r.to !== null) expected[r.to]! += r.toAmount!;
    }
    const res = expectOk<{
      list: { id: number; balance: number; balance_in_base: number | null }[];
      net_worth: number;
      missing_rates: string[];
    }>(await c.get('/api/accounts?include_archived=true'));
    const balances = s.ids.map((id, i) => toMinor(res.list.find((a) => a.id === id)!.balance, CURRENCIES[i]!));
    assert.deepEqual(balances, expected, 'balance = opening + signed sum of the rows (model)');

    // the same from the rows as the API lists them
    const fromRows = s.openings.slice();
    for (let page = 1; ; page++) {
      const l = expectOk<{
        list: {
          kind: string;
          amount: number;
          account_id: number;
          to_account_id: number | null;
          to_amount: number | null;
        }[];
        total: number;
      }>(await c.get(`/api/transactions?pageSize=100&page=${page}`));
      for (const r of l.list) {
        const i = s.ids.indexOf(r.account_id);
        fromRows[i]! += (r.kind === 'income' ? 1 : -1) * toMinor(r.amount, CURRENCIES[i]!);
        if (r.to_account_id !== null) {
          const j = s.ids.indexOf(r.to_account_id);
          fromRows[j]! += toMinor(r.to_amount!, CURRENCIES[j]!);
        }
      }
      if (page * 100 >= l.total) break;
    }
    assert.deepEqual(fromRows, expected, 'balance = opening + signed sum of the rows (listed)');

    const worth = balances.reduce((sum, b, i) => sum + toBase(b, CURRENCIES[i]!), 0);
    assert.equal(toMinor(res.net_worth, BASE), worth, 'net worth = balances converted at the stored rates');
    assert.deepEqual(res.missing_rates, []);

    const sums = expectOk<{ sums: { income: number; expense: number; count: number } }>(
      await c.get('/api/transactions?kind=all&pageSize=1'),
    ).sums;
    const base = (kind: string) => rows.filter((r) => r.kind === kind).reduce((n, r) => n + r.base, 0);
    assert.equal(toMinor(sums.expense, BASE), base('expense'), 'expenses: base amounts, no transfers');
    assert.equal(toMinor(sums.income, BASE), base('income'), 'incomes: base amounts, no transfers');
  }

  it('keeps balances, net worth and totals exact', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 18 }), async (ops) => {
        const s = await setUp();
        const rows: MRow[] = [];
        for (const o of ops) await apply(s.c, s, rows, o);
        await check(s.c, s, rows);
      }),
      { numRuns: 25 },
    );
  });

  // Statistics sum base amounts and leave out transfers once the statistics change is merged.
  it('statistics never include transfers', async () => {
    const s = await setUp();
    await apply(s.c, s, [], { t: 'transfer', from: 0, to: 1, amount: 1000, toAmount: 1000, fee: null });
    const rows: MRow[] = [];
    await apply(s.c, s, rows, { t: 'create', kind: 'expense', acc: 2, amount: 250 });
    const overview = expectOk<{ expense: number; income: number; count: number }>(
      await s.c.get(`/api/stats/overview?period=month&date=${DATE}`),
    );
    assert.equal(toMinor(overview.expense, BASE), rows[0]!.base);
    assert.equal(overview.income, 0);
    assert.equal(overview.count, 1);
  });
});
