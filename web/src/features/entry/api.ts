// The calls of the add form, through the typed client.
import { client, ok } from '../../api/client';
import type { operations } from '../../api/schema';
import type { Transaction } from '../../api/types';

type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
export type CreateBody = Body<'postTransactions'>;
export type UpdateBody = Body<'putTransactionsById'>;
export type ServerParse = operations['postQuickEntryParse']['responses'][200]['content']['application/json'];

export function parseLine(text: string): Promise<ServerParse> {
  return ok(client.POST('/api/quick-entry/parse', { body: { text } }));
}

export function suggest(kind: 'expense' | 'income', note: string, amount: string | undefined) {
  return ok(client.GET('/api/categories/suggest', { params: { query: { kind, note: note || undefined, amount } } }));
}

export function createTransaction(body: CreateBody, key: string): Promise<Transaction> {
  return ok(client.POST('/api/transactions', { body, headers: { 'Idempotency-Key': key } }));
}

export function updateTransaction(id: number, body: UpdateBody): Promise<Transaction> {
  return ok(client.PUT('/api/transactions/{id}', { params: { path: { id } }, body }));
}

export type DuplicatesQuery = operations['getTransactionsPossibleDuplicates']['parameters']['query'];

/** The imported entries a new one would count a second time (closest first). */
export async function possibleDuplicates(query: DuplicatesQuery): Promise<Transaction[]> {
  const res = await ok(client.GET('/api/transactions/possible-duplicates', { params: { query } }));
  return res.list;
}

export function deleteTransaction(id: number): Promise<void> {
  return ok(client.DELETE('/api/transactions/{id}', { params: { path: { id } } })).then(() => undefined);
}

/** Recent purchases a refund may reduce: the caller's own expenses, newest first, matching a word of the note. */
export async function recentPurchases(keyword: string): Promise<Transaction[]> {
  const res = await ok(
    client.GET('/api/transactions', {
      params: { query: { kind: 'expense', keyword: keyword || undefined, pageSize: 20 } },
    }),
  );
  return res.list.filter((t) => t.amount > 0 && t.group_id === null);
}
