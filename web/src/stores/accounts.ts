// The user's accounts (cached until something changes them) and the account the add form
// remembers: the last one a transaction was recorded in, kept on this device.
import { computed, reactive } from 'vue';
import { client, ok } from '../api/client';
import type { components } from '../api/schema';

export type Account = components['schemas']['Account'];
export type AccountList = components['schemas']['AccountList'];

const LAST = 'ledger.account';

export const accountState = reactive({
  list: null as Account[] | null,
  netWorth: 0,
  baseCurrency: '',
  missingRates: [] as string[],
});

/** Every account, archived ones included (pickers leave those out). */
export async function loadAccounts(force = false): Promise<Account[]> {
  if (accountState.list && !force) return accountState.list;
  const res = await ok(client.GET('/api/accounts', { params: { query: { include_archived: true } } }));
  accountState.list = res.list;
  accountState.netWorth = res.net_worth;
  accountState.baseCurrency = res.base_currency;
  accountState.missingRates = res.missing_rates;
  return res.list;
}

export function invalidateAccounts(): void {
  accountState.list = null;
}

/** Accounts one can book new rows in: not archived. */
export const openAccounts = computed(() => (accountState.list ?? []).filter((a) => !a.archived));

export function accountById(id: number | null | undefined): Account | undefined {
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
