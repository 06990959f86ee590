import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { SignJWT } from 'jose';
import { webRoot } from '../src/plugins/web.ts';
import { build, TEST_SECRET, type TestApp } from './helpers/index.ts';

const webFiles = (ext: string) => readdirSync(webRoot).filter((f) => f.endsWith(ext)).sort();
const source = (file: string) => readFileSync(path.join(webRoot, file), 'utf8');

describe('web client serving', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  it('answers the HTML shell at / with the module entry and a strict script policy', async () => {
    const res = await t.anon.get('/');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<script type="module" src="\/app\.js"><\/script>/);
    assert.match(res.body, /<div id="app">/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
  });

  it('serves every script module as JavaScript and the stylesheet as CSS', async () => {
    for (const file of webFiles('.js')) {
      const res = await t.anon.get(`/${file}`);
      assert.equal(res.statusCode, 200, file);
      assert.match(String(res.headers['content-type']), /javascript/, file);
      assert.equal(res.body, source(file));
    }
    const css = await t.anon.get('/style.css');
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
  });

  it('answers client routes with the index page', async () => {
    const index = source('index.html');
    for (const url of ['/books', '/stats?period=year', '/admin/users', '/groups/']) {
      const res = await t.anon.get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      assert.equal(res.body, index, url);
    }
  });

  it('still answers unknown API routes with the JSON 404', async () => {
    for (const url of ['/api/unknown', '/api/books/nothing']) {
      const res = await t.anon.get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /application\/json/);
      assert.equal(res.json().code, 40401);
    }
    const withToken = await t.withToken('whatever').get('/api/unknown');
    assert.equal(withToken.json().code, 40401);
  });

  it('does not serve files outside the web folder', async () => {
    const res = await t.anon.get('/../package.json');
    assert.ok(!res.body.includes('"dependencies"'));
  });
});

describe('web client sources', () => {
  it('has no inline scripts or inline event handlers in its HTML', () => {
    const pages = webFiles('.html');
    assert.ok(pages.includes('index.html'));
    for (const file of pages) {
      const html = source(file);
      for (const tag of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []) {
        assert.match(tag, /^<script\b[^>]*\bsrc="[^"]+"[^>]*><\/script>$/i, `${file}: inline script ${tag}`);
      }
      assert.doesNotMatch(html, /<[^>]+\son[a-z]+\s*=/i, `${file}: inline event handler`);
      assert.doesNotMatch(html, /javascript:/i, `${file}: javascript: URL`);
    }
  });

  it('never turns data into markup in its scripts', () => {
    const scripts = webFiles('.js');
    assert.ok(scripts.includes('app.js'));
    for (const file of scripts) {
      const js = source(file);
      // markup sinks fed with template literals or concatenation
      assert.doesNotMatch(js, /\.(inner|outer)HTML\s*\+?=\s*[^;\n]*(`|\+)/, `${file}: innerHTML built from data`);
      assert.doesNotMatch(js, /insertAdjacentHTML|document\.write|\beval\(|new Function\(|createContextualFragment/, `${file}: markup or code sink`);
      assert.doesNotMatch(js, /\son[a-z]+=["']/, `${file}: inline handler in a string`);
      // replaceChildren prints null as the text "null": content goes through set(), which skips it
      assert.doesNotMatch(js, /\.replaceChildren\((?!\))/, `${file}: replaceChildren with content`);
    }
  });

  it('links its modules: every named import exists as an export of a web module', () => {
    const exportsOf = new Map<string, Set<string>>();
    for (const file of webFiles('.js')) {
      const names = new Set<string>();
      for (const m of source(file).matchAll(/export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]!);
      exportsOf.set(file, names);
    }
    let imports = 0;
    for (const file of webFiles('.js')) {
      for (const m of source(file).matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/([\w-]+\.js)'/g)) {
        const target = exportsOf.get(m[2]!);
        assert.ok(target, `${file} imports a missing module ${m[2]}`);
        for (const raw of m[1]!.split(',')) {
          const name = raw.trim().split(/\s+as\s+/)[0]!;
          if (!name) continue;
          imports++;
          assert.ok(target.has(name), `${file} imports ${name}, which ${m[2]} does not export`);
        }
      }
      assert.doesNotMatch(source(file), /from\s*'(?!\.\/)/, `${file}: only local modules (no external requests)`);
    }
    assert.ok(imports > 20);
  });
});

interface ApiModule {
  api(path: string, opts?: Record<string, unknown>): Promise<unknown>;
  signIn(path: string, body?: unknown): Promise<{ user: { id: number } }>;
  signOut(): Promise<void>;
  getTokens(): { access_token: string; refresh_token: string } | null;
  setTokens(pair: { access_token: string; refresh_token: string }): void;
  onSignedOut(fn: (message?: string) => void): void;
  query(params: Record<string, unknown>): string;
  ApiError: new (status: number, body: unknown) => Error & { status: number; code: number };
}

describe('web client API wrapper (against the real server)', () => {
  let t: TestApp;
  let client: ApiModule;
  const store = new Map<string, string>();
  const calls: { method: string; url: string; auth: string | undefined }[] = [];
  let refreshGate: Promise<void> | null = null;
  let signedOut = 0;
  const originalFetch = globalThis.fetch;

  before(async () => {
    t = await build();
    // A browser-like localStorage: Object.keys() lists the stored keys, as the client relies on.
    const methods = {
      getItem: (k: string) => (store.has(k) ? store.get(k)! : null),
      setItem: (k: string, v: string) => void store.set(k, String(v)),
      removeItem: (k: string) => void store.delete(k),
    };
    const storage = new Proxy(
      {},
      {
        get: (_o, p) => methods[p as keyof typeof methods],
        ownKeys: () => [...store.keys()],
        getOwnPropertyDescriptor: (_o, p) => (store.has(String(p)) ? { enumerable: true, configurable: true, value: store.get(String(p)) } : undefined),
      },
    );
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: storage });
    globalThis.fetch = (async (input: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) => {
      const headers = init.headers ?? {};
      calls.push({ method: init.method ?? 'GET', url: input, auth: headers.Authorization });
      if (input === '/api/auth/refresh' && refreshGate) await refreshGate;
      const res = await t.anon.request((init.method ?? 'GET') as 'GET', input, init.body, { headers });
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out[k] = v;
      return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers: out });
    }) as typeof fetch;
    client = (await import(pathToFileURL(path.join(webRoot, 'api.js')).href)) as ApiModule;
    client.onSignedOut(() => signedOut++);
  });
  after(async () => {
    globalThis.fetch = originalFetch;
    await t.close();
  });

  const expiredAccess = (userId: number) =>
    new SignJWT({ typ: 'access', role: 'user' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setJti('expired')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7300)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 100)
      .sign(new TextEncoder().encode(TEST_SECRET));

  it('builds query strings without empty values and with comma lists', () => {
    assert.equal(client.query({ a: 1, b: '', c: null, d: [3, 4], e: [], f: 'x y' }), '?a=1&d=3%2C4&f=x+y');
    assert.equal(client.query({}), '');
  });

  it('signs in with the demo and sends the bearer token', async () => {
    const res = await client.signIn('/api/auth/demo-login');
    assert.ok(res.user.id > 0);
    const tokens = client.getTokens()!;
    assert.ok(tokens.access_token && tokens.refresh_token);
    const me = (await client.api('/api/me')) as { id: number };
    assert.equal(me.id, res.user.id);
    assert.equal(calls.at(-1)!.auth, `Bearer ${tokens.access_token}`);
  });

  it('surfaces the server error code and message', async () => {
    await assert.rejects(client.api('/api/unknown'), (err: Error & { status: number; code: number }) => {
      assert.equal(err.status, 404);
      assert.equal(err.code, 40401);
      assert.ok(err.message.length > 0);
      return true;
    });
  });

  it('refreshes once for concurrent 40101 answers, queues requests meanwhile and replays them', async () => {
    const me = (await client.api('/api/me')) as { id: number };
    const before = client.getTokens()!;
    const stale = await expiredAccess(me.id);
    client.setTokens({ access_token: stale, refresh_token: before.refresh_token });
    calls.length = 0;
    let open!: () => void;
    refreshGate = new Promise<void>((resolve) => (open = resolve));
    const first = client.api('/api/me');
    const second = client.api('/api/me');
    // wait until the refresh is in flight, then start a third request: it must wait for it
    for (let i = 0; i < 200 && !calls.some((c) => c.url === '/api/auth/refresh'); i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(calls.some((c) => c.url === '/api/auth/refresh'), 'a refresh started');
    const third = client.api('/api/me');
    await new Promise((r) => setTimeout(r, 30));
    open();
    const results = (await Promise.all([first, second, third])) as { id: number }[];
    refreshGate = null;
    assert.deepEqual(results.map((r) => r.id), [me.id, me.id, me.id]);
    assert.equal(calls.filter((c) => c.url === '/api/auth/refresh').length, 1);
    const fresh = client.getTokens()!;
    assert.notEqual(fresh.access_token, stale);
    assert.notEqual(fresh.refresh_token, before.refresh_token);
    const meCalls = calls.filter((c) => c.url === '/api/me');
    assert.equal(meCalls.filter((c) => c.auth === `Bearer ${stale}`).length, 2, 'only the two early requests used the stale token');
    assert.equal(meCalls.filter((c) => c.auth === `Bearer ${fresh.access_token}`).length, 3);
    assert.equal(signedOut, 0);
  });

  it('clears the local session and signs out when the refresh is refused', async () => {
    const me = (await client.api('/api/me')) as { id: number };
    store.set('ledger.group', '7');
    client.setTokens({ access_token: await expiredAccess(me.id), refresh_token: 'not-a-refresh-token' });
    await assert.rejects(client.api('/api/me'), (err: Error & { status: number }) => err.status === 401);
    assert.equal(client.getTokens(), null);
    assert.equal(store.size, 0, 'every ledger.* key is removed');
    assert.equal(signedOut, 1);
    await assert.rejects(client.api('/api/me'), (err: Error & { status: number }) => err.status === 401);
  });

  it('logs out by revoking the refresh token family', async () => {
    await client.signIn('/api/auth/demo-login');
    const { refresh_token } = client.getTokens()!;
    await client.signOut();
    assert.equal(client.getTokens(), null);
    const reuse = await t.anon.post('/api/auth/refresh', { refresh_token });
    assert.equal(reuse.statusCode, 401);
    assert.equal(reuse.json().code, 40102);
  });
});
