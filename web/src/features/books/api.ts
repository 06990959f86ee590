// The books' calls, through the typed client: a page of transactions and the saved filters.
import { client, ok } from '../../api/client';
import type { Criteria, FilterScheme, TransactionPage, TransactionQuery } from '../../api/types';

export function fetchPage(query: TransactionQuery): Promise<TransactionPage> {
  return ok(client.GET('/api/transactions', { params: { query } }));
}

export async function fetchSchemes(): Promise<FilterScheme[]> {
  return (await ok(client.GET('/api/filters'))).list;
}

export function createScheme(name: string, criteria: Criteria): Promise<FilterScheme> {
  return ok(client.POST('/api/filters', { body: { name, criteria } }));
}

export async function renameScheme(id: number, name: string): Promise<void> {
  await ok(client.PUT('/api/filters/{id}', { params: { path: { id } }, body: { name } }));
}

export async function deleteScheme(id: number): Promise<void> {
  await ok(client.DELETE('/api/filters/{id}', { params: { path: { id } } }));
}
