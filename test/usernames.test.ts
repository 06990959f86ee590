import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { build, type TestApp } from './helpers/index.ts';
import { freshUsername, GOOD_PASSWORD } from './helpers/accounts.ts';

describe('usernames in every script, through the API', () => {
  let t: TestApp;
  const register = (username: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, password: GOOD_PASSWORD } });
  const login = (username: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/password-login', payload: { username, password: GOOD_PASSWORD } });

  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  it('registers 王小明 and signs in with it', async () => {
    const name = `王小明${process.pid % 1000}`.replace(/\d/g, (d) => '零一二三四五六七八九'[Number(d)]!);
    const res = await register(name);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await login(name)).statusCode, 200);
    // taken, whatever the case
    assert.equal((await register(name)).json().code, 40901);
  });

  it('stores the NFKC form: a full-width name signs in typed either way', async () => {
    const plain = freshUsername('wide');
    const wide = [...plain]
      .map((c) => (/[a-z0-9]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
      .join('');
    assert.equal((await register(wide)).statusCode, 200);
    assert.equal((await login(plain)).statusCode, 200);
    assert.equal((await login(wide)).statusCode, 200);
  });

  it('refuses with 40001 on username and a reason a client can name', async () => {
    for (const [name, reason] of [
      ['ab', 'length'],
      ['wang xiaoming', 'characters'],
      ['p\u0430ypal', 'mixed_scripts'],
    ] as const) {
      const res = await register(name);
      assert.equal(res.statusCode, 400, name);
      const body = res.json();
      assert.deepEqual([body.code, body.details?.[0]?.field, body.reason], [40001, 'username', reason], name);
    }
  });

  it("old clients' names still work", async () => {
    const name = freshUsername('plain');
    assert.equal((await register(name)).statusCode, 200);
    assert.equal((await login(name.toUpperCase())).statusCode, 200);
  });
});
