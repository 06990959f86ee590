// One page of a paged list on the shared loader: the page shown, its rows and the total, and going
// to another page. A read started earlier that answers after a later one is dropped.
import { computed, ref, type ComputedRef, type Ref } from 'vue';
import { createLoader, type Loader } from './loader';

export const PAGE_SIZE = 20;

export interface Page<T> {
  list: T[];
  total: number;
}

export interface Pager<T> {
  page: Ref<number>;
  list: ComputedRef<T[]>;
  total: ComputedRef<number>;
  loading: Ref<boolean>;
  error: Ref<unknown>;
  loaded: Ref<boolean>;
  /** reads the page shown again */
  load: () => Promise<void>;
  goTo: (page: number) => Promise<void>;
  /** back to nothing read, on the first page */
  forget: () => void;
}

/** Puts a loader back to nothing read (the session that read it has ended). */
export function forgetLoader<T>(loader: Loader<T>, initial: T): void {
  loader.data.value = initial;
  loader.loaded.value = false;
  loader.error.value = null;
}

export function createPager<T>(read: (page: number, pageSize: number) => Promise<Page<T>>): Pager<T> {
  const page = ref(1);
  const loader = createLoader<Page<T>>(() => read(page.value, PAGE_SIZE), { list: [], total: 0 });
  async function goTo(p: number): Promise<void> {
    page.value = p;
    await loader.load();
  }
  return {
    page,
    list: computed(() => loader.data.value.list),
    total: computed(() => loader.data.value.total),
    loading: loader.loading,
    error: loader.error,
    loaded: loader.loaded,
    load: loader.load,
    goTo,
    forget: () => {
      page.value = 1;
      forgetLoader(loader, { list: [], total: 0 });
    },
  };
}
