// The loading state a feature store keeps for one read: the latest answer, whether a read is under
// way, the error of the last one, and stale answers dropped (a read started earlier that answers
// after a later one changes nothing). Stores build on it; views read the store, never the API.
import { ref, type Ref } from 'vue';

export interface Loader<T> {
  data: Ref<T>;
  loading: Ref<boolean>;
  /** the last read's error (an ApiError or a network failure), null after a good read */
  error: Ref<unknown>;
  /** has a read answered yet (so that a view can tell "empty" from "not loaded") */
  loaded: Ref<boolean>;
  /** reads again; resolves when this read (or a later one) is done, never rejects */
  load: () => Promise<void>;
}

export function createLoader<T>(read: () => Promise<T>, initial: T): Loader<T> {
  const data = ref(initial) as Ref<T>;
  const loading = ref(false);
  const error = ref<unknown>(null);
  const loaded = ref(false);
  let seq = 0;

  async function load(): Promise<void> {
    const mine = ++seq;
    loading.value = true;
    try {
      const value = await read();
      if (mine !== seq) return;
      data.value = value;
      error.value = null;
      loaded.value = true;
    } catch (err) {
      if (mine === seq) error.value = err;
    } finally {
      if (mine === seq) loading.value = false;
    }
  }

  return { data, loading, error, loaded, load };
}
