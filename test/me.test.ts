import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { build, createUser, loginAs, type TestApp } from './helpers/index.ts';

function multipart(filename: string, data: Buffer, contentType = 'application/octet-stream', field = 'file') {
  const boundary = '----ledgertest' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function withFile(auth: Record<string, string>, m: ReturnType<typeof multipart>) {
  return { headers: { ...auth, ...m.headers }, payload: m.payload };
}

const png = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#3366ff' } }).png().toBuffer();

describe('profile and avatars', () => {
  let t: TestApp;
  let headers: { authorization: string };
  let userId: number;

  before(async () => {
    t = await build();
    const user = await createUser(t.db, { nickname: 'Alice' });
    userId = user.id;
    headers = await loginAs(t.app, user);
  });
  after(() => t.close());

  it('reads the profile with every contract field', async () => {
    const res = await t.app.inject({ url: '/api/me', headers });
    assert.equal(res.statusCode, 200);
    const p = res.json();
    assert.deepEqual(Object.keys(p).sort(), ['avatar_url', 'created_at', 'id', 'is_demo', 'nickname', 'role', 'slogan', 'status', 'timezone'].sort());
    assert.equal(p.id, userId);
    assert.equal(p.nickname, 'Alice');
    assert.equal(p.timezone, null);
    assert.match(p.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('edits nickname, slogan, avatar_url and timezone, trimming text', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me',
      headers,
      payload: { nickname: '  Alice W  ', slogan: 'Saving up', avatar_url: 'https://img.example/a.png', timezone: 'Asia/Shanghai' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json();
    assert.equal(p.nickname, 'Alice W');
    assert.equal(p.slogan, 'Saving up');
    assert.equal(p.avatar_url, 'https://img.example/a.png');
    assert.equal(p.timezone, 'Asia/Shanghai');
    const reset = await t.app.inject({ method: 'PUT', url: '/api/me', headers, payload: { timezone: null } });
    assert.equal(reset.json().timezone, null);
  });

  it('refuses bad profile values with 40001', async () => {
    const cases = [
      { nickname: '   ' },
      { nickname: 'n'.repeat(31) },
      { slogan: 's'.repeat(61) },
      { timezone: 'Mars/Olympus' },
      { avatar_url: 'javascript:alert(1)' },
      { avatar_url: '//evil.example/x.png' },
      { avatar_url: 'data:image/png;base64,AAAA' },
    ];
    for (const payload of cases) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/me', headers, payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, 40001);
    }
    // 30 characters of CJK text is fine: lengths count characters, not bytes
    const ok = await t.app.inject({ method: 'PUT', url: '/api/me', headers, payload: { nickname: '记'.repeat(30) } });
    assert.equal(ok.statusCode, 200);
  });

  it('uploads an avatar, re-encoded without metadata or trailing bytes, served publicly with cache headers', async () => {
    const withExif = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ff0000' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-location-marker' } } })
      .toBuffer();
    const trailing = Buffer.concat([withExif, Buffer.from('<script>alert(1)</script>TRAILER')]);
    const res = await t.app.inject({ method: 'POST', url: '/api/me/avatar', ...withFile(headers, multipart('me.jpg', trailing, 'image/jpeg')) });
    assert.equal(res.statusCode, 200, res.body);
    const url = res.json().avatar_url as string;
    assert.match(url, /^\/api\/avatars\/[a-f0-9]{32}\.jpg$/);
    assert.equal((await t.app.inject({ url: '/api/me', headers })).json().avatar_url, url);
    const img = await t.app.inject({ url });
    assert.equal(img.statusCode, 200);
    assert.equal(img.headers['content-type'], 'image/jpeg');
    assert.match(String(img.headers['cache-control']), /max-age=\d{6,}/);
    assert.equal(img.headers['x-content-type-options'], 'nosniff');
    assert.ok(!img.rawPayload.includes(Buffer.from('secret-location-marker')));
    assert.ok(!img.rawPayload.includes(Buffer.from('TRAILER')));
    const meta = await sharp(img.rawPayload).metadata();
    assert.equal(meta.width, 64);
    assert.equal(meta.exif, undefined);
    const missing = await t.app.inject({ url: '/api/avatars/' + 'a'.repeat(32) + '.png' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 40401);
    const bad = await t.app.inject({ url: '/api/avatars/..%2F..%2Fetc%2Fpasswd' });
    assert.equal(bad.statusCode, 400);
  });

  it('recognises the type by its bytes: a PNG named .txt is fine, text named .png is 41501', async () => {
    const real = await png(10, 10);
    const ok = await t.app.inject({ method: 'POST', url: '/api/me/avatar', ...withFile(headers, multipart('notes.txt', real, 'text/plain')) });
    assert.equal(ok.statusCode, 200);
    assert.match(ok.json().avatar_url, /\.png$/);
    const fake = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await t.app.inject({ method: 'POST', url: '/api/me/avatar', ...withFile(headers, multipart('x.png', fake, 'image/png')) });
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().code, 41501);
    const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n');
    const res2 = await t.app.inject({ method: 'POST', url: '/api/me/avatar', ...withFile(headers, multipart('x.gif', pdf)) });
    assert.equal(res2.json().code, 41501);
  });

  it('refuses avatars over 2 MiB or over 4096 pixels a side with 41301', async () => {
    const noisy = await sharp(Buffer.from(Array.from({ length: 900 * 900 * 3 }, (_, i) => (i * 2654435761) % 251)), { raw: { width: 900, height: 900, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    assert.ok(noisy.length > 2 * 1024 * 1024);
    const big = await t.app.inject({ method: 'POST', url: '/api/me/avatar', ...withFile(headers, multipart('big.png', noisy)) });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().code, 41301);
    const wide = await png(4097, 8);
    const res = await t.app.inject({ method: 'POST', url: '/api/me/avatar', ...withFile(headers, multipart('wide.png', wide)) });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 41301);
  });

  it('needs a multipart body with a file field and a signed-in user', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/api/me/avatar', headers, payload: { file: 'x' } });
    assert.equal(json.statusCode, 415);
    const anon = await t.app.inject({ method: 'POST', url: '/api/me/avatar', ...multipart('a.png', await png(4, 4)) });
    assert.equal(anon.statusCode, 401);
    const wrongField = multipart('a.png', await png(4, 4), 'image/png', 'avatar');
    const res = await t.app.inject({ method: 'POST', url: '/api/me/avatar', headers: { ...headers, ...wrongField.headers }, payload: wrongField.payload });
    assert.equal(res.json().code, 40001);
  });
});
