// Start-up time of the embedded default to the first healthy answer, and req/s of an
// authenticated GET /api/me beside a bare route that does no database work (one server, one run).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cannon, startBenchServer, summary } from './lib.ts';

async function startupMs(dataDir: string, port: number): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - t0;
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
  return Math.round(ms);
}

export async function run() {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
  const cold = await startupMs(dir, 39181);
  const warm = await startupMs(dir, 39182);
  rmSync(dir, { recursive: true, force: true });

  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-me-'));
  const server = await startBenchServer({
    DATA_DIR: dataDir,
    PORT: '39183',
    DATABASE_URL: process.env.BENCH_ME_DATABASE_URL ?? '',
  });
  const headers = { authorization: `Bearer ${server.token}` };
  await cannon({ url: `http://127.0.0.1:${server.port}/api/bench/bare`, duration: 3 });
  const bare = await cannon({ url: `http://127.0.0.1:${server.port}/api/bench/bare` });
  const me = await cannon({ url: `http://127.0.0.1:${server.port}/api/me`, headers });
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  const rows = [summary('GET /api/bench/bare (no database)', bare), summary('GET /api/me (authenticated)', me)];
  return {
    'start-up to first healthy answer, embedded database, fresh data folder (ms)': cold,
    'start-up to first healthy answer, embedded database, existing data folder (ms)': warm,
    requests: rows,
    'me / bare': Math.round((me.requests.average / bare.requests.average) * 100) / 100,
  };
}
