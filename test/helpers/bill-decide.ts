import assert from 'node:assert/strict';
import type { Client } from './http.ts';

interface Summary {
  methods: { method: string; account_id: number | null }[];
  undecided: { rows: number; category: number; account: number };
}

/**
 * What a person decides in an import preview before it can be committed: an account for each
 * payment method that has none (remembered from then on), and a category for the rows no rule,
 * history or merchant could place (the first of each kind). The account is the person's first one
 * unless named. Answers the preview's summary after.
 */
export async function decideBill(as: Client, previewId: number, accountId?: number): Promise<Summary> {
  if (accountId === undefined) {
    const own = (await as.get('/api/accounts')).json<{ list: { id: number }[] } | { id: number }[]>();
    accountId = (Array.isArray(own) ? own : own.list)[0]!.id;
  }
  const get = async () => (await as.get(`/api/import/bills/${previewId}?pageSize=1`)).json<{ summary: Summary }>();
  for (const m of (await get()).summary.methods) {
    if (m.account_id !== null) continue;
    const res = await as.patch(`/api/import/bills/${previewId}/rows`, {
      bulk: { method: m.method, set: { account_id: accountId } },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  const cats = (await as.get('/api/categories')).json<
    { list: { id: number; kind: string }[] } | { id: number; kind: string }[]
  >();
  const list = Array.isArray(cats) ? cats : cats.list;
  for (const kind of ['expense', 'income']) {
    const res = await as.patch(`/api/import/bills/${previewId}/rows`, {
      bulk: { undecided: 'category', set: { category_id: list.find((c) => c.kind === kind)!.id } },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  const { summary } = await get();
  return summary;
}

/**
 * A commit's answer without `merged` (rows that were entries typed by hand), asserted to be none: the tests that use it
 * book no typed entries.
 */
export function committed(body: Record<string, unknown>): Record<string, unknown> {
  const { merged = 0, ...rest } = body;
  assert.equal(merged, 0, 'no row was an entry typed by hand');
  return rest;
}
