// The books' calls, through the typed client: a page of transactions and the saved filters.
import { client, ok } from '../../api/client';
import type { Criteria, SavedFilter, TransactionPage, TransactionQuery } from '../../api/types';

export function fetchPage(query: TransactionQuery): Promise<TransactionPage> {
  return ok(client.GET('/api/transactions', { params: { query } }));
}

export async function fetchSavedFilters(): Promise<SavedFilter[]> {
  return (await ok(client.GET('/api/filters'))).list;
}

export function createSavedFilter(name: string, criteria: Criteria): Promise<SavedFilter> {
  return ok(client.POST('/api/filters', { body: { name, criteria } }));
}

export async function renameFilter(id: number, name: string): Promise<void> {
  await ok(client.PUT('/api/filters/{id}', { params: { path: { id } }, body: { name } }));
}

export async function deleteFilter(id: number): Promise<void> {
  await ok(client.DELETE('/api/filters/{id}', { params: { path: { id } } }));
}
