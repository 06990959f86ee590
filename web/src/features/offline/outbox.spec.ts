import { describe, expect, it } from 'vitest';
import type { TransactionPage, TransactionRow } from '../../api/types';
import type { Op } from './db';
import { minorScale } from '../../lib/amounts';
import { fold, overlay, sumsOf, type RowContext } from './outbox';

const ctx: RowContext = {
  categories: [
    { id: 1, name: 'Food', color: '#ff0000', kind: 'expense' },
    { id: 2, name: 'Salary', color: '#00ff00', kind: 'income' },
  ] as RowContext['categories'],
  accounts: [{ id: 7, currency: 'CNY' }],
  tags: [{ id: 3, name: 'trip' }],
  me: { id: 5, nickname: 'me', avatar_url: null, base_currency: 'CNY' },
};

let seq = 0;
function op(p: Partial<Op>): Op {
  return {
    seq: ++seq,
    kind: 'create',
    key: `k${seq}`,
    target: -seq,
    body: {},
    at: 0,
    attempts: 0,
    state: 'queued',
    refusal: null,
    ...p,
  };
}
function row(id: number, kind: 'expense' | 'income', amount: number, date: string): TransactionRow {
  return {
    id,
    kind,
    amount,
    date,
    category_id: 1,
    category: { id: 1, name: 'Food', color: '#ff0000', kind: 'expense' },
    rate: null,
    tags: [],
    note: '',
    attachments: [],
  } as unknown as TransactionRow;
}

describe('fold: a new operation joins the outbox', () => {
  it('appends an operation on a server row', () => {
    const put = op({ kind: 'update', target: 9, body: { amount: '3' } });
    expect(fold([], put)).toEqual({ put: [put], remove: [] });
  });

  it('changes a create never sent when its row is edited, keeping its key', () => {
    const c = op({ body: { kind: 'expense', amount: '10', category_id: 1, date: '2026-11-02' } });
    const out = fold([c], op({ kind: 'update', target: c.target, body: { amount: '12.5', note: 'x' } }));
    expect(out.remove).toEqual([]);
    expect(out.put).toHaveLength(1);
    expect(out.put[0]).toMatchObject({
      seq: c.seq,
      key: c.key,
      body: { kind: 'expense', amount: '12.5', note: 'x', category_id: 1 },
    });
  });

  it('drops a create never sent, and what waits on it, when its row is deleted', () => {
    const c = op({ body: { amount: '1' } });
    const u = op({ kind: 'update', target: c.target, body: {} });
    const other = op({ kind: 'delete', target: 4, body: null });
    const out = fold([c, u, other], op({ kind: 'delete', target: c.target, body: null }));
    expect(out).toEqual({ put: [], remove: [c.seq, u.seq] });
  });

  it('keeps a create that may have reached the server: the edit waits behind it', () => {
    const c = op({ attempts: 1 });
    const u = op({ kind: 'update', target: c.target, body: { amount: '2' } });
    expect(fold([c], u)).toEqual({ put: [u], remove: [] });
  });

  it('fixes a refused create with the new key made at Save', () => {
    const c = op({
      state: 'refused',
      attempts: 1,
      refusal: { status: 400, body: { code: 40001 } },
      body: { category_id: 99, amount: '4' },
    });
    const out = fold([c], op({ kind: 'update', target: c.target, key: 'fresh', body: { category_id: 1 } }));
    expect(out.put[0]).toMatchObject({
      key: 'fresh',
      state: 'queued',
      refusal: null,
      body: { category_id: 1, amount: '4' },
    });
  });
});

describe('overlay: waiting operations on a page of the books', () => {
  const page: TransactionPage = {
    list: [row(11, 'expense', 20, '2026-11-05'), row(12, 'income', 100, '2026-11-03')],
    total: 2,
    sums: { income: 100, expense: 20, balance: 80, count: 2 },
  };
  const q = { startDate: '2026-11-01', endDate: '2026-11-30', sort: 'date_desc', page: 1 };

  it('adds creates in the period, changes edits, removes deletes, and moves the totals by hand-counted amounts', () => {
    const ops = [
      op({
        target: -1,
        body: { kind: 'expense', amount: '12.34', category_id: 1, date: '2026-11-10', tag_ids: [3], account_id: 7 },
      }),
      op({ target: -2, body: { kind: 'expense', amount: '5', category_id: 1, date: '2026-10-31' } }), // outside the month
      op({ kind: 'update', target: 11, body: { amount: '25.5' } }),
      op({ kind: 'delete', target: 12, body: null }),
    ];
    const out = overlay(page, ops, new Map(), ctx, q);
    expect(out.page.list.map((r) => r.id)).toEqual([-1, 11]);
    expect(out.page.list[0]).toMatchObject({
      amount: 12.34,
      category: { name: 'Food' },
      tags: [{ id: 3, name: 'trip' }],
      currency: 'CNY',
      user_id: 5,
    });
    expect(out.page.list[1]!.amount).toBe(25.5);
    // expense 12.34 + 25.50 = 37.84; income 0; two rows
    expect(out.page.sums).toEqual({ income: 0, expense: 37.84, balance: -37.84, count: 2 });
    expect(out.page.total).toBe(2);
    expect(out.pending.sort()).toEqual([-1, 11]);
    expect(out.refused).toEqual([]);
  });

  it("keeps an edited row's attachments and shows none on a row created offline", () => {
    const files = [{ id: 8, mime: 'image/jpeg' as const, name: 'r.jpg', has_thumbnail: true }];
    const withFiles = { ...page, list: [{ ...row(11, 'expense', 20, '2026-11-05'), attachments: files }] };
    const ops = [
      op({ kind: 'update', target: 11, body: { note: 'lunch' } }),
      op({ target: -1, body: { kind: 'expense', amount: '3', category_id: 1, date: '2026-11-06' } }),
    ];
    const out = overlay(withFiles, ops, new Map(), ctx, q);
    expect(out.page.list.map((r) => [r.id, r.note, r.attachments])).toEqual([
      [-1, '', []],
      [11, 'lunch', files],
    ]);
  });

  it('shows an entry paid in another currency as paid while it waits, counted once the server prices it', () => {
    const paid = { kind: 'expense', original_amount: '45', original_currency: 'EUR', category_id: 1, account_id: 7 };
    const ops = [
      op({ target: -1, body: { ...paid, date: '2026-11-10' } }),
      // with the bank's figure it is the account's amount, counted at once
      op({ target: -2, body: { ...paid, amount: '328.5', date: '2026-11-11' } }),
    ];
    const out = overlay(page, ops, new Map(), ctx, q);
    const [charged, waiting] = out.page.list;
    expect(waiting).toMatchObject({
      id: -1,
      amount: 45,
      currency: 'EUR',
      original_amount: 45,
      original_currency: 'EUR',
    });
    expect(charged).toMatchObject({
      id: -2,
      amount: 328.5,
      currency: 'CNY',
      original_amount: 45,
      original_currency: 'EUR',
    });
    // 20 + 328.50; the euros wait to be priced
    expect(out.page.sums).toMatchObject({ expense: 348.5, count: 4 });
    expect(new Set(out.pending)).toEqual(new Set([-1, -2]));
  });

  it('finds a created row by its server id once sent, and marks refused rows', () => {
    const sent = op({
      target: -1,
      attempts: 1,
      body: { kind: 'expense', amount: '1', category_id: 1, date: '2026-11-10' },
    });
    const edit = op({
      kind: 'update',
      target: -1,
      state: 'refused',
      refusal: { status: 400, body: {} },
      body: { amount: '2' },
    });
    const server = {
      ...page,
      list: [row(30, 'expense', 1, '2026-11-10'), ...page.list],
      total: 3,
      sums: { income: 100, expense: 21, balance: 79, count: 3 },
    };
    const out = overlay(server, [sent, edit], new Map([[-1, 30]]), ctx, q);
    expect(out.page.list.filter((r) => r.id === 30)).toHaveLength(1);
    expect(out.refused).toEqual([30]);
    expect(out.page.total).toBe(3);
  });
});

describe("totals in the base currency's own minor unit", () => {
  it('knows the digits of CNY, JPY and KWD', () => {
    expect([minorScale('CNY'), minorScale('JPY'), minorScale('KWD'), minorScale(undefined)]).toEqual([
      100, 1, 1000, 100,
    ]);
  });

  it('moves a KWD total by a thousandth, and a JPY total by whole yen', () => {
    const kwd = { ...ctx, me: { ...ctx.me!, base_currency: 'KWD' }, accounts: [{ id: 7, currency: 'KWD' }] };
    const page: TransactionPage = {
      list: [],
      total: 0,
      sums: { income: 0, expense: 1.235, balance: -1.235, count: 3 },
    };
    const q = { startDate: '2026-11-01', endDate: '2026-11-30', page: 1 };
    const out = overlay(
      page,
      [
        op({
          target: -1,
          body: { kind: 'expense', amount: '0.001', category_id: 1, date: '2026-11-10', account_id: 7 },
        }),
      ],
      new Map(),
      kwd,
      q,
    );
    // 1.235 + 0.001, counted in fils: 1,236 fils
    expect(out.page.sums).toEqual({ income: 0, expense: 1.236, balance: -1.236, count: 4 });

    const rows = [
      row(1, 'expense', 1200, '2026-11-02'),
      row(2, 'expense', 35, '2026-11-03'),
      row(3, 'income', 300000, '2026-11-04'),
    ];
    expect(sumsOf(rows, 'JPY')).toEqual({ income: 300000, expense: 1235, balance: 298765, count: 3 });
  });
});
