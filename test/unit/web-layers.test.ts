// The web client's layer rule (scripts/check-web-layers.mjs, run by npm run lint): components never
// talk to the API themselves. Planted components show what it refuses and what it lets through.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function check(components: Record<string, string>): { status: number | null; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-layers-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(components)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), `<script setup lang="ts">\n${body}\n</script>\n<template><p /></template>\n`);
  }
  const r = spawnSync(process.execPath, ['scripts/check-web-layers.mjs', dir], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('web layer rule', () => {
  it('passes the web client as it is', () => {
    const r = spawnSync(process.execPath, ['scripts/check-web-layers.mjs'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('lets a component take the error classes and the idempotency key maker, and read a store', () => {
    const r = check({
      'features/x/components/Ok.vue': `import { ClientError, ApiError, idempotencyKey } from '../../../api/client';\nimport { useX } from '../store';`,
      'components/Types.vue': `import type { Tokens } from '../api/client';`,
    });
    assert.equal(r.status, 0, r.out);
  });

  it('refuses a component that imports the client, calls fetch or uses openapi-fetch', () => {
    const r = check({
      'features/x/components/A.vue': `import { client, ok } from '../../../api/client';`,
      'components/B.vue': `const me = await fetch('/api/me');`,
      'App.vue': `import createClient from 'openapi-fetch';`,
      'features/y/components/C.vue': `import { authedFetch as f } from '../../../api/client';`,
    });
    assert.equal(r.status, 1);
    for (const expected of ['A.vue:2: imports client', 'A.vue:2: imports ok', 'B.vue:2: calls fetch', 'App.vue:2: imports openapi-fetch', 'C.vue:2: imports authedFetch']) {
      assert.ok(r.out.includes(expected), `${expected} in:\n${r.out}`);
    }
  });
});
