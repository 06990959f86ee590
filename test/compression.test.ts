// Answers go out compressed when the client accepts it: JSON compressed per answer, the web
// client's files compressed once at build time and sent as they are.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { webRoot } from '../src/plugins/web.ts';
import { build, createUser, type Client, type TestApp } from './helpers/index.ts';
// @ts-expect-error: a plain ES module script without type declarations
import { ensureWebBuild } from '../scripts/build-web.mjs';

describe('compressed answers', () => {
  let t: TestApp;
  let me: Client;
  before(async () => {
    await (ensureWebBuild as () => Promise<boolean>)();
    t = await build();
    me = t.as(await createUser(t.db, { nickname: 'Zip' }));
  });
  after(async () => t.close());

  const raw = (res: { rawPayload: Buffer }) => res.rawPayload;

  it('sends JSON in brotli or gzip as the client asks, the same document once unpacked', async () => {
    const plain = await t.anon.get('/api/openapi.json');
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    const doc = plain.json();
    assert.ok(plain.rawPayload.length > 50_000, `the document is ${plain.rawPayload.length} bytes`);

    const br = await t.anon.get('/api/openapi.json', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.ok(
      raw(br).length * 5 < plain.rawPayload.length,
      `brotli ${raw(br).length} of ${plain.rawPayload.length} bytes`,
    );
    assert.deepEqual(JSON.parse(brotliDecompressSync(raw(br)).toString('utf8')), doc);

    const gz = await t.anon.get('/api/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(raw(gz)).toString('utf8')), doc);
  });

  it("compresses a signed-in user's lists, and leaves answers under 1 KiB as they are", async () => {
    const cats = await me.get('/api/categories', { headers: { 'accept-encoding': 'br' } });
    assert.equal(cats.statusCode, 200);
    const plain = await me.get('/api/categories');
    // a new user's default categories fill more than 1 KiB
    assert.ok(plain.rawPayload.length > 1024, `${plain.rawPayload.length} bytes`);
    assert.equal(cats.headers['content-encoding'], 'br');
    assert.deepEqual(JSON.parse(brotliDecompressSync(raw(cats)).toString('utf8')), plain.json());
    const small = await t.anon.get('/api/health', { headers: { 'accept-encoding': 'br, gzip' } });
    assert.ok(small.rawPayload.length < 1024);
    assert.equal(small.statusCode, 200);
    assert.equal(small.headers['content-encoding'], undefined);
  });

  it('sends errors compressed in the same envelope', async () => {
    const res = await t.anon.get('/api/categories', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.statusCode, 401);
    const body =
      res.headers['content-encoding'] === 'gzip' ? JSON.parse(gunzipSync(raw(res)).toString('utf8')) : res.json();
    assert.equal(body.code, 40101);
  });

  it('does not unpack a compressed request body: it is refused as malformed, never as an internal error', async () => {
    const res = await me.post('/api/tags', gzipSync(JSON.stringify({ name: 'zipped' })), {
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${res.statusCode} ${res.body}`);
    const tags = await me.get('/api/tags');
    assert.ok(!JSON.stringify(tags.json()).includes('zipped'));
  });

  it('serves the web client files compressed at build time, byte for byte the .br and .gz beside them', async () => {
    const assets = readdirSync(path.join(webRoot, 'assets'));
    const scripts = assets.filter((f) => f.endsWith('.js'));
    assert.ok(scripts.length > 0);
    for (const file of scripts) {
      const small = readFileSync(path.join(webRoot, 'assets', file)).length <= 1024;
      assert.equal(
        assets.includes(`${file}.br`) && assets.includes(`${file}.gz`),
        !small,
        `${file}: compressed copies only above 1 KiB`,
      );
    }
    const biggest = scripts
      .map((f) => ({ f, size: readFileSync(path.join(webRoot, 'assets', f)).length }))
      .sort((a, b) => b.size - a.size)[0]!;
    const original = readFileSync(path.join(webRoot, 'assets', biggest.f));
    const br = await t.anon.get(`/assets/${biggest.f}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers['content-type']), /javascript/);
    assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.deepEqual(raw(br), readFileSync(path.join(webRoot, 'assets', `${biggest.f}.br`)));
    assert.deepEqual(brotliDecompressSync(raw(br)), original);
    assert.ok(raw(br).length * 3 < original.length, `${biggest.f}: ${raw(br).length} of ${original.length} bytes`);

    const gz = await t.anon.get(`/assets/${biggest.f}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(raw(gz)), original);

    const plain = await t.anon.get(`/assets/${biggest.f}`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.deepEqual(plain.rawPayload, original);
  });

  it('serves the index page compressed too', async () => {
    const index = readFileSync(path.join(webRoot, 'index.html'));
    for (const url of ['/', '/index.html']) {
      const res = await t.anon.get(url, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      // a file is sent as a stream, compressed whatever its size
      assert.equal(res.headers['content-encoding'], 'gzip', url);
      assert.deepEqual(gunzipSync(raw(res)), index, url);
    }
  });
});
