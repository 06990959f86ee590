// Runs every test file under test/ with Node's test runner (through tsx) and fails when no test
// ran: on Node 20 a glob or a bare --test can silently find nothing and still exit 0.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

// suites that start real server processes: run only when named (npm run test:resilience)
const SEPARATE = new Set(['test/resilience', 'test/e2e']);

function findTests(dir, all = false) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (all || !SEPARATE.has(full.split(path.sep).join('/'))) out.push(...findTests(full, all));
    }
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

// arguments: test files, or folders to search, every test file in them (`node scripts/test.mjs test/unit`)
const only = process.argv.slice(2).flatMap((arg) => (statSync(arg).isDirectory() ? findTests(arg, true) : [arg]));
const files = only.length ? only : findTests('test');
if (!files.length) {
  console.error('no test files found under test/');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// no test may hang CI: one that runs longer than this fails (TEST_TIMEOUT_MS to change it)
const timeout = process.env.TEST_TIMEOUT_MS ?? '300000';
// a file whose tests are all done exits even if a handle (a socket, a timer) would keep it alive
// On PostgreSQL every test database is a copy of one migrated template of this run (see
// test/helpers/db.ts), made by the first file that needs it and dropped here at the end.
const pgServer = process.env.TEST_DATABASE_URL || null;
const template = pgServer && !process.env.TEST_PG_TEMPLATE ? `ledger_tpl_${process.pid}_${randomBytes(4).toString('hex')}` : null;
async function dropTemplate() {
  if (!template) return;
  const c = new pg.Client({ connectionString: pgServer });
  try {
    await c.connect();
    await c.query(`alter database "${template}" with is_template false`).catch(() => {});
    await c.query(`drop database if exists "${template}" with (force)`);
  } catch (err) {
    if (!/does not exist/.test(err.message)) console.error(`could not drop the template database ${template}: ${err.message}`);
  } finally {
    await c.end().catch(() => {});
  }
}
const env = { ...process.env, NODE_ENV: 'test', ...(template ? { TEST_PG_TEMPLATE: template } : {}) };
const base = (limit = timeout) => ['--import', 'tsx', '--test', '--test-force-exit', '--test-reporter=spec', `--test-timeout=${limit}`];
const running = new Set();
// an interrupt stops the test runners first; the template is dropped once they have stopped
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { for (const c of running) c.kill(signal); });

/** Runs node with these arguments; resolves with its exit code and the tail of its output. */
function run(args, { buffered }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
    running.add(child);
    let out = '';
    let tail = '';
    child.stdout.on('data', (chunk) => {
      if (buffered) out += chunk;
      else process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    });
    child.on('close', (code) => {
      running.delete(child);
      if (buffered) process.stdout.write(out);
      resolve({ code: code ?? 1, tail });
    });
  });
}

const count = (tail, what) => Number(new RegExp(`ℹ ${what} (\\d+)`).exec(tail)?.[1] ?? 0);

// Files that change process-wide state (environment, signal handlers, child servers) or hang hooks
// on the root test run in a process of their own even in shared mode.
const ISOLATED = new Set(['test/datadir-lock.test.ts', 'test/server.test.ts', 'test/identity.test.ts']);

// TEST_PROFILE=<file>: each file's wall and CPU time (its worker's, and its child processes') go
// to that file, and a table of them, costliest first, is printed at the end (shared mode only)
const profile = process.env.TEST_PROFILE ? path.resolve(process.env.TEST_PROFILE) : null;
if (profile) {
  rmSync(profile, { force: true });
  env.TEST_PROFILE = profile;
}

let results;
if (process.env.TEST_ISOLATE === '1') {
  // one process per test file, as many at once as TEST_CONCURRENCY
  results = [await run([...base(), `--test-concurrency=${concurrency}`, ...files], { buffered: false })];
} else {
  // Shared mode: the files are spread over TEST_CONCURRENCY worker processes, each importing its
  // share through one generated entry, so that module loading, schema compilation and the like are
  // paid once per worker instead of once per file. Shares are balanced by file size.
  const workers = Math.max(1, Number(concurrency) || 2);
  const rel = (f) => path.relative('.', f).split(path.sep).join('/');
  const alone = files.filter((f) => ISOLATED.has(rel(f)));
  const shared = files.filter((f) => !ISOLATED.has(rel(f)))
    .map((f) => ({ f, size: statSync(f).size }))
    .sort((a, b) => b.size - a.size);
  const shares = Array.from({ length: Math.min(workers, shared.length) }, () => ({ size: 0, files: [] }));
  for (const { f, size } of shared) {
    const least = shares.reduce((a, b) => (b.size < a.size ? b : a));
    least.files.push(f);
    least.size += size;
  }
  const dir = path.resolve('node_modules/.cache/ledger');
  mkdirSync(dir, { recursive: true });
  const made = [];
  const url = (f) => JSON.stringify(pathToFileURL(path.resolve(f)).href);
  // TEST_PROFILE: a mark module before the first file and after each (see scripts/test-profile.mjs)
  const markModule = (name, call) => {
    const file = path.join(dir, `test-mark-${process.pid}-${made.length}.mjs`);
    writeFileSync(file, `import { ${call} } from ${url('scripts/test-profile.mjs')};\n${call}(${JSON.stringify(name)});\n`);
    made.push(file);
    return `import ${url(file)};\n`;
  };
  const entryOf = (name, list) => {
    const entry = path.join(dir, `test-shard-${process.pid}-${made.length}.mts`);
    const lines = list.sort().map((f) => `import ${url(f)};\n${profile ? markModule(rel(f), 'mark') : ''}`);
    writeFileSync(entry, (profile ? markModule(name, 'start') : '') + lines.join(''));
    made.push(entry);
    // the runner sees a worker's share as one test: it gets the time its files would have had
    return { args: [...base(Number(timeout) * list.length), entry] };
  };
  const jobs = shares.map((share, i) => entryOf(`worker ${i + 1}`, share.files));
  // profiled, each file that needs a process of its own gets one through an entry with its marks
  if (alone.length && profile) jobs.push(...alone.map((f) => entryOf(rel(f), [f])));
  else if (alone.length) jobs.push({ args: [...base(), '--test-concurrency=1', ...alone] });
  results = [];
  const queue = [...jobs];
  await Promise.all(Array.from({ length: Math.min(workers, jobs.length) }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      results.push(await run(job.args, { buffered: true }));
    }
  }));
  for (const file of made) rmSync(file, { force: true });
}

await dropTemplate();
if (profile && existsSync(profile)) {
  const rows = readFileSync(profile, 'utf8').trim().split('\n').map((l) => l.split('\t'))
    .map(([file, wall, cpu, children]) => ({ file, wall: Number(wall), cpu: Number(cpu), children: Number(children) }))
    .sort((a, b) => b.cpu + b.children - (a.cpu + a.children));
  const sum = (k) => rows.reduce((n, r) => n + r[k], 0).toFixed(1);
  console.log(`\nprofile (${profile}): seconds of wall time, CPU of the worker, CPU of its child processes`);
  for (const r of rows) console.log(`${r.wall.toFixed(1).padStart(7)} ${r.cpu.toFixed(1).padStart(7)} ${r.children.toFixed(1).padStart(7)}  ${r.file}`);
  console.log(`${sum('wall').padStart(7)} ${sum('cpu').padStart(7)} ${sum('children').padStart(7)}  total`);
}
const total = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
for (const r of results) for (const k of Object.keys(total)) total[k] += count(r.tail, k);
const failed = results.some((r) => r.code !== 0);
if (results.length > 1) {
  console.log(`\nall ${results.length} test processes: ${Object.entries(total).map(([k, v]) => `${k} ${v}`).join(', ')}`);
}
if (!failed && total.tests === 0) {
  console.error('the test runner ran no test');
  process.exit(1);
}
process.exit(failed ? 1 : 0);
