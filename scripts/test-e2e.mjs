// Browser tests: builds the web client when stale, then runs test/e2e/*.e2e.ts one file at a time
// (E2E_CONCURRENCY at a time) in Debian's Chromium against the real server. Fails when no test ran.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureWebBuild } from './build-web.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`${chromium} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  process.exit(1);
}
await ensureWebBuild();
const only = process.argv.slice(2);
const files = only.length
  ? only
  : readdirSync('test/e2e')
      .filter((f) => f.endsWith('.e2e.ts'))
      .sort()
      .map((f) => path.join('test/e2e', f));
// A file whose tests are done exits even if something still listens (a server that failed to start
// leaves its stand-ins open: without this the run would wait forever), and no test may hang CI.
const timeout = process.env.TEST_TIMEOUT_MS ?? '300000';
// E2E_CONCURRENCY files at a time (default 1): each has its own port, data folder and browser
const concurrency = Math.max(1, Number(process.env.E2E_CONCURRENCY ?? '1') || 1);
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-force-exit',
    '--test-reporter=spec',
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${timeout}`,
    ...files,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-4000);
});
child.on('close', (code) => {
  const m = /ℹ tests (\d+)/.exec(tail);
  if (code === 0 && (!m || Number(m[1]) === 0)) {
    console.error('the browser tests ran no test');
    process.exit(1);
  }
  process.exit(code ?? 1);
});
