// Compiles src/ to dist/ with tsc when dist/ is missing or older than the sources. `npm start` and
// `npm run cli` call ensureBuild() first; `npm run build` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestMtime(p) {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

export function isStale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return inputs.some((p) => existsSync(path.join(root, p)) && newestMtime(path.join(root, p)) > built);
}

export function build() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    throw new Error(
      'dist/ is missing or older than src/, and TypeScript is not installed to build it: run `npm install` (with dev ' +
        'dependencies) or `npm run build` where it is',
    );
  }
  // a clean output: files removed from src/ must not linger in dist/
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  const out = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (out.status !== 0) throw new Error('the TypeScript build failed');
  writeFileSync(stamp, new Date().toISOString() + '\n');
}

export function ensureBuild({ quiet = false } = {}) {
  if (!isStale()) return false;
  if (!quiet) console.error('building dist/ from src/ ...');
  build();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    build();
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
