import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { build, type Client, createUser, multipart, type TestApp } from './helpers/index.ts';

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();

describe('profile and avatars', () => {
  let t: TestApp;
  let me: Client;
  let userId: number;

  before(async () => {
    t = await build();
    const user = await createUser(t.db, { nickname: 'Alice' });
    userId = user.id;
    me = t.as(user);
  });
  after(() => t.close());

  it('reads the profile with every contract field', async () => {
    const res = await me.get('/api/me');
    assert.equal(res.statusCode, 200);
    const p = res.json();
    assert.deepEqual(
      Object.keys(p).sort(),
      [
        'avatar_url',
        'created_at',
        'id',
        'is_demo',
        'nickname',
        'role',
        'slogan',
        'status',
        'timezone',
        'username',
        'auth_methods',
        'last_sign_in_at',
        'failed_sign_ins',
        'base_currency',
        'notify_splits',
      ].sort(),
    );
    assert.equal(p.id, userId);
    assert.equal(p.nickname, 'Alice');
    assert.equal(p.timezone, null);
    assert.match(p.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('edits nickname, slogan, avatar_url and timezone, trimming text', async () => {
    const res = await me.put('/api/me', {
      nickname: '  Alice W  ',
      slogan: 'Saving up',
      avatar_url: 'https://img.example/a.png',
      timezone: 'Asia/Shanghai',
    });
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json();
    assert.equal(p.nickname, 'Alice W');
    assert.equal(p.slogan, 'Saving up');
    assert.equal(p.avatar_url, 'https://img.example/a.png');
    assert.equal(p.timezone, 'Asia/Shanghai');
    const reset = await me.put('/api/me', { timezone: null });
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
      const res = await me.put('/api/me', payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, 40001);
    }
    // 30 characters of CJK text is fine: lengths count characters, not bytes
    const ok = await me.put('/api/me', { nickname: '记'.repeat(30) });
    assert.equal(ok.statusCode, 200);
  });

  it('uploads an avatar, re-encoded without metadata or trailing bytes, served publicly with cache headers', async () => {
    const withExif = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ff0000' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-location-marker' } } })
      .toBuffer();
    const trailing = Buffer.concat([withExif, Buffer.from('<script>alert(1)</script>TRAILER')]);
    const res = await me.post('/api/me/avatar', multipart(trailing, { filename: 'me.jpg', type: 'image/jpeg' }));
    assert.equal(res.statusCode, 200, res.body);
    const url = res.json().avatar_url as string;
    assert.match(url, /^\/api\/avatars\/[a-f0-9]{32}\.jpg$/);
    assert.equal((await me.get('/api/me')).json().avatar_url, url);
    const img = await t.anon.get(url);
    assert.equal(img.statusCode, 200);
    assert.equal(img.headers['content-type'], 'image/jpeg');
    assert.match(String(img.headers['cache-control']), /max-age=\d{6,}/);
    assert.equal(img.headers['x-content-type-options'], 'nosniff');
    assert.ok(!img.rawPayload.includes(Buffer.from('secret-location-marker')));
    assert.ok(!img.rawPayload.includes(Buffer.from('TRAILER')));
    const meta = await sharp(img.rawPayload).metadata();
    assert.equal(meta.width, 64);
    assert.equal(meta.exif, undefined);
    const missing = await t.anon.get('/api/avatars/' + 'a'.repeat(32) + '.png');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 40401);
    const bad = await t.anon.get('/api/avatars/..%2F..%2Fetc%2Fpasswd');
    assert.equal(bad.statusCode, 400);
  });

  it('recognises the type by its bytes: a PNG named .txt is fine, text named .png is 41501', async () => {
    const real = await png(10, 10);
    const ok = await me.post('/api/me/avatar', multipart(real, { filename: 'notes.txt', type: 'text/plain' }));
    assert.equal(ok.statusCode, 200);
    assert.match(ok.json().avatar_url, /\.png$/);
    const fake = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await me.post('/api/me/avatar', multipart(fake, { filename: 'x.png', type: 'image/png' }));
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().code, 41501);
    const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n');
    const res2 = await me.post(
      '/api/me/avatar',
      multipart(pdf, { filename: 'x.gif', type: 'application/octet-stream' }),
    );
    assert.equal(res2.json().code, 41501);
  });

  it('refuses avatars over 2 MiB or over 4096 pixels a side with 41301', async () => {
    const noisy = await sharp(Buffer.from(Array.from({ length: 900 * 900 * 3 }, (_, i) => (i * 2654435761) % 251)), {
      raw: { width: 900, height: 900, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    assert.ok(noisy.length > 2 * 1024 * 1024);
    const big = await me.post(
      '/api/me/avatar',
      multipart(noisy, { filename: 'big.png', type: 'application/octet-stream' }),
    );
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().code, 41301);
    const wide = await png(4097, 8);
    const res = await me.post(
      '/api/me/avatar',
      multipart(wide, { filename: 'wide.png', type: 'application/octet-stream' }),
    );
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 41301);
  });

  it('needs a multipart body with a file field and a signed-in user', async () => {
    const json = await me.post('/api/me/avatar', { file: 'x' });
    assert.equal(json.statusCode, 415);
    const anon = await t.anon.post(
      '/api/me/avatar',
      multipart(await png(4, 4), { filename: 'a.png', type: 'application/octet-stream' }),
    );
    assert.equal(anon.statusCode, 401);
    const res = await me.post(
      '/api/me/avatar',
      multipart(await png(4, 4), { filename: 'a.png', type: 'image/png', field: 'avatar' }),
    );
    assert.equal(res.json().code, 40001);
  });
});
