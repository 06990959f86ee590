// Runs every test file under test/ with Node's test runner (through tsx) and fails when no test
// ran: on Node 20 a glob or a bare --test can silently find nothing and still exit 0.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
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
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-force-exit', '--test-reporter=spec', `--test-concurrency=${concurrency}`, `--test-timeout=${timeout}`, ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, NODE_ENV: 'test', ...(template ? { TEST_PG_TEMPLATE: template } : {}) },
});
// an interrupt stops the test runner first; the template is dropped once it has stopped
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-4000);
});
child.on('close', async (code) => {
  await dropTemplate();
  const m = /ℹ tests (\d+)/.exec(tail);
  if (code === 0 && (!m || Number(m[1]) === 0)) {
    console.error('the test runner ran no test');
    process.exit(1);
  }
  process.exit(code ?? 1);
});
