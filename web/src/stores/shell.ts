// Shell-level signals: open the add-transaction dialog from anywhere, and a counter views
// watch to reload after a transaction was saved elsewhere.
import { reactive } from 'vue';
import type { Transaction } from '../api/types';

export const shell = reactive({
  adding: false,
  editing: null as Transaction | null,
  saved: 0,
  unread: 0,
});

export function openAdd(): void {
  shell.editing = null;
  shell.adding = true;
}

export function openEdit(tx: Transaction): void {
  shell.editing = tx;
  shell.adding = true;
}
