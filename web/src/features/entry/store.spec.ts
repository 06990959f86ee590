import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { Transaction } from '../../api/types';

const api = vi.hoisted(() => ({
  parseLine: vi.fn(),
  suggest: vi.fn(),
  createTransaction: vi.fn(),
  updateTransaction: vi.fn(),
  deleteTransaction: vi.fn(),
  recentPurchases: vi.fn(),
  possibleDuplicates: vi.fn(),
}));
vi.mock('./api', () => api);

const { useEntryStore } = await import('./store');

// a pound card and a yuan wallet
const accounts = [
  { id: 1, name: 'Amex', type: 'credit_card', currency: 'GBP', archived: false },
  { id: 2, name: '微信', type: 'e_wallet', currency: 'CNY', archived: false },
];
const currencyOf = (id: number | null) => accounts.find((a) => a.id === id)?.currency;
const ctx = { me: 5, currencyOf, categories: [] };

beforeEach(() => {
  setActivePinia(createPinia());
  vi.resetAllMocks();
  api.createTransaction.mockResolvedValue({ id: 9 });
  api.possibleDuplicates.mockResolvedValue([]);
});

async function typed(line: string) {
  const store = useEntryStore();
  store.start(null, '2026-11-28', null, 1);
  await store.applyLine(line, { today: '2026-11-28', categories: [], accounts, online: false });
  store.draft.category_id = 3;
  return store;
}

describe('the add form, paid in another currency', () => {
  it("books 'dinner 45 eur amex' as 45 EUR paid, the card's amount left to the day's rate", async () => {
    const store = await typed('dinner 45 eur amex');
    expect([store.draft.amount, store.draft.currency, store.draft.account_id]).toEqual(['45', 'EUR', 1]);
    expect(await store.save(ctx)).toBe(true);
    const body = api.createTransaction.mock.calls[0]![0];
    expect(body).toMatchObject({ kind: 'expense', original_amount: '45', original_currency: 'EUR', account_id: 1 });
    expect(body).not.toHaveProperty('amount');
  });

  it("sends the bank's figure as the amount when it is given", async () => {
    const store = await typed('dinner 45 eur amex');
    store.draft.charged = '38.52';
    await store.save(ctx);
    expect(api.createTransaction.mock.calls[0]![0]).toMatchObject({
      amount: '38.52',
      original_amount: '45',
      original_currency: 'EUR',
    });
  });

  it("books a line in the account's own currency as a plain amount", async () => {
    const store = await typed('午饭 35元 微信');
    expect(store.draft.currency).toBe('CNY');
    await store.save(ctx);
    const body = api.createTransaction.mock.calls[0]![0];
    expect(body).toMatchObject({ amount: '35', account_id: 2 });
    expect(body).not.toHaveProperty('original_amount');
  });

  it("refuses a paid amount with more decimals than its currency's, before asking the server", async () => {
    const store = await typed('sushi 1200.5 jpy amex');
    await expect(store.save(ctx)).rejects.toThrow();
    expect(api.createTransaction).not.toHaveBeenCalled();
  });

  it('shows a correction with what was paid and what the card was charged, and can drop the original', async () => {
    const store = useEntryStore();
    const tx = {
      id: 4,
      kind: 'expense',
      amount: 38.7,
      currency: 'GBP',
      original_amount: 45,
      original_currency: 'EUR',
      account_id: 1,
      date: '2026-11-20',
      note: 'dinner',
      tags: [],
      category_id: 3,
      category_picked: true,
      group_id: null,
      to_account_id: null,
      to_amount: null,
      refund_of: null,
      split: null,
    } as unknown as Transaction;
    store.start(tx, '2026-11-28', null, null);
    expect([store.draft.amount, store.draft.currency, store.draft.charged]).toEqual(['45', 'EUR', '38.7']);
    store.draft.currency = null;
    store.draft.amount = '38.7';
    await store.save(ctx);
    expect(api.updateTransaction.mock.calls[0]![1]).toMatchObject({
      amount: '38.7',
      original_amount: null,
      original_currency: null,
    });
  });
});

describe('the add form, before typing an entry twice', () => {
  it('shows the imported entries it would repeat once, then saves when asked again', async () => {
    const imported = { id: 8, amount: 32, currency: 'CNY', date: '2026-11-27', note: '滴滴出行 快车' } as Transaction;
    api.possibleDuplicates.mockResolvedValue([imported]);
    vi.stubGlobal('navigator', { onLine: true });
    const store = await typed('昨天 打车 32 微信');
    expect(await store.save(ctx)).toBe(false);
    expect(api.possibleDuplicates.mock.calls[0]![0]).toEqual({
      kind: 'expense',
      amount: '32',
      currency: 'CNY',
      account_id: 2,
      date: '2026-11-27',
    });
    expect(store.duplicates.map((x) => x.id)).toEqual([8]);
    expect(api.createTransaction).not.toHaveBeenCalled();
    expect(await store.save(ctx)).toBe(true);
    expect(api.createTransaction).toHaveBeenCalledTimes(1);
    // another amount is another question
    store.forgetDuplicates();
    expect(store.duplicates).toEqual([]);
    vi.unstubAllGlobals();
  });

  it('asks nothing offline', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const store = await typed('打车 32 微信');
    expect(await store.save(ctx)).toBe(true);
    expect(api.possibleDuplicates).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
