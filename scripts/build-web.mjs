// Builds the web client into web/dist when it is missing or older than its sources. Imported by
// the start script (ensureWebBuild) and runnable on its own: `node scripts/build-web.mjs [--force]`.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const builtIndex = path.join(web, 'dist', 'index.html');
const SOURCES = ['src', 'public', 'index.html', 'package.json', 'vite.config.ts', 'tsconfig.json'];

function newestIn(file) {
  if (!existsSync(file)) return 0;
  const info = statSync(file);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const name of readdirSync(file)) newest = Math.max(newest, newestIn(path.join(file, name)));
  return newest;
}

/** True when web/dist is missing or older than any source file of the client. */
export function webBuildIsStale() {
  if (!existsSync(builtIndex)) return true;
  const built = statSync(builtIndex).mtimeMs;
  return SOURCES.some((name) => newestIn(path.join(web, name)) > built);
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    // a production build whatever the caller runs under (the test runner sets NODE_ENV=test,
    // which would give Vue's development build)
    const child = spawn(command, args, { cwd: web, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** Builds web/dist when it is stale (or always with force); resolves once it is up to date. */
export async function ensureWebBuild({ force = false } = {}) {
  if (!force && !webBuildIsStale()) return false;
  console.log('building the web client (web/dist)…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  await run(process.execPath, [vite, 'build', '--logLevel', 'warn']);
  // the server's renderer of the first screen (src/plugins/first-screen.ts), from the same sources
  await run(process.execPath, [vite, 'build', '--ssr', 'src/entry-server.ts', '--logLevel', 'warn']);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureWebBuild({ force: process.argv.includes('--force') }).catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
