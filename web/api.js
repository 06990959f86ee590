/* global URLSearchParams */
// Transport to the /api endpoints: bearer tokens kept in localStorage, one shared refresh at a
// time (requests wait while it runs and are replayed with the new token), and a final 401
// ends the session.

const TOKENS = 'ledger.tokens';
const PREFIX = 'ledger.';

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `Request failed (HTTP ${status})`);
    this.status = status;
    this.code = body && body.code;
    this.body = body || {};
  }
}

let refreshing = null;
let signedOutHandler = () => {};

export function onSignedOut(fn) {
  signedOutHandler = fn;
}

export function getTokens() {
  try {
    const t = JSON.parse(localStorage.getItem(TOKENS) || 'null');
    return t && t.access_token && t.refresh_token ? t : null;
  } catch {
    return null;
  }
}

export function setTokens(pair) {
  localStorage.setItem(TOKENS, JSON.stringify({ access_token: pair.access_token, refresh_token: pair.refresh_token }));
}

/** Forgets every piece of local session data (tokens, selected group, cached choices). */
export function clearSession() {
  for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
}

export function query(params) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

async function send(path, opts, token) {
  const headers = { Accept: 'application/json', ...(opts.headers || {}) };
  let body;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path + query(opts.query), { method: opts.method || (body ? 'POST' : 'GET'), headers, body });
  let data = null;
  if (res.status !== 204) {
    const text = await res.text();
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = { message: res.ok ? text : `HTTP ${res.status}` };
      }
    }
  }
  return { res, data };
}

/** Runs at most one refresh; every caller that hit 40101 meanwhile awaits the same one. */
function refresh(usedAccess) {
  if (!refreshing) {
    refreshing = (async () => {
      const current = getTokens();
      if (!current) return false;
      // Another tab (or an earlier refresh) already rotated the pair: just use the new token.
      if (current.access_token !== usedAccess) return true;
      const { res, data } = await send('/api/auth/refresh', { method: 'POST', body: { refresh_token: current.refresh_token } });
      if (res.ok) {
        setTokens(data);
        return true;
      }
      // A concurrent rotation from another tab answers 40102 here but leaves fresh tokens behind.
      const after = getTokens();
      return !!after && after.access_token !== usedAccess;
    })().finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

function expire(data) {
  clearSession();
  signedOutHandler(data || null);
}

/**
 * Calls the API. opts: method, body (JSON), form (FormData), query (object), headers,
 * public (no token, no refresh). Resolves with the parsed body (null for 204); rejects with
 * ApiError carrying the server's {code, message, details}.
 */
export async function api(path, opts = {}) {
  if (opts.public) {
    const { res, data } = await send(path, opts);
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }
  if (refreshing) await refreshing.catch(() => {});
  let token = getTokens()?.access_token;
  if (!token) {
    expire();
    throw new ApiError(401, { code: 40101, message: 'Please sign in' });
  }
  let { res, data } = await send(path, opts, token);
  if (res.status === 401 && data && data.code === 40101) {
    if (await refresh(token)) {
      token = getTokens()?.access_token;
      ({ res, data } = await send(path, opts, token));
    }
  }
  if (res.status === 401) {
    expire(data);
    throw new ApiError(401, data);
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export async function signIn(path, body) {
  const data = await api(path, { method: 'POST', body, public: true });
  clearSession();
  setTokens(data);
  return data;
}

export async function signOut() {
  const t = getTokens();
  clearSession();
  if (t) await api('/api/auth/logout', { method: 'POST', body: { refresh_token: t.refresh_token }, public: true }).catch(() => {});
}

export function idempotencyKey() {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
