// The account calls, through the typed client.
import { client, ok } from '../../api/client';
import type { components, operations } from '../../api/schema';

export type Account = components['schemas']['Account'];
export type AccountList = components['schemas']['AccountList'];
type Body<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
export type NewAccount = Body<'postAccounts'>;
export type AccountChange = Body<'putAccountsById'>;
export type Reconciliation = Body<'postAccountsByIdReconcile'>;
export type NetWorthPoint = operations['getAccountsNetWorth']['responses'][200]['content']['application/json']['list'][number];

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
