// What the screens show about the offline layer: whether the network is there, how old the data
// on screen is, what waits in the outbox and what the server refused. The layer (cache.ts,
// sync.ts) keeps it current; views only read it and call its actions.
import { computed, reactive } from 'vue';
import type { Op } from './db';

export const offline = reactive({
  /** false after a request failed for want of a network, true again after one got through */
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  /** when the oldest cached answer shown since the network went away was fetched */
  dataFrom: null as number | null,
  /** the outbox, in order */
  ops: [] as Op[],
  /** rows on screen with waiting changes, and rows whose change was refused (by id) */
  pendingRows: new Set<number>(),
  refusedRows: new Set<number>(),
  syncing: false,
  /** a new version of the app is installed and waits for a reload */
  updateReady: false,
});

export const waiting = computed(() => offline.ops.filter((o) => o.state === 'queued').length);
export const refused = computed(() => offline.ops.filter((o) => o.state === 'refused'));

export function markOnline(): void {
  offline.online = true;
  offline.dataFrom = null;
}

export function markOffline(servedAt?: number): void {
  offline.online = false;
  if (servedAt !== undefined) offline.dataFrom = Math.min(offline.dataFrom ?? servedAt, servedAt);
}

/** For a row of the books: 'pending' while its change waits, 'refused' when the server refused it. */
export function rowState(id: number): 'pending' | 'refused' | null {
  if (offline.refusedRows.has(id)) return 'refused';
  return offline.pendingRows.has(id) ? 'pending' : null;
}

/** True when the totals on screen include rows that are not on the server yet. */
export const totalsIncludePending = computed(() => offline.pendingRows.size > 0 || offline.refusedRows.size > 0);
