// One typed client for /api: bearer tokens kept in localStorage, one shared refresh at a time
// (requests wait while it runs and are replayed with the new token), and a final 401 ends the
// session. Errors become ApiError carrying the contract's {code, details}; the text shown to a
// person comes from the client's own catalogue (lib/errors.ts), never from the server.
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const TOKENS = 'ledger.tokens';
const PREFIX = 'ledger.';

export interface ErrorDetail {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  readonly details: ErrorDetail[];
  readonly body: Record<string, unknown>;
  constructor(status: number, body: unknown) {
    const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    super(`HTTP ${status}`);
    this.status = status;
    this.code = typeof b.code === 'number' ? b.code : status >= 500 ? 50001 : 0;
    this.details = Array.isArray(b.details) ? (b.details as ErrorDetail[]) : [];
    this.body = b;
  }
}

/** A failure found by the client itself, shown through the same catalogue. */
export class ClientError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
  }
}

interface Tokens {
  access_token: string;
  refresh_token: string;
}

export function getTokens(): Tokens | null {
  try {
    const t = JSON.parse(localStorage.getItem(TOKENS) ?? 'null') as Tokens | null;
    return t && t.access_token && t.refresh_token ? t : null;
  } catch {
    return null;
  }
}

export function setTokens(pair: Tokens): void {
  localStorage.setItem(TOKENS, JSON.stringify({ access_token: pair.access_token, refresh_token: pair.refresh_token }));
}

/** Forgets every piece of local session data (tokens, selected group); the language stays. */
export function clearSession(): void {
  early.clear();
  for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
}

let signedOutHandler: (code: number | null) => void = () => {};
export function onSignedOut(fn: (code: number | null) => void): void {
  signedOutHandler = fn;
}

let language = 'en';
/** The Accept-Language sent with every request: new accounts are set up in this language. */
export function setRequestLanguage(lang: string): void {
  language = lang;
}

const PUBLIC = new Set([
  '/api/auth/login',
  '/api/auth/demo-login',
  '/api/auth/register',
  '/api/auth/password-login',
  '/api/auth/passkeys/login/options',
  '/api/auth/passkeys/login/verify',
  '/api/auth/totp/verify',
  '/api/auth/oidc/start',
  '/api/auth/oidc/callback',
  '/api/auth/refresh',
  '/api/auth/logout',
  '/api/config',
  '/api/health',
]);

// ---- reads started early ----
// The first screen's reads are started by a small script of their own while the app's scripts are
// still on their way (see early.ts); the app's own call for the same address then takes that answer
// instead of asking again. An answer is taken once, only with the access token it was asked with
// (another person signed in meanwhile asks afresh), and only in the first seconds: later calls go
// to the network, so that nothing stale is shown after the start.
const EARLY_MS = 10_000;
interface EarlyRead {
  token: string | null;
  at: number;
  response: Promise<Response>;
}
const early = new Map<string, EarlyRead>();

/** The address a read is known by: its path and its query sorted (so that order never matters). */
export function readKey(url: URL): string {
  const params = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return params.length ? `${url.pathname}?${new URLSearchParams(params).toString()}` : url.pathname;
}

/** The user an access token was issued to (its `sub`), without checking it: the server does that. */
function userOfToken(token: string): number | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return Number(payload.sub) || null;
  } catch {
    return null;
  }
}

/**
 * The answers a page rendered by the server carries (src/plugins/first-screen.ts), taken as the
 * early reads of this start, when they are of the person whose tokens this browser holds. False
 * when there are none or they are of someone else (then the page's markup is not theirs either).
 */
export function takeServerAnswers(): boolean {
  const block = typeof document === 'undefined' ? null : document.getElementById('first-screen');
  const token = getTokens()?.access_token;
  if (!block || !token) return false;
  try {
    const data = JSON.parse(block.textContent ?? '') as { user?: unknown; reads?: Record<string, unknown> };
    if (data.user !== userOfToken(token) || !data.reads) return false;
    const at = performance.now();
    for (const [key, body] of Object.entries(data.reads)) {
      const response = Promise.resolve(
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
      );
      early.set(key, { token, at, response });
    }
    return true;
  } catch {
    return false;
  }
}

/** Starts a GET of the first screen now, for the app's own call to take later. */
export function readEarly(path: string, query: Record<string, string | number> = {}): void {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  // the page brought this answer with it
  if (early.has(readKey(url))) return;
  const token = PUBLIC.has(path) ? null : (getTokens()?.access_token ?? null);
  if (!PUBLIC.has(path) && !token) return;
  // no Accept-Language: the language is not known yet, and only the sign-in calls depend on it
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = fetch(url, { headers });
  // a failure reaches the call that takes it; one never taken is no error of its own
  response.catch(() => undefined);
  early.set(readKey(url), { token, at: performance.now(), response });
}

/** The early answer for this request, when one was started for it with the same token. */
function takeEarly(req: Request, token: string | null): Promise<Response> | null {
  if (req.method !== 'GET' || !early.size) return null;
  const key = readKey(new URL(req.url, location.origin));
  const read = early.get(key);
  if (!read) return null;
  early.delete(key);
  return read.token === token && performance.now() - read.at < EARLY_MS ? read.response : null;
}

let refreshing: Promise<boolean> | null = null;

/** Runs at most one refresh; every caller that hit 40101 meanwhile awaits the same one. */
function refresh(usedAccess: string): Promise<boolean> {
  refreshing ??= (async () => {
    const current = getTokens();
    if (!current) return false;
    // another tab (or an earlier refresh) already rotated the pair: use the new token
    if (current.access_token !== usedAccess) return true;
    const res = await fetch('/api/auth/refresh', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ refresh_token: current.refresh_token }),
    });
    if (res.ok) {
      setTokens((await res.json()) as Tokens);
      return true;
    }
    // a concurrent rotation from another tab answers 40102 here but leaves fresh tokens behind
    const after = getTokens();
    return !!after && after.access_token !== usedAccess;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function codeOf(res: Response): Promise<number | null> {
  try {
    const body = (await res.clone().json()) as { code?: unknown };
    return typeof body.code === 'number' ? body.code : null;
  } catch {
    return null;
  }
}

function expire(code: number | null): void {
  clearSession();
  signedOutHandler(code);
}

/** fetch with the session's bearer token, one refresh on an expired token, and the language. */
export async function authedFetch(input: Request): Promise<Response> {
  const path = new URL(input.url, location.origin).pathname;
  input.headers.set('Accept-Language', language);
  if (PUBLIC.has(path)) return takeEarly(input, null) ?? fetch(input);
  if (refreshing) await refreshing.catch(() => false);
  const retry = input.clone();
  const token = getTokens()?.access_token;
  if (!token) {
    expire(null);
    return new Response(JSON.stringify({ code: 40101, message: 'signed out' }), {
      status: 401,
      headers: { 'content-type': 'application/json' },
    });
  }
  input.headers.set('Authorization', `Bearer ${token}`);
  let res = await (takeEarly(input, token) ?? fetch(input));
  if (res.status === 401 && (await codeOf(res)) === 40101 && (await refresh(token))) {
    retry.headers.set('Authorization', `Bearer ${getTokens()?.access_token ?? ''}`);
    res = await fetch(retry);
  }
  if (res.status === 401) expire(await codeOf(res));
  return res;
}

/** A layer between the typed client and the network (the offline cache and outbox install one). */
export type FetchLayer = (req: Request, next: (req: Request) => Promise<Response>) => Promise<Response>;
let layer: FetchLayer = (req, next) => next(req);
export function useFetchLayer(fn: FetchLayer): void {
  layer = fn;
}

// on the server (entry-server.ts) the answers come from a layer, never the network: any absolute address does
export const client = createClient<paths>({
  baseUrl: typeof location === 'undefined' ? 'http://localhost' : location.origin,
  fetch: (req) => layer(req, authedFetch),
});

const errorWatchers: ((err: ApiError) => void)[] = [];
/**
 * Calls `fn` with every refusal of the API before it reaches the caller (a missing exchange rate is offered to add).
 */
export function watchApiErrors(fn: (err: ApiError) => void): void {
  errorWatchers.push(fn);
}
function refused(status: number, body: unknown): ApiError {
  const err = new ApiError(status, body);
  for (const fn of errorWatchers) fn(err);
  return err;
}

/** Unwraps an openapi-fetch answer: its data, or an ApiError. */
export async function ok<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) throw refused(response.status, error);
  return data as D;
}

/** For uploads (multipart), which the generated types describe loosely. */
export async function upload<T>(path: string, form: FormData, headers: Record<string, string> = {}): Promise<T> {
  const res = await authedFetch(new Request(new URL(path, location.origin), { method: 'POST', body: form, headers }));
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw refused(res.status, body);
  return body as T;
}

export function idempotencyKey(): string {
  return crypto.randomUUID();
}
