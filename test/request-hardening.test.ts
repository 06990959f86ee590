import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { badTextIn, jsonDepthExceeds } from '../src/lib/text.ts';
import { assertError } from './helpers/assert.ts';
import { build, createTransaction, createUser, loginAs, type UserRow, type TestApp } from './helpers/index.ts';

// the port the app listens on once a test needs a real socket (any free one: the suites on both
// databases may run at the same time)
let port = 0;

/** One raw HTTP/1.1 exchange on a socket: the status line and body as the server wrote them. */
function raw(port: number, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(text);
  });
}

describe('requests built to break the service', () => {
  let t: TestApp;
  let user: UserRow;
  let auth: { authorization: string };
  before(async () => {
    t = await build();
    user = await createUser(t.db);
    auth = await loginAs(t.app, user);
  });
  after(() => t.close());

  it('refuses a JSON body nested 5,000 levels with 40001, before and after sign-in, without walking it recursively', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    assert.equal(jsonDepthExceeds(deep, 32), true);
    assert.equal(
      jsonDepthExceeds('{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 32),
      false,
      'brackets inside strings do not count',
    );
    for (const headers of [{}, auth]) {
      for (const url of ['/api/auth/refresh', '/api/transactions', '/api/track']) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: deep,
        });
        assert.ok(res.statusCode === 400 || res.statusCode === 401, `${url}: ${res.statusCode}`);
        assert.doesNotMatch(res.body, /at \w+ \(|RangeError/);
      }
    }
    assertError(
      await t.app.inject({
        method: 'POST',
        url: '/api/track',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: `{"event_type":"x","data":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`,
      }),
      400,
      40001,
      'deep data',
    );
    // the text walk itself is iterative: a value built in memory deeper than any stack is fine
    let value: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) value = [value];
    assert.deepEqual(badTextIn(value)?.problem, 'must not contain NUL characters');
  });

  it('refuses lone UTF-16 surrogates in every text (jsonb and text columns alike) with 40001', async () => {
    const tx = await createTransaction(t.db, user.id);
    const lone = '"\\ud800"';
    const cases: [string, string, string][] = [
      ['POST', '/api/track', `{"event_type":"x","data":{"k":${lone}}}`],
      ['POST', '/api/track', `{"event_type":"x","data":{${lone}:1}}`],
      ['POST', '/api/filters', `{"name":"f","criteria":{"keyword":${lone}}}`],
      ['POST', '/api/feedback', `{"content":${lone}}`],
      ['PUT', `/api/transactions/${tx.id}`, `{"note":"a\\udc00b"}`],
    ];
    for (const [method, url, payload] of cases) {
      assertError(
        await t.app.inject({
          method: method as 'POST',
          url,
          headers: { ...auth, 'content-type': 'application/json' },
          payload,
        }),
        400,
        40001,
        `${method} ${url}`,
      );
    }
    // a proper pair (an emoji) is fine
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: auth,
      payload: { content: 'ok \ud83d\ude00' },
    });
    assert.equal(ok.statusCode, 201, ok.body);
  });

  it('answers framework errors in the envelope: a bad URL, an over-long path parameter', async () => {
    const bad = await t.app.inject({ url: '/api/transactions/%', headers: auth });
    assertError(bad, 400, 40001, 'bad url');
    assert.equal(bad.json().error, undefined);
    const long = await t.app.inject({ url: `/api/transactions/${'9'.repeat(500)}`, headers: auth });
    assertError(long, 400, 40001, 'long param');
    assert.doesNotMatch(long.body, /FST_/);
  });

  it('answers headers too large (431) and a malformed request in the envelope, on a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const big = await raw(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal(big.status, 431);
    assert.deepEqual(JSON.parse(big.body), { code: 41301, message: 'request headers too large' });
    const broken = await raw(port, 'GARBAGE\r\n\r\n');
    assert.equal(broken.status, 400);
    assert.equal(JSON.parse(broken.body).code, 40001);
  });

  it('takes ids and integer query values only as canonical decimal digits', async () => {
    const tx = await createTransaction(t.db, user.id);
    const id = String(tx.id);
    for (const spelled of [
      `0x${tx.id.toString(16)}`,
      `${id}e0`,
      `+${id}`,
      `0${id}`,
      `${id}.0`,
      `%20${id}`,
      `${id}%20`,
    ]) {
      assertError(await t.app.inject({ url: `/api/transactions/${spelled}`, headers: auth }), 400, 40001, spelled);
    }
    assert.equal((await t.app.inject({ url: `/api/transactions/${id}`, headers: auth })).statusCode, 200);
    for (const q of ['page=0x1', 'page=1e0', 'page=+1', 'page=01', 'page=1.0', 'pageSize=%201']) {
      assertError(await t.app.inject({ url: `/api/transactions?${q}`, headers: auth }), 400, 40001, q);
    }
    assert.equal((await t.app.inject({ url: '/api/transactions?page=1&pageSize=10', headers: auth })).statusCode, 200);
  });

  it('refuses a JSON body in any charset but UTF-8 with 41501', async () => {
    for (const charset of ['utf-16', 'latin1', 'ISO-8859-1', 'utf-16le']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: { ...auth, 'content-type': `application/json; charset=${charset}` },
        payload: '{"content":"x"}',
      });
      assertError(res, 415, 41501, charset);
    }
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'utf8']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: { ...auth, 'content-type': `application/json; charset=${charset}` },
        payload: '{"content":"x"}',
      });
      assert.equal(res.statusCode, 201, `${charset}: ${res.body}`);
    }
  });

  it('refuses a declared 100 MB upload before reading it, and closes the connection', async () => {
    const res = await new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/import',
          headers: {
            ...auth,
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(100 * 1024 * 1024),
          },
        },
        (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode!, body, connection: r.headers.connection }));
        },
      );
      req.on('error', reject);
      req.write('--x\r\n');
    });
    assert.equal(res.status, 413);
    assert.equal(JSON.parse(res.body).code, 41301);
    assert.equal(res.connection, 'close');
  });

  it('counts requests refused by authentication against the client address', async () => {
    const limited = await build({ rateLimit: { enabled: true, global: 5, auth: 30, demo: 5 } }, { database: t.testDb });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 7; i++)
        codes.push(
          (
            await limited.app.inject({
              url: '/api/me',
              headers: { authorization: 'Bearer nope' },
              remoteAddress: '10.7.7.7',
            })
          ).statusCode,
        );
      assert.deepEqual(codes, [401, 401, 401, 401, 401, 429, 429]);
      const res = await limited.app.inject({ url: '/api/me', remoteAddress: '10.7.7.7' });
      assertError(res, 429, 42901, 'no token at all');
      // another address is not affected
      assertError(await limited.app.inject({ url: '/api/me', remoteAddress: '10.7.7.8' }), 401, 40101, 'other address');
    } finally {
      await limited.close();
    }
  });
});
