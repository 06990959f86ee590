import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parseRateLimits } from '../src/config.ts';
import { build, createUser, REDIS_URL, redisAnswers, type TestApp } from './helpers/index.ts';

describe('rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await build({ rateLimit: { enabled: true, global: 8, auth: 4, demo: 2 } });
  });
  after(() => t.close());

  it('limits /api/auth/* per IP, with 42901 and Retry-After', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.anon.post('/api/auth/refresh', { refresh_token: 'x' });
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        assert.equal(res.json().code, 42901);
        assert.ok(Number(res.headers['retry-after']) > 0);
      }
    }
    assert.deepEqual(codes, [401, 401, 401, 401, 429]);
    // another IP has its own bucket
    const other = await t.anon.post('/api/auth/refresh', { refresh_token: 'x' }, { remoteAddress: '10.9.9.9' });
    assert.equal(other.statusCode, 401);
  });

  it('limits demo login separately', async () => {
    const ip = '10.1.1.1';
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push((await t.anon.post('/api/auth/demo-login', undefined, { remoteAddress: ip })).statusCode);
    assert.deepEqual(codes, [200, 200, 429]);
  });

  it('limits signed-in users per user, not per IP', async () => {
    const a = t.as(await createUser(t.db));
    const b = t.as(await createUser(t.db));
    let last = 0;
    for (let i = 0; i < 9; i++) last = (await a.get('/api/me', { remoteAddress: '10.2.2.2' })).statusCode;
    assert.equal(last, 429);
    assert.equal((await b.get('/api/me', { remoteAddress: '10.2.2.2' })).statusCode, 200);
  });

  it('honours limits and a window configured through the environment', async () => {
    const limits = parseRateLimits({ RATE_LIMIT: '3', RATE_LIMIT_WINDOW_MS: '4000' });
    const configured = await build(
      { rateLimit: { ...limits, namespace: `env-${randomBytes(6).toString('hex')}` } },
      { database: t.testDb },
    );
    try {
      const user = configured.as(await createUser(t.db));
      // sent together, so that they fall in one window even on a busy machine
      const answers = await Promise.all(Array.from({ length: 4 }, () => user.get('/api/me')));
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 200, 200, 429]);
      const limited = answers.find((r) => r.statusCode === 429)!;
      assert.ok(
        Number(limited.headers['retry-after']) <= 4,
        `Retry-After ${limited.headers['retry-after']} follows the window`,
      );
      // the window is 4 s (not the default minute): once it has passed the user is served again
      await new Promise((r) => setTimeout(r, 4200));
      assert.equal((await user.get('/api/me')).statusCode, 200);
    } finally {
      await configured.close();
    }
  });

  it('shares counters between two processes through Redis', async (ctx) => {
    if (!(await redisAnswers())) {
      ctx.skip(`no Redis at ${REDIS_URL}`);
      return;
    }
    const limits = {
      enabled: true,
      global: 100,
      auth: 3,
      demo: 2,
      namespace: `test-${randomBytes(6).toString('hex')}`,
    };
    const one = await build({ redisUrl: REDIS_URL, rateLimit: limits }, { database: t.testDb });
    const two = await build({ redisUrl: REDIS_URL, rateLimit: limits }, { database: t.testDb });
    try {
      const hit = (app: TestApp) =>
        app.anon.post('/api/auth/refresh', { refresh_token: 'x' }, { remoteAddress: '10.3.3.3' });
      const codes = [
        (await hit(one)).statusCode,
        (await hit(two)).statusCode,
        (await hit(one)).statusCode,
        (await hit(two)).statusCode,
      ];
      assert.deepEqual(codes, [401, 401, 401, 429]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
