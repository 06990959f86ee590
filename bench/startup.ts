// Embedded start-up: from spawning the server with a fresh data folder to its first healthy
// answer, the compiled server (npm run build) when present. Limit: 3 s. The fresh database starts
// from the installation's migrated template (npm run db:template), so neither initdb nor the
// migrations run at start-up.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median } from './lib.ts';

const LIMIT_MS = 3000;
const PORT = Number(process.env.BENCH_STARTUP_PORT ?? 3390);

async function once(): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-startup-'));
  const compiled = existsSync('dist/server.js');
  const started = performance.now();
  const child = spawn(process.execPath, compiled ? ['dist/server.js'] : ['--import', 'tsx', 'src/server.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      JWT_SECRET: 'startup-benchmark-secret-0123456789abcdef',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error('no healthy answer within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run() {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) runs.push(await once());
  const ms = Math.round(median(runs));
  return {
    embedded_fresh_start_to_healthy: {
      median_ms: ms,
      runs_ms: runs.map(Math.round),
      limit_ms: LIMIT_MS,
      'ms / limit': Math.round((ms / LIMIT_MS) * 100) / 100,
      runtime: existsSync('dist/server.js') ? 'dist/server.js' : 'tsx src/server.ts',
    },
  };
}
