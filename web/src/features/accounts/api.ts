// The account calls, through the typed client.
import { client, ok } from '../../api/client';
import type { components, operations } from '../../api/schema';

export type Account = components['schemas']['Account'];
export type AccountList = components['schemas']['AccountList'];
type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
export type NewAccount = Body<'postAccounts'>;
export type AccountChange = Body<'putAccountsById'>;
export type Reconciliation = Body<'postAccountsByIdReconcile'>;
export type NetWorthPoint =
  operations['getAccountsNetWorth']['responses'][200]['content']['application/json']['list'][number];

/** Every account, archived ones included, with the net worth and the currencies lacking a rate. */
export function fetchAccounts(): Promise<AccountList> {
  return ok(client.GET('/api/accounts', { params: { query: { include_archived: true } } }));
}

/** The net worth at the end of each of the last `months` months. */
export async function fetchNetWorth(months: number): Promise<NetWorthPoint[]> {
  const res = await ok(client.GET('/api/accounts/net-worth', { params: { query: { months } } }));
  return res.list;
}

export function createAccount(body: NewAccount): Promise<Account> {
  return ok(client.POST('/api/accounts', { body }));
}

export function updateAccount(id: number, body: AccountChange): Promise<Account> {
  return ok(client.PUT('/api/accounts/{id}', { params: { path: { id } }, body }));
}

export function reconcile(id: number, body: Reconciliation) {
  return ok(client.POST('/api/accounts/{id}/reconcile', { params: { path: { id } }, body }));
}

export type BalanceSeries = operations['getAccountsByIdBalanceSeries']['responses'][200]['content']['application/json'];
export type LedgerPage = operations['getAccountsByIdLedger']['responses'][200]['content']['application/json'];

/** The account's balance at the end of each day it changed over the last `months` months. */
export function fetchBalanceSeries(id: number, months: number): Promise<BalanceSeries> {
  return ok(client.GET('/api/accounts/{id}/balance-series', { params: { path: { id }, query: { months } } }));
}

/** One page of the account's rows, newest first, each with the balance after it. */
export function fetchLedger(id: number, page: number, pageSize = 30): Promise<LedgerPage> {
  return ok(client.GET('/api/accounts/{id}/ledger', { params: { path: { id }, query: { page, pageSize } } }));
}
