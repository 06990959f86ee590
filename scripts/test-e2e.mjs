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
// E2E_RETRIES=1 (CI): the files with a failing test run once more, one at a time; the first failure stays in
// the output, and a file that then passes is named as flaky at the end (a file failing twice fails)
const retries = Math.max(0, Number(process.env.E2E_RETRIES ?? '0') || 0);

/** Runs these files; resolves with the exit code, the count of tests and the files with a failing test. */
function run(list, filesAtOnce) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-force-exit',
        '--test-reporter=spec',
        `--test-concurrency=${filesAtOnce}`,
        `--test-timeout=${timeout}`,
        ...list,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      out += chunk.toString();
    });
    child.on('close', (code) => {
      const tests = Number(/ℹ tests (\d+)/.exec(out.slice(-4000))?.[1] ?? 0);
      const failing = out.includes('failing tests:')
        ? [
            ...new Set(
              [...out.slice(out.lastIndexOf('failing tests:')).matchAll(/test at (\S+?\.e2e\.ts):/g)].map((m) => m[1]),
            ),
          ]
        : [];
      resolve({ code: code ?? 1, tests, failing });
    });
  });
}

const first = await run(files, concurrency);
if (first.code === 0 && first.tests === 0) {
  console.error('the browser tests ran no test');
  process.exit(1);
}
let code = first.code;
if (code !== 0 && retries > 0 && first.failing.length) {
  const again = first.failing;
  console.log(`\n== run again, one at a time: ${again.join(', ')}`);
  code = (await run(again, 1)).code;
  if (code === 0) console.log(`\n== flaky: ${again.join(', ')} failed once and passed when run again`);
}
process.exit(code);
