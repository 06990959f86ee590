import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { build, createAdmin, createUser, REDIS_URL, redisAnswers, type TestApp } from './helpers/index.ts';

describe('user changes across processes through Redis', () => {
  let a: TestApp | null = null;
  let b: TestApp | null = null;
  let available = false;

  before(async () => {
    available = await redisAnswers();
    if (!available) return;
    // a long cache lifetime: only the published invalidation can make the second process notice
    const shared = {
      redisUrl: REDIS_URL,
      authCacheTtlMs: 10 * 60_000,
      rateLimit: {
        enabled: false,
        global: 600,
        auth: 30,
        demo: 5,
        namespace: `test-${randomBytes(6).toString('hex')}`,
      },
    };
    a = await build(shared);
    b = await build(shared, { database: a.testDb });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('a soft delete made through one process is refused at once by the other', async (ctx) => {
    if (!available || !a || !b) {
      ctx.skip(`no Redis at ${REDIS_URL}`);
      return;
    }
    const user = await createUser(a.db, { nickname: 'Leaving' });
    const admin = await createAdmin(a.db);
    const onB = b.as(user);
    assert.equal((await onB.get('/api/me')).statusCode, 200);
    const del = await a.as(admin).delete(`/api/admin/users/${user.id}`, { confirmName: 'Leaving' });
    assert.equal(del.statusCode, 204, del.body);
    let code = 0;
    for (let i = 0; i < 50 && code !== 40104; i++) {
      await new Promise((r) => setTimeout(r, 20));
      code = (await onB.get('/api/me')).json().code ?? 0;
    }
    assert.equal(code, 40104);
  });
});
