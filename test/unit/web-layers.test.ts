// The web client's layer rules (scripts/check-web-layers.mjs, run by npm run lint): components never
// talk to the API themselves, and features use each other through their face (index.ts) only.
// Planted files show what it refuses and what it lets through.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Writes the files (a .vue file's body goes in its script) into a fresh folder and checks it. */
function check(components: Record<string, string>): { status: number | null; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-layers-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(components)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    const text = name.endsWith('.vue')
      ? `<script setup lang="ts">\n${body}\n</script>\n<template><p /></template>\n`
      : `${body}\n`;
    writeFileSync(path.join(dir, name), text);
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
    for (const expected of [
      'A.vue:2: imports client',
      'A.vue:2: imports ok',
      'B.vue:2: calls fetch',
      'App.vue:2: imports openapi-fetch',
      'C.vue:2: imports authedFetch',
    ]) {
      assert.ok(r.out.includes(expected), `${expected} in:\n${r.out}`);
    }
  });

  it("refuses a component importing an api.ts, its own feature's or another's, directly or through a face", () => {
    const r = check({
      'features/x/components/A.vue': `import { saveThing } from '../api';\nimport type { Thing } from '../api';`,
      'features/x/components/B.vue': `import { fetchY, useYStore } from '../../y';`,
      'components/C.vue': `import * as api from '../features/y/api';`,
      'features/y/index.ts': `export { fetchY } from './api';\nexport { useYStore } from './store';`,
      'features/y/api.ts': `export const fetchY = () => 1;`,
      'features/y/store.ts': `export const useYStore = () => 1;`,
    });
    assert.equal(r.status, 1);
    for (const expected of [
      'A.vue:2: imports features/x/api.ts',
      'B.vue:2: imports fetchY, an API call of the y face',
      'C.vue:2: imports features/y/api.ts',
    ])
      assert.ok(r.out.includes(expected), `${expected} in:\n${r.out}`);
    assert.ok(!r.out.includes('A.vue:3'), 'a type from api.ts is no call');
    assert.ok(!r.out.includes('useYStore'), r.out);
  });

  it("refuses a feature reaching into another feature's components, store, api.ts or helpers", () => {
    const r = check({
      'features/x/store.ts': `import { fetchY } from '../y/api';\nimport { h } from '../y/helper.ts';\nimport { ok } from '../y';`,
      'features/x/components/D.vue': `import YView from '../../y/components/YView.vue';\nimport { useYStore } from '../../y/store';`,
      'features/x/lazy.ts': `export const load = () => import('../y/components/YView.vue');`,
      'features/y/index.ts': `export const ok = 1;`,
    });
    assert.equal(r.status, 1);
    for (const expected of [
      'store.ts:1: reaches into the y feature (../y/api)',
      'store.ts:2: reaches into the y feature (../y/helper.ts)',
      'D.vue:2: reaches into the y feature (../../y/components/YView.vue)',
      'D.vue:3: reaches into the y feature (../../y/store)',
      'lazy.ts:1: reaches into the y feature (../y/components/YView.vue)',
    ])
      assert.ok(r.out.includes(expected), `${expected} in:\n${r.out}`);
    assert.ok(!r.out.includes('store.ts:3'), 'the face is the way in');
  });

  it('lets a feature use its own files and another feature through its face, and the shell load screens', () => {
    const r = check({
      'features/x/components/E.vue': `import { useXStore } from '../store';\nimport { YCard, useYStore } from '../../y/index.ts';`,
      'features/x/store.ts': `import { fetchX } from './api';\nimport { fetchY } from '../y';\nexport const useXStore = () => fetchX() + fetchY();`,
      'features/y/index.ts': `export { fetchY } from './api';\nexport { default as YCard } from './components/YCard.vue';`,
      'router.ts': `export const routes = [() => import('./features/y/components/YView.vue')];`,
    });
    assert.equal(r.status, 0, r.out);
  });

  it('refuses a .vue line over 120 columns, unless it holds a string', () => {
    const long = `// ${'words '.repeat(25)}`;
    const path = `'M8 11a3 3 0 1 0 0-6 ${'3 3 0 0 0 0 6z '.repeat(8)}'`;
    const r = check({ 'components/Long.vue': `${long}\nconst icon = ${path};` });
    assert.equal(r.status, 1);
    assert.ok(r.out.includes(`Long.vue:2: ${long.length} columns`), r.out);
    assert.ok(!r.out.includes('Long.vue:3'), r.out);
  });
});
