// TEST_PROFILE=<file>: scripts/test.mjs puts one of these marks after each test file a worker
// imports. A mark is a test of its own that runs once the file's tests are done (a worker runs its
// top-level tests one after another), and writes the file's wall time, the worker's CPU time and
// the CPU time of the child processes it waited for since the previous mark.
import { appendFileSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const out = process.env.TEST_PROFILE;
const TICKS = 100; // USER_HZ: /proc reports CPU times of children in hundredths of a second on Linux

/** CPU seconds of this process, and of its children waited for (from /proc, 0 elsewhere) */
function now() {
  const u = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    // not Linux
  }
  return { wall: performance.now() / 1000, cpu: (u.user + u.system) / 1e6, children };
}

let last = { wall: 0, cpu: 0, children: 0 };
function write(name, from, to) {
  appendFileSync(
    out,
    `${name}\t${(to.wall - from.wall).toFixed(2)}\t${(to.cpu - from.cpu).toFixed(2)}\t${(to.children - from.children).toFixed(2)}\n`,
  );
}

/** the mark before a worker's first file: what loading the files cost, from the process start */
export function start(worker) {
  test('profile mark', () => {
    const t = now();
    write(`(${worker}: loading)`, { wall: 0, cpu: 0, children: 0 }, t);
    last = now();
  });
}

/** the mark after `file`: what its tests cost */
export function mark(file) {
  test('profile mark', () => {
    const t = now();
    write(file, last, t);
    last = now();
  });
}
