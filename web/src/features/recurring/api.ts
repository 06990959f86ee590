// The recurring-rule calls, through the typed client.
import { client, ok } from '../../api/client';
import type { RecurringInput } from '../../api/types';

export type RuleUpdate = Partial<Omit<RecurringInput, 'book_past' | 'category_id' | 'to_account_id'>> & {
  category_id?: number | null;
  to_account_id?: number | null;
  end_date?: string | null;
  group_id?: number | null;
};

export const recurringApi = {
  list: () => ok(client.GET('/api/recurring')).then((r) => r.list),
  create: (body: RecurringInput) => ok(client.POST('/api/recurring', { body })),
  update: (id: number, body: RuleUpdate) => ok(client.PUT('/api/recurring/{id}', { params: { path: { id } }, body })),
  remove: (id: number) => ok(client.DELETE('/api/recurring/{id}', { params: { path: { id } } })),
};
