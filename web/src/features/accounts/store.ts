// The user's accounts. Two layers: a cache every screen shares (the pickers, the rows of the books),
// kept until something changes the accounts, with the account the add form remembers on this
// device; and the accounts screen's store, which reads the accounts with the net worth history and
// reloads both after every change it makes.
import { defineStore } from 'pinia';
import { computed, reactive } from 'vue';
import { createLoader } from '../../lib/loader';
import { shell } from '../../stores/shell';
import { createTransaction, type CreateBody } from '../entry';
import * as api from './api';

export type { Account, AccountList } from './api';

const LAST = 'ledger.account';

export const accountState = reactive({
  list: null as api.Account[] | null,
  netWorth: 0,
  baseCurrency: '',
  missingRates: [] as string[],
});

function keep(res: api.AccountList): api.Account[] {
  accountState.list = res.list;
  accountState.netWorth = res.net_worth;
  accountState.baseCurrency = res.base_currency;
  accountState.missingRates = res.missing_rates;
  return res.list;
}

/** Every account, archived ones included (pickers leave those out). */
export async function loadAccounts(force = false): Promise<api.Account[]> {
  if (accountState.list && !force) return accountState.list;
  return keep(await api.fetchAccounts());
}

export function invalidateAccounts(): void {
  accountState.list = null;
}

/** Accounts one can book new rows in: not archived. */
export const openAccounts = computed(() => (accountState.list ?? []).filter((a) => !a.archived));

export function accountById(id: number | null | undefined): api.Account | undefined {
  return id ? accountState.list?.find((a) => a.id === id) : undefined;
}

/** The account the add form starts with: the last one used while it is still open, else the default one. */
export function startAccountId(): number | null {
  const saved = Number(localStorage.getItem(LAST)) || null;
  const open = openAccounts.value;
  if (saved && open.some((a) => a.id === saved)) return saved;
  return open.find((a) => a.is_default)?.id ?? open[0]?.id ?? null;
}

export function rememberAccount(id: number | null): void {
  if (id) localStorage.setItem(LAST, String(id));
}

export const ACCOUNT_TYPES = ['cash', 'debit_card', 'credit_card', 'e_wallet', 'investment', 'loan', 'other'] as const;

/** The accounts screen: the list (into the shared cache), the net worth over twelve months, and the changes. */
export const useAccountsStore = defineStore('accounts', () => {
  const accounts = createLoader(api.fetchAccounts, null as api.AccountList | null);
  const history = createLoader(() => api.fetchNetWorth(12), [] as api.NetWorthPoint[]);
  const error = computed(() => accounts.error.value ?? history.error.value);

  async function load(): Promise<void> {
    await Promise.all([accounts.load(), history.load()]);
    // the latest answer (an older one arriving late has been dropped by the loader)
    if (accounts.data.value) keep(accounts.data.value);
  }

  /** Balances, the net worth and the books' rows change with every write: all of them are read again. */
  async function changed(): Promise<void> {
    shell.saved++;
    await load();
  }

  async function create(body: api.NewAccount): Promise<void> {
    await api.createAccount(body);
    await changed();
  }

  async function update(id: number, body: api.AccountChange): Promise<void> {
    await api.updateAccount(id, body);
    await changed();
  }

  async function reconcile(id: number, body: api.Reconciliation) {
    const res = await api.reconcile(id, body);
    await changed();
    return res;
  }

  /** A transfer between two accounts; `key` makes a retry of the same form book it once. */
  async function transfer(body: CreateBody, key: string): Promise<void> {
    await createTransaction(body, key);
    await changed();
  }

  return {
    history: history.data,
    loading: accounts.loading,
    error,
    load,
    create,
    update,
    reconcile,
    transfer,
    // one account's page: its balance over time and its entries, read as the page asks
    balanceSeries: (id: number, months: number) => api.fetchBalanceSeries(id, months),
    ledger: (id: number, page: number) => api.fetchLedger(id, page),
  };
});
