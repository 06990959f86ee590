// The books: the transactions matching the filters, a page at a time (the first page read again
// for every new choice, an answer for an earlier choice dropped, later pages added as one scrolls),
// the saved filters, and the members of the group on screen.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Criteria, SavedFilter, Member, TransactionPage, TransactionRow } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { fetchMembers } from '../groups';
import * as api from './api';
import { listQuery, PAGE_SIZE, type Filters } from './filters';

export { PAGE_SIZE };

export const useTransactionsStore = defineStore('transactions', () => {
  let filters: Filters | null = null;
  let groupId: number | null = null;
  /** counts the choices shown, so that a later page read for an earlier choice is dropped */
  let choice = 0;

  const first = createLoader(
    async (): Promise<TransactionPage | null> =>
      filters ? api.fetchPage(listQuery(filters, groupId, 1, PAGE_SIZE)) : null,
    null,
  );
  // what is on screen: replaced all at once when the first page of a new choice answers, so that
  // rows of the earlier choice never stand beside those of the new one
  const rows = ref<TransactionRow[]>([]);
  const total = ref(0);
  const sums = ref<TransactionPage['sums'] | null>(null);
  /** the pages shown; 0 while a new choice is read */
  const page = ref(0);
  const loadingMore = ref(false);
  const moreError = ref<unknown>(null);

  const loading = computed(() => first.loading.value || loadingMore.value);
  const error = computed(() => moreError.value ?? first.error.value);

  /** Shows the first page of a choice of filters, in the personal books or with `group` a group's. */
  async function show(f: Filters, group: number | null): Promise<void> {
    filters = f;
    groupId = group;
    const mine = ++choice;
    page.value = 0;
    moreError.value = null;
    await first.load();
    const res = first.data.value;
    if (mine !== choice || first.error.value || !res) return;
    rows.value = res.list;
    total.value = res.total;
    sums.value = res.sums;
    page.value = 1;
  }

  /** Forgets the rows of an earlier visit, so that a new one starts from an empty list. */
  function clear(): void {
    choice++;
    first.error.value = null;
    rows.value = [];
    total.value = 0;
    sums.value = null;
    page.value = 0;
    moreError.value = null;
  }

  /** Adds the next page, leaving out rows already shown (a row booked meanwhile shifts the pages). */
  async function more(): Promise<void> {
    if (!filters || loading.value || rows.value.length >= total.value || page.value === 0) return;
    const mine = choice;
    loadingMore.value = true;
    try {
      const res = await api.fetchPage(listQuery(filters, groupId, page.value + 1, PAGE_SIZE));
      if (mine !== choice) return;
      const seen = new Set(rows.value.map((r) => r.id));
      rows.value = [...rows.value, ...res.list.filter((r) => !seen.has(r.id))];
      total.value = res.total;
      page.value++;
    } catch (err) {
      if (mine === choice) moreError.value = err;
    } finally {
      loadingMore.value = false;
    }
  }

  // ---- saved filters ----
  const savedFilters = createLoader(
    () => api.fetchSavedFilters().catch(() => [] as SavedFilter[]),
    [] as SavedFilter[],
  );

  async function saveFilter(name: string, criteria: Criteria): Promise<SavedFilter> {
    const created = await api.createSavedFilter(name, criteria);
    await savedFilters.load();
    return created;
  }

  async function renameFilter(id: number, name: string): Promise<void> {
    await api.renameFilter(id, name);
    await savedFilters.load();
  }

  async function deleteFilter(id: number): Promise<void> {
    await api.deleteFilter(id);
    await savedFilters.load();
  }

  // ---- the members of the group on screen (for the member filter) ----
  let membersOf: number | null = null;
  const members = createLoader(
    async () => (membersOf ? fetchMembers(membersOf).catch(() => [] as Member[]) : []),
    [] as Member[],
  );
  function showMembers(group: number | null): Promise<void> {
    membersOf = group;
    return members.load();
  }

  return {
    rows,
    total,
    sums,
    page,
    loading,
    error,
    show,
    clear,
    more,
    savedFilters: savedFilters.data,
    loadSavedFilters: savedFilters.load,
    saveFilter,
    renameFilter,
    deleteFilter,
    members: members.data,
    showMembers,
  };
});
