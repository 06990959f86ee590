// The fetch layer under the API client. GETs of the books, accounts, categories, tags, groups,
// profile, configuration and statistics are kept per user in IndexedDB and answered from there
// when the network is down. Creates, edits and deletes of transactions made without a network
// (or while earlier ones still wait) go to the outbox with the Idempotency-Key made at Save and
// are answered at once as if the server had; pages of the books show the waiting operations.
import type { Category, Transaction, TransactionPage, TransactionRow } from '../../api/types';
import { currentUser, dbFor, rememberUser, userDb, type CachedAnswer, type Op, type OfflineDb } from './db';
import { fold, overlay, rowOf, sumsOf, type PageQuery, type RowContext } from './outbox';
import { markOffline, markOnline, offline } from './store';
import { suggestOffline } from './suggest';

const CACHED = [
  '/api/me',
  '/api/config',
  '/api/groups',
  '/api/accounts',
  '/api/categories',
  '/api/tags',
  '/api/transactions',
  '/api/stats/',
  '/api/filters',
];
const NOT_CACHED = ['/api/categories/suggest'];
const TX = /^\/api\/transactions(?:\/(-?\d+))?$/;

let afterEnqueue: () => void = () => {};
/** The sync module asks to be told when an operation joined the outbox. */
export function onEnqueued(fn: () => void): void {
  afterEnqueue = fn;
}

/** A failure to reach the server at all (no network, connection cut), not an error answer. */
export function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError;
}

function cacheable(path: string): boolean {
  return (
    CACHED.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p || path.startsWith(`${p}/`))) &&
    !NOT_CACHED.includes(path)
  );
}

/** The cache key of a GET: its path and its query sorted, so that order never matters. */
export function answerKey(url: URL): string {
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  return params.length ? `${url.pathname}?${new URLSearchParams(params).toString()}` : url.pathname;
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function latest<T>(db: OfflineDb, path: string): Promise<T | null> {
  const all = await db.getAll('answers', IDBKeyRange.bound(path, `${path}\uffff`));
  const best = all.filter((a) => a.url === path || a.url.startsWith(`${path}?`)).sort((a, b) => b.at - a.at)[0];
  return (best?.body as T | undefined) ?? null;
}

/** The user's lists as last cached, to build rows saved offline. */
export async function rowContext(db: OfflineDb): Promise<RowContext> {
  const [cats, accounts, tags, me] = await Promise.all([
    latest<{ list: Category[] }>(db, '/api/categories'),
    latest<{ list: { id: number; currency: string }[] }>(db, '/api/accounts'),
    latest<{ list: { id: number; name: string }[] }>(db, '/api/tags'),
    latest<RowContext['me']>(db, '/api/me'),
  ]);
  return { categories: cats?.list ?? [], accounts: accounts?.list ?? [], tags: tags?.list ?? [], me };
}

export async function outboxOps(db: OfflineDb): Promise<Op[]> {
  return db.getAll('outbox');
}

export async function idMap(db: OfflineDb): Promise<Map<number, number>> {
  return new Map((await db.getAll('ids')).map((x) => [x.temp, x.id]));
}

/** Refreshes the outbox shown on screen. */
export async function publishOutbox(db: OfflineDb | null): Promise<void> {
  offline.ops = db ? await outboxOps(db) : [];
}

function pageQuery(url: URL): PageQuery {
  const q = url.searchParams;
  const group = Number(q.get('group_id')) || undefined;
  return {
    startDate: q.get('startDate') ?? undefined,
    endDate: q.get('endDate') ?? undefined,
    kind: q.get('kind') ?? undefined,
    group_id: group,
    sort: q.get('sort') ?? undefined,
    page: Number(q.get('page')) || 1,
  };
}

/** The month's rows kept for pages never fetched online: filtered, sorted and paged here. */
const MONTH = 'month:';

function fromMonth(rows: TransactionRow[], url: URL, baseCurrency: string | undefined): TransactionPage {
  const q = pageQuery(url);
  const size = Number(url.searchParams.get('pageSize')) || 20;
  const kept = rows.filter(
    (r) =>
      (!q.startDate || r.date >= q.startDate) &&
      (!q.endDate || r.date <= q.endDate) &&
      (!q.kind || q.kind === 'all' || r.kind === q.kind) &&
      (!q.group_id || r.group_id === q.group_id),
  );
  const start = ((q.page ?? 1) - 1) * size;
  return { list: kept.slice(start, start + size), total: kept.length, sums: sumsOf(kept, baseCurrency) };
}

async function withPending(db: OfflineDb, url: URL, page: TransactionPage): Promise<TransactionPage> {
  const ops = await outboxOps(db);
  offline.ops = ops;
  if (!ops.length) {
    offline.pendingRows = new Set();
    offline.refusedRows = new Set();
    return page;
  }
  const out = overlay(page, ops, await idMap(db), await rowContext(db), pageQuery(url));
  offline.pendingRows = new Set(out.pending);
  offline.refusedRows = new Set(out.refused);
  return out.page;
}

/**
 * At start-up the shell, the profile and the books come from the cache at once when they are
 * there (a warm start does not wait for a slow network); the network answer follows, is cached,
 * and replaces what is on screen when it differs. Only the first request of each address does
 * this; every later one asks the network first.
 */
const AT_START = new Set(['/api/config', '/api/me', '/api/groups', '/api/transactions']);
const START_WINDOW_MS = 3000;
const started = typeof performance === 'undefined' ? 0 : performance.now();
const askedOnce = new Set<string>();

let onFresher: (path: string, body: unknown) => void = () => {};
/** Told when the network answered differently from what a start from the cache showed. */
export function whenFresher(fn: (path: string, body: unknown) => void): void {
  onFresher = fn;
}

async function revalidate(
  req: Request,
  url: URL,
  shown: CachedAnswer,
  next: (r: Request) => Promise<Response>,
): Promise<void> {
  try {
    const res = await next(req);
    markOnline();
    if (!res.ok) return;
    const body: unknown = await res.json();
    const db = await userDb();
    await db?.put('answers', { url: shown.url, body, at: Date.now() });
    if (JSON.stringify(body) !== JSON.stringify(shown.body)) onFresher(url.pathname, body);
  } catch (err) {
    if (isNetworkError(err)) markOffline(shown.at);
  }
}

/**
 * Caches an answer for later starts and for offline use. The answer itself does not wait for it:
 * at a first start the store is being created while the first screen waits for its profile.
 */
function keep(key: string, body: unknown): void {
  void userDb()
    .then((db) => db?.put('answers', { url: key, body, at: Date.now() }))
    .catch(() => undefined);
}

async function cachedGet(req: Request, url: URL, next: (r: Request) => Promise<Response>): Promise<Response> {
  const key = answerKey(url);
  const first = !askedOnce.has(key);
  askedOnce.add(key);
  if (first && AT_START.has(url.pathname) && performance.now() - started < START_WINDOW_MS) {
    const db = await userDb();
    const hit = db ? await db.get('answers', key) : undefined;
    if (db && hit) {
      void revalidate(req, url, hit, next);
      return json(
        url.pathname === '/api/transactions' ? await withPending(db, url, hit.body as TransactionPage) : hit.body,
      );
    }
  }
  try {
    const res = await next(req);
    markOnline();
    if (!res.ok) return res;
    const body: unknown = await res.clone().json();
    if (url.pathname === '/api/me') rememberUser((body as { id: number }).id);
    keep(key, body);
    if (url.pathname !== '/api/transactions') return res;
    const db = await userDb();
    if (!db) return res;
    return json(await withPending(db, url, body as TransactionPage));
  } catch (err) {
    if (!isNetworkError(err)) throw err;
    const db = await userDb();
    const hit = db ? await db.get('answers', key) : undefined;
    if (db && hit) {
      markOffline(hit.at);
      return json(
        url.pathname === '/api/transactions' ? await withPending(db, url, hit.body as TransactionPage) : hit.body,
      );
    }
    const month =
      db && url.pathname === '/api/transactions'
        ? await db.get('answers', `${MONTH}${(url.searchParams.get('startDate') ?? '').slice(0, 7)}`)
        : undefined;
    if (db && month) {
      markOffline(month.at);
      const me = await latest<{ base_currency?: string }>(db, '/api/me');
      return json(await withPending(db, url, fromMonth(month.body as TransactionRow[], url, me?.base_currency)));
    }
    markOffline();
    throw err;
  }
}

let seq = 0;
/** A local id for a row created offline: negative, never one of the server's. */
function localId(): number {
  return -(Date.now() * 100 + (seq++ % 100));
}

async function enqueue(db: OfflineDb, req: Request, url: URL, target: number | null): Promise<Response> {
  const body = req.method === 'DELETE' ? null : ((await req.clone().json()) as Record<string, unknown>);
  const kind = req.method === 'POST' ? 'create' : req.method === 'PUT' ? 'update' : 'delete';
  const op: Op = {
    kind,
    key: req.headers.get('Idempotency-Key') ?? crypto.randomUUID(),
    target: target ?? localId(),
    body,
    at: Date.now(),
    attempts: 0,
    state: 'queued',
    refusal: null,
  };
  const ops = await outboxOps(db);
  const change = fold(ops, op);
  const tx = db.transaction('outbox', 'readwrite');
  for (const seqNo of change.remove) await tx.store.delete(seqNo);
  for (const o of change.put) await tx.store.put(o);
  await tx.done;
  await publishOutbox(db);
  afterEnqueue();
  if (kind === 'delete') return json(null, 204);
  const ctx = await rowContext(db);
  const base = target !== null ? await knownRow(db, target) : undefined;
  return json(rowOf(body ?? {}, op.target, ctx, base), kind === 'create' ? 201 : 200, { 'X-Offline-Queued': 'true' });
}

/** The row as last seen on a cached page of the books (to answer an edit made offline). */
async function knownRow(db: OfflineDb, id: number): Promise<Transaction | undefined> {
  for (const a of await db.getAll('answers', IDBKeyRange.bound('/api/transactions', '/api/transactions\uffff'))) {
    const row = (a.body as TransactionPage).list?.find((r) => r.id === id);
    if (row) return row;
  }
  const op = (await outboxOps(db)).find((o) => o.kind === 'create' && o.target === id);
  return op ? rowOf(op.body ?? {}, id, await rowContext(db)) : undefined;
}

async function write(req: Request, url: URL, next: (r: Request) => Promise<Response>): Promise<Response> {
  const m = TX.exec(url.pathname)!;
  const target = m[1] ? Number(m[1]) : null;
  const db = await userDb();
  if (!db) return next(req);
  // a row created offline, or earlier writes still waiting: keep the order, go through the outbox
  const queued =
    (target !== null && target < 0) || (await db.count('outbox')) > 0 || !offline.online || !navigator.onLine;
  if (queued) return enqueue(db, req, url, target);
  try {
    const res = await next(req.clone());
    markOnline();
    return res;
  } catch (err) {
    if (!isNetworkError(err)) throw err;
    markOffline();
    // the request may have reached the server: a create keeps its key, so the retry replays it
    return enqueue(db, req, url, target);
  }
}

/** The layer itself: installed under the API client (see api/client.ts). */
export async function offlineLayer(req: Request, next: (r: Request) => Promise<Response>): Promise<Response> {
  const url = new URL(req.url, location.origin);
  if (req.method === 'GET' && cacheable(url.pathname)) return cachedGet(req, url, next);
  const isWrite =
    (req.method === 'POST' && url.pathname === '/api/transactions') ||
    ((req.method === 'PUT' || req.method === 'DELETE') &&
      TX.test(url.pathname) &&
      url.pathname !== '/api/transactions');
  if (isWrite) return write(req, url, next);
  if (req.method === 'GET' && url.pathname === '/api/categories/suggest') return suggest(req, url, next);
  return next(req);
}

/** Suggestions come from the server; without a network, from the cached lists and history. */
async function suggest(req: Request, url: URL, next: (r: Request) => Promise<Response>): Promise<Response> {
  try {
    return await next(req);
  } catch (err) {
    const db = isNetworkError(err) ? await userDb() : null;
    if (!db) throw err;
    markOffline();
    const ctx = await rowContext(db);
    return json(await suggestOffline(db, url, { categories: ctx.categories, me: ctx.me?.id ?? null }));
  }
}

/** Keeps the current month's personal books whole, for pages of it never opened online. */
export async function keepMonth(next: (r: Request) => Promise<Response>, today: string): Promise<void> {
  const id = currentUser();
  if (!id) return;
  const db = await dbFor(id);
  const [y, m] = today.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const ym = today.slice(0, 7);
  const rows: TransactionRow[] = [];
  for (let page = 1; page <= 20; page++) {
    const url = new URL(
      `/api/transactions?startDate=${ym}-01&endDate=${ym}-${String(last).padStart(2, '0')}&sort=date_desc&pageSize=100&page=${page}`,
      location.origin,
    );
    const res = await next(new Request(url));
    if (!res.ok) return;
    const body = (await res.json()) as TransactionPage;
    rows.push(...body.list);
    if (rows.length >= body.total || !body.list.length) break;
  }
  await db.put('answers', { url: `${MONTH}${ym}`, body: rows, at: Date.now() });
}

/** The row an operation of the outbox stands for, to open it in the edit form. */
export async function rowForOp(op: Op): Promise<Transaction | undefined> {
  const db = await userDb();
  if (!db) return undefined;
  const ctx = await rowContext(db);
  if (op.kind === 'create') return rowOf(op.body ?? {}, op.target, ctx);
  const base = await knownRow(db, op.target);
  return base ? rowOf(op.body ?? {}, base.id, ctx, base) : undefined;
}
