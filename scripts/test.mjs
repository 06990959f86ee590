// Runs every test file under test/ with Node's test runner (through tsx) and fails when no test
// ran: on Node 20 a glob or a bare --test can silently find nothing and still exit 0.
//
// The suite runs on the embedded database, or on PostgreSQL when TEST_DATABASE_URL names a server.
// `--both` (with TEST_DATABASE_URL) runs it on both at once, from one queue of worker processes,
// so that the cores stay busy until the last file of either is done.
import { spawn, spawnSync } from 'node:child_process';
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
    } else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

const args = process.argv.slice(2);
const both = args.includes('--both');
// arguments: test files, or folders to search, every test file in them (`node scripts/test.mjs test/unit`)
const only = args
  .filter((a) => a !== '--both')
  .flatMap((arg) => (statSync(arg).isDirectory() ? findTests(arg, true) : [arg]));
const files = only.length ? only : findTests('test');
if (!files.length) {
  console.error('no test files found under test/');
  process.exit(1);
}
const posix = (f) => path.relative('.', f).split(path.sep).join('/');

// Files that never use the suite's database (pure functions, the linter, processes on an embedded
// folder of their own, PostgreSQL through a database they make themselves): they prove the same on
// either suite, so the whole suite on PostgreSQL leaves them to the embedded one. Named, they run.
const DATABASE_FREE_DIRS = ['test/unit/'];
const DATABASE_FREE = new Set([
  'test/books-writer-lint.test.ts',
  'test/datadir-lock.test.ts',
  'test/server.test.ts',
  'test/cli.test.ts',
  'test/cli-user-create.test.ts',
  'test/storage-faults.test.ts',
]);
const databaseFree = (f) => DATABASE_FREE.has(posix(f)) || DATABASE_FREE_DIRS.some((d) => posix(f).startsWith(d));

// Files that change process-wide state (environment, signal handlers, child servers) or hang hooks
// on the root test run in a process of their own even in shared mode.
const ISOLATED = new Set(['test/datadir-lock.test.ts', 'test/server.test.ts', 'test/identity.test.ts']);

const pgServer = process.env.TEST_DATABASE_URL || null;
if (both && !pgServer) {
  console.error('--both needs TEST_DATABASE_URL (the PostgreSQL server of the second suite)');
  process.exit(1);
}
const workers = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? '2') || 2);
// no test may hang CI: one that runs longer than this fails (TEST_TIMEOUT_MS to change it)
const timeout = Number(process.env.TEST_TIMEOUT_MS ?? '300000');
// On PostgreSQL every test database is a copy of one migrated template of this run (see
// test/helpers/db.ts), made by the first file that needs it and dropped here at the end.
const template =
  pgServer && !process.env.TEST_PG_TEMPLATE ? `ledger_tpl_${process.pid}_${randomBytes(4).toString('hex')}` : null;
async function dropTemplate() {
  if (!template) return;
  const c = new pg.Client({ connectionString: pgServer });
  try {
    await c.connect();
    await c.query(`alter database "${template}" with is_template false`).catch(() => {});
    await c.query(`drop database if exists "${template}" with (force)`);
  } catch (err) {
    if (!/does not exist/.test(err.message))
      console.error(`could not drop the template database ${template}: ${err.message}`);
  } finally {
    await c.end().catch(() => {});
  }
}

// TEST_PROFILE=<file>: each file's wall and CPU time (its worker's, and its child processes') go
// to that file, and a table of them, costliest first, is printed at the end (shared mode only)
const profile = process.env.TEST_PROFILE ? path.resolve(process.env.TEST_PROFILE) : null;
if (profile) rmSync(profile, { force: true });

const baseEnv = { ...process.env, NODE_ENV: 'test', ...(profile ? { TEST_PROFILE: profile } : {}) };
delete baseEnv.TEST_DATABASE_URL;
/** the suites to run: the embedded one, the PostgreSQL one, or both */
const suites = [];
if (!pgServer || both) suites.push({ name: 'embedded', env: baseEnv, files });
if (pgServer) {
  // the whole suite on PostgreSQL (or both suites) leave the files that do not use its database to
  // the embedded one
  const own = only.length && !both ? files : files.filter((f) => !databaseFree(f));
  if (own.length < files.length)
    console.log(
      `${files.length - own.length} files that do not use the suite's database run on the embedded suite only`,
    );
  suites.push({
    name: 'PostgreSQL',
    env: { ...baseEnv, TEST_DATABASE_URL: pgServer, TEST_PG_TEMPLATE: process.env.TEST_PG_TEMPLATE ?? template },
    files: own,
  });
}

const base = (limit = timeout) => [
  '--import',
  'tsx',
  '--test',
  '--test-force-exit',
  '--test-reporter=spec',
  `--test-timeout=${limit}`,
];
const running = new Set();
// an interrupt stops the test runners first; the template is dropped once they have stopped
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const c of running) c.kill(signal);
  });

/** Runs node with these arguments; resolves with its exit code and the tail of its output. */
function run(job, { buffered }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, job.args, { stdio: ['ignore', 'pipe', 'inherit'], env: job.env });
    running.add(child);
    let out = job.title ? `\n== ${job.title}\n` : '';
    let tail = '';
    child.stdout.on('data', (chunk) => {
      if (buffered) out += chunk;
      else process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    });
    child.on('close', (code) => {
      running.delete(child);
      if (buffered) process.stdout.write(out);
      resolve({ suite: job.suite, code: code ?? 1, tail });
    });
  });
}

// a migration added since the install: the embedded template is built first, once, rather than
// every embedded test database running initdb and the migrations on its own
if (suites.some((s) => s.name === 'embedded'))
  spawnSync(process.execPath, ['scripts/db-template.mjs', '--if-missing'], { stdio: 'inherit' });

const count = (tail, what) => Number(new RegExp(`ℹ ${what} (\\d+)`).exec(tail)?.[1] ?? 0);
const started = Date.now();
const made = [];
let results;
if (process.env.TEST_ISOLATE === '1') {
  // one process per test file, as many at once as TEST_CONCURRENCY (suite after suite)
  results = [];
  for (const suite of suites) {
    results.push(
      await run(
        { suite: suite.name, env: suite.env, args: [...base(), `--test-concurrency=${workers}`, ...suite.files] },
        { buffered: false },
      ),
    );
  }
} else {
  // Shared mode: each suite's files are spread over shares, each imported by one worker process
  // through a generated entry, so that module loading, schema compilation and the like are paid
  // once per worker instead of once per file. Shares are balanced by file size. TEST_CONCURRENCY
  // workers take the shares of all suites from one queue, the largest first; with both suites,
  // each has more shares than workers, so that the last ones end close together.
  const dir = path.resolve('node_modules/.cache/ledger');
  mkdirSync(dir, { recursive: true });
  const url = (f) => JSON.stringify(pathToFileURL(path.resolve(f)).href);
  // TEST_PROFILE: a mark module before the first file and after each (see scripts/test-profile.mjs)
  const markModule = (name, call) => {
    const file = path.join(dir, `test-mark-${process.pid}-${made.length}.mjs`);
    writeFileSync(
      file,
      `import { ${call} } from ${url('scripts/test-profile.mjs')};\n${call}(${JSON.stringify(name)});\n`,
    );
    made.push(file);
    return `import ${url(file)};\n`;
  };
  const jobs = [];
  const entryJob = (suite, name, list) => {
    const entry = path.join(dir, `test-shard-${process.pid}-${made.length}.mts`);
    const lines = [...list]
      .sort()
      .map((f) => `import ${url(f)};\n${profile ? markModule(`${suite.name}: ${posix(f)}`, 'mark') : ''}`);
    writeFileSync(entry, (profile ? markModule(`${suite.name}: ${name}`, 'start') : '') + lines.join(''));
    made.push(entry);
    // the runner sees a share as one test: it gets the time its files would have had
    // a file costs about as much as its size, and half as much again on the embedded database
    const weight = list.reduce((n, f) => n + statSync(f).size, 0) * (suite.name === 'embedded' ? 1.5 : 1);
    jobs.push({
      suite: suite.name,
      env: suite.env,
      title: `${suite.name}: ${name} (${list.length} files)`,
      weight,
      args: [...base(timeout * list.length), entry],
    });
  };
  const sharesPerSuite = Number(process.env.TEST_SHARES ?? (suites.length > 1 ? workers + 1 : workers));
  for (const suite of suites) {
    const alone = suite.files.filter((f) => ISOLATED.has(posix(f)));
    const shared = suite.files
      .filter((f) => !ISOLATED.has(posix(f)))
      .map((f) => ({ f, size: statSync(f).size }))
      .sort((a, b) => b.size - a.size);
    const shares = Array.from({ length: Math.min(sharesPerSuite, shared.length) }, () => ({ size: 0, files: [] }));
    for (const { f, size } of shared) {
      const least = shares.reduce((a, b) => (b.size < a.size ? b : a));
      least.files.push(f);
      least.size += size;
    }
    shares.forEach((share, i) => entryJob(suite, `share ${i + 1} of ${shares.length}`, share.files));
    // profiled, each file that needs a process of its own gets one through an entry with its marks
    if (alone.length && profile) for (const f of alone) entryJob(suite, posix(f), [f]);
    else if (alone.length) {
      // first in the queue: these mostly wait on the processes they start (servers, locks), so they
      // run beside the shares' work instead of being the run's last minutes with a core left idle
      jobs.push({
        suite: suite.name,
        env: suite.env,
        title: `${suite.name}: ${alone.length} files in processes of their own`,
        weight: Number.MAX_SAFE_INTEGER,
        args: [...base(), '--test-concurrency=1', ...alone],
      });
    }
  }
  jobs.sort((a, b) => b.weight - a.weight);
  const buffered = jobs.length > 1;
  results = [];
  await Promise.all(
    Array.from({ length: Math.min(workers, jobs.length) }, async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) results.push(await run(job, { buffered }));
    }),
  );
}
for (const file of made) rmSync(file, { force: true });
await dropTemplate();

if (profile && existsSync(profile)) {
  const rows = readFileSync(profile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map(([file, wall, cpu, children]) => ({ file, wall: Number(wall), cpu: Number(cpu), children: Number(children) }))
    .sort((a, b) => b.cpu + b.children - (a.cpu + a.children));
  const sum = (k) => rows.reduce((n, r) => n + r[k], 0).toFixed(1);
  console.log(`\nprofile (${profile}): seconds of wall time, CPU of the worker, CPU of its child processes`);
  for (const r of rows)
    console.log(
      `${r.wall.toFixed(1).padStart(7)} ${r.cpu.toFixed(1).padStart(7)} ${r.children.toFixed(1).padStart(7)}  ${r.file}`,
    );
  console.log(`${sum('wall').padStart(7)} ${sum('cpu').padStart(7)} ${sum('children').padStart(7)}  total`);
}

const KEYS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const totals = (list) => Object.fromEntries(KEYS.map((k) => [k, list.reduce((n, r) => n + count(r.tail, k), 0)]));
const total = totals(results);
const failed = results.some((r) => r.code !== 0);
if (results.length > 1) {
  console.log(`\nall ${results.length} test processes:`);
  for (const suite of suites) {
    const mine = results.filter((r) => r.suite === suite.name);
    const t = totals(mine);
    console.log(
      `  ${suite.name}: ${mine.length} processes, ${KEYS.map((k) => `${k} ${t[k]}`).join(', ')}${mine.some((r) => r.code !== 0) ? ' (FAILED)' : ''}`,
    );
  }
  // the same lines as one process's summary, for whoever reads the last lines
  for (const k of KEYS) console.log(`ℹ ${k} ${total[k]}`);
  console.log(`ℹ duration_ms ${Date.now() - started}`);
}
if (!failed && total.tests === 0) {
  console.error('the test runner ran no test');
  process.exit(1);
}
process.exit(failed ? 1 : 0);
