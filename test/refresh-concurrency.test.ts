import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build, onPostgres, type TestApp } from './helpers/index.ts';

describe('concurrent refreshes', () => {
  let t: TestApp;
  let second: TestApp;
  before(async () => {
    t = await build();
    // a second app instance with its own connection pool on the same database, as a second server process would be
    second = await build({}, { database: t.testDb });
  });
  after(async () => {
    await second.close();
    await t.close();
  });

  it(`20 concurrent refreshes with one token give exactly one success${onPostgres ? ' (PostgreSQL, two instances)' : ''}`, async () => {
    const pair = (await t.anon.post('/api/auth/demo-login')).json();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? second : t).anon.post('/api/auth/refresh', { refresh_token: pair.refresh_token }),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    assert.equal(ok.length, 1, results.map((r) => r.statusCode).join(','));
    for (const r of results.filter((x) => x.statusCode !== 200)) assert.equal(r.json().code, 40102);
    // the winner's new token works
    const next = await t.anon.post('/api/auth/refresh', { refresh_token: ok[0]!.json().refresh_token });
    assert.equal(next.statusCode, 200);
  });
});
