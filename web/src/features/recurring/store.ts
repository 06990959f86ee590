// The reader's recurring rules: loading, errors, a stale answer dropped, and a reload after every
// change; a new rule that books its past dates moves account balances, which are read again.
// Views call the store, not the API.
import { defineStore } from 'pinia';
import type { RecurringInput, RecurringRule } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { forgetLoader } from '../../lib/pager';
import { onSessionEnd } from '../../lib/session-end';
import { loadAccounts } from '../../stores/accounts';
import { recurringApi, type RuleUpdate } from './api';

export const useRecurringStore = defineStore('recurring', () => {
  const rules$ = createLoader<RecurringRule[]>(() => recurringApi.list(), []);
  const { data: rules, loading, error, loaded, load } = rules$;
  onSessionEnd(() => forgetLoader(rules$, []));

  async function create(body: RecurringInput): Promise<void> {
    await recurringApi.create(body);
    if (body.book_past) void loadAccounts(true).catch(() => undefined);
    await load();
  }

  async function update(id: number, body: RuleUpdate): Promise<void> {
    await recurringApi.update(id, body);
    await load();
  }

  async function remove(id: number): Promise<void> {
    await recurringApi.remove(id);
    await load();
  }

  return { rules, loading, error, loaded, load, create, update, remove };
});
