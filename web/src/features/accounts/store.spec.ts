import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { deferred } from '../../lib/deferred';
import type { AccountList } from './api';

const api = vi.hoisted(() => ({
  fetchAccounts: vi.fn(),
  fetchNetWorth: vi.fn(),
  createAccount: vi.fn(),
  updateAccount: vi.fn(),
  reconcile: vi.fn(),
}));
const entry = vi.hoisted(() => ({ createTransaction: vi.fn() }));
vi.mock('./api', () => api);
vi.mock('../entry/api', () => entry);

const { accountState, useAccountsStore } = await import('./store');
const { shell } = await import('../../stores/shell');

function list(name: string, netWorth: number): AccountList {
  return {
    list: [{ id: 1, name } as AccountList['list'][number]],
    net_worth: netWorth,
    base_currency: 'CNY',
    missing_rates: [],
  } as AccountList;
}

beforeEach(() => {
  setActivePinia(createPinia());
  vi.resetAllMocks();
  api.fetchNetWorth.mockResolvedValue([{ month: '2026-11', net_worth: 5 }]);
  accountState.list = null;
});

describe('the accounts store', () => {
  it('keeps the latest list in the shared cache when an older read answers last', async () => {
    const first = deferred<AccountList>();
    const second = deferred<AccountList>();
    api.fetchAccounts.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const store = useAccountsStore();
    const a = store.load();
    const b = store.load();
    second.resolve(list('new', 200));
    await b;
    first.resolve(list('old', 100));
    await a;
    expect(accountState.list?.[0]?.name).toBe('new');
    expect(accountState.netWorth).toBe(200);
    expect(store.history).toEqual([{ month: '2026-11', net_worth: 5 }]);
  });

  it('reads the accounts and the history again after a change, and tells the books', async () => {
    api.fetchAccounts.mockResolvedValueOnce(list('before', 1)).mockResolvedValueOnce(list('after', 2));
    api.updateAccount.mockResolvedValue({});
    const store = useAccountsStore();
    await store.load();
    const saved = shell.saved;
    await store.update(1, { archived: true });
    expect(api.updateAccount).toHaveBeenCalledWith(1, { archived: true });
    expect(api.fetchNetWorth).toHaveBeenCalledTimes(2);
    expect(accountState.list?.[0]?.name).toBe('after');
    expect(shell.saved).toBe(saved + 1);
  });

  it('reloads nothing when a change is refused, and passes the refusal on', async () => {
    api.fetchAccounts.mockResolvedValue(list('a', 1));
    entry.createTransaction.mockRejectedValue(new Error('refused'));
    const store = useAccountsStore();
    await expect(
      store.transfer(
        { kind: 'transfer', account_id: 1, to_account_id: 2, amount: '1', date: '2026-11-26' } as never,
        'k',
      ),
    ).rejects.toThrow('refused');
    expect(api.fetchAccounts).not.toHaveBeenCalled();
  });

  it('keeps a failed read as its error and the last good list', async () => {
    api.fetchAccounts.mockResolvedValueOnce(list('good', 1)).mockRejectedValueOnce(new Error('down'));
    const store = useAccountsStore();
    await store.load();
    await store.load();
    expect((store.error as Error).message).toBe('down');
    expect(accountState.list?.[0]?.name).toBe('good');
  });
});
