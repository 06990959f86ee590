import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { webRoot } from '../src/plugins/web.ts';
import { build, type TestApp } from './helpers/index.ts';
// @ts-expect-error: a plain ES module script without type declarations
import { ensureWebBuild } from '../scripts/build-web.mjs';
// @ts-expect-error: a plain ES module script without type declarations
import { firstScreenChunks, sizes } from '../scripts/web-sizes.mjs';

describe('web client serving (the built web/dist)', () => {
  let t: TestApp;
  let index: string;
  before(async () => {
    await (ensureWebBuild as () => Promise<boolean>)();
    index = readFileSync(path.join(webRoot, 'index.html'), 'utf8');
    t = await build();
  });
  after(async () => t.close());

  it('answers the HTML shell at / with a module entry from /assets and a strict script policy', async () => {
    const res = await t.anon.get('/');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
    assert.match(res.body, /<div id="app"><\/div>/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
  });

  it('has no inline script, inline handler or javascript: URL in the built page', () => {
    for (const tag of index.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []) {
      assert.match(tag, /^<script\b[^>]*\bsrc="[^"]+"[^>]*><\/script>$/i, `inline script ${tag}`);
    }
    assert.doesNotMatch(index, /<[^>]+\son[a-z]+\s*=/i);
    assert.doesNotMatch(index, /javascript:/i);
  });

  it('serves the hashed assets with their types, cached for a year', async () => {
    const files = readdirSync(path.join(webRoot, 'assets'));
    assert.ok(files.some((f) => f.endsWith('.js')) && files.some((f) => f.endsWith('.css')));
    for (const file of files.filter((f) => /\.(js|css)$/.test(f)).slice(0, 6)) {
      const res = await t.anon.get(`/assets/${file}`);
      assert.equal(res.statusCode, 200, file);
      assert.match(String(res.headers['content-type']), file.endsWith('.js') ? /javascript/ : /^text\/css/, file);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', file);
    }
  });

  it('answers client routes with the index page, and a missing asset with 404', async () => {
    for (const url of ['/books', '/stats?period=year', '/admin/users', '/groups/']) {
      const res = await t.anon.get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      assert.equal(res.body, index, url);
    }
    const missing = await t.anon.get('/assets/index-missing.js');
    assert.equal(missing.statusCode, 404);
    assert.doesNotMatch(String(missing.headers['content-type']), /html/);
  });

  it('serves both web app manifests and the service worker with their types, never cached long', async () => {
    const names: Record<string, string> = {
      '/manifest.webmanifest': 'Ledger',
      '/manifest.zh-CN.webmanifest': '记账本',
    };
    for (const [url, name] of Object.entries(names)) {
      const res = await t.anon.get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^application\/manifest\+json/, url);
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      const m = res.json();
      assert.equal(m.name, name);
      assert.equal(m.display, 'standalone');
      assert.equal(m.start_url, '/books');
      assert.match(m.theme_color, /^#[0-9a-f]{6}$/i);
      const sizes = (m.icons as { sizes: string; purpose: string; src: string }[]).map(
        (i) => `${i.sizes} ${i.purpose}`,
      );
      assert.deepEqual(sizes.sort(), ['192x192 any', '512x512 any', '512x512 maskable']);
      assert.equal(m.shortcuts[0].url, '/books?new=1');
      for (const icon of m.icons as { src: string }[]) {
        const png = await t.anon.get(icon.src);
        assert.equal(png.statusCode, 200, icon.src);
        assert.equal(png.headers['content-type'], 'image/png');
      }
    }
    const sw = await t.anon.get('/sw.js');
    assert.equal(sw.statusCode, 200);
    assert.match(String(sw.headers['content-type']), /javascript/);
    assert.equal(sw.headers['cache-control'], 'no-cache, max-age=0');
    // the app shell and every hashed asset are precached
    assert.match(sw.body, /"url":"index\.html"/);
    for (const file of readdirSync(path.join(webRoot, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .slice(0, 10))
      assert.ok(sw.body.includes(`assets/${file}`), file);
  });

  it('still answers unknown API routes with the JSON 404', async () => {
    for (const url of ['/api/unknown', '/api/books/nothing', '/api']) {
      const res = await t.anon.get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /application\/json/);
      assert.equal(res.json().code, 40401);
    }
    const withToken = await t.withToken('whatever').get('/api/unknown');
    assert.equal(withToken.json().code, 40401);
  });

  it('keeps the first screen within 200 KB of gzipped JavaScript, statistics and administration on demand', () => {
    const { first, lazy } = (sizes as () => { first: { gzip: number }; lazy: { name: string }[] })();
    assert.ok(first.gzip <= 200 * 1024, `first screen: ${first.gzip} bytes gzipped`);
    const files = (firstScreenChunks as () => string[])();
    assert.ok(files.length >= 1);
    assert.ok(!files.some((f) => /StatsView|Admin/.test(f)), files.join(', '));
    assert.ok(lazy.some((c) => c.name.includes('StatsView')));
    assert.ok(lazy.some((c) => c.name.includes('AdminView')));
  });

  it('renders the first screen into the page for the cookie of a sign-in, never for the API, and not after sign-out', async () => {
    const registered = await t.anon.post('/api/auth/register', {
      username: `first_${process.pid}`,
      password: 'correct horse battery staple',
    });
    assert.equal(registered.statusCode, 200);
    const setCookie = String(registered.headers['set-cookie']);
    assert.match(setCookie, /^ledger_page=[\w.-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0]!;
    const { access_token, refresh_token } = registered.json<{ access_token: string; refresh_token: string }>();
    const owner = t.withToken(access_token);
    const cats = (await owner.get('/api/categories', { query: { kind: 'expense' } })).json<{
      list: { id: number }[];
    }>();
    const today = new Date().toISOString().slice(0, 10);
    const made = await owner.post('/api/transactions', {
      kind: 'expense',
      amount: 12,
      category_id: cats.list[0]!.id,
      date: today,
      note: '<img src=x>',
    });
    assert.equal(made.statusCode, 201);

    const page = await t.withHeaders({ cookie, 'accept-language': 'zh-CN' }).get('/books');
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'private, no-store');
    assert.equal((page.body.match(/data-testid="tx-row"/g) ?? []).length, 1);
    assert.ok(page.body.includes('&lt;img src=x&gt;') && !page.body.includes('<img src=x>'), 'the note is escaped');
    assert.match(page.body, /<html lang="zh-CN">/);
    assert.match(page.body, /<div id="app" inert data-first-screen=/);
    for (const tag of page.body.match(/<script\b[^>]*>/gi) ?? [])
      assert.match(tag, /\bsrc="|type="application\/json"/, tag);
    const stats = await t.withHeaders({ cookie }).get('/stats');
    assert.match(stats.body, /data-testid="donut"><svg /);
    // its total in the middle in the page's text colour, right in a dark scheme too
    const texts = stats.body.match(/<text\b[^>]*>/g) ?? [];
    assert.ok(texts.length >= 2, 'the total and the kind in the middle');
    for (const tag of texts) assert.match(tag, /fill="currentColor"/, tag);

    // the device's language cookie wins over Accept-Language
    const chosen = await t
      .withHeaders({ cookie: `${cookie}; ledger_locale=zh-CN`, 'accept-language': 'en' })
      .get('/books');
    assert.match(chosen.body, /<html lang="zh-CN">/);

    // a group cookie naming another person's group shows the owner's own books, nothing of that group
    const other = await t.anon.post('/api/auth/register', {
      username: `second_${process.pid}`,
      password: 'correct horse battery staple',
    });
    const stranger = t.withToken(other.json<{ access_token: string }>().access_token);
    const theirGroup = (await stranger.post('/api/groups', { name: 'Not yours' })).json<{ id: number }>().id;
    const theirCats = (await stranger.get('/api/categories', { query: { kind: 'expense' } })).json<{
      list: { id: number }[];
    }>();
    const theirs = await stranger.post('/api/transactions', {
      kind: 'expense',
      amount: 99,
      category_id: theirCats.list[0]!.id,
      date: today,
      note: 'secret-of-their-group',
      group_id: theirGroup,
    });
    assert.equal(theirs.statusCode, 201);
    const foreign = await t.withHeaders({ cookie: `${cookie}; ledger_group=${theirGroup}` }).get('/books');
    assert.equal((foreign.body.match(/data-testid="tx-row"/g) ?? []).length, 1);
    assert.ok(foreign.body.includes('&lt;img src=x&gt;'));
    assert.ok(
      !foreign.body.includes('secret-of-their-group') && !foreign.body.includes('Not yours'),
      "nothing of the other person's group",
    );

    // the cookie opens no API route; a forged one and none give the plain page
    assert.equal((await t.withHeaders({ cookie }).get('/api/me')).statusCode, 401);
    assert.equal((await t.withHeaders({ cookie: `${cookie}x` }).get('/books')).body, index);
    assert.equal((await t.anon.get('/books')).body, index);

    // the token's refresh sets it again; signing out clears it, and the old one no longer renders
    const refreshed = await t.anon.post('/api/auth/refresh', { refresh_token });
    assert.match(String(refreshed.headers['set-cookie']), /^ledger_page=[\w.-]+;/);
    const out = await t.anon.post('/api/auth/logout', {
      refresh_token: refreshed.json<{ refresh_token: string }>().refresh_token,
    });
    assert.equal(out.statusCode, 204);
    assert.match(String(out.headers['set-cookie']), /^ledger_page=; Path=\/; Max-Age=0;/);
    assert.equal((await t.withHeaders({ cookie }).get('/books')).body, index);
  });

  it('does not serve files outside the build folder', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/../src/config.ts']) {
      const res = await t.anon.get(url);
      assert.ok(!res.body.includes('"dependencies"') && !res.body.includes('loadConfig'), url);
    }
  });
});
