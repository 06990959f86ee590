import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface BenchServer {
  port: number;
  token: string;
  userId: number;
  child: ChildProcess;
  stop(): Promise<void>;
  /** resident set size of the server process in MB */
  rssMb(): number;
}

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}


export async function startBenchServer(env: Record<string, string>, script = 'bench/server.ts'): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise<{ port: number; token: string; userId: number }>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      const m = /READY (.*)\n/.exec(buf);
      if (m) resolve(JSON.parse(m[1]!));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    ...ready,
    child,
    rssMb: () => rssOf(child.pid!),
    async stop() {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ duration: 10, connections: 50, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

export function summary(name: string, r: autocannon.Result) {
  return {
    name,
    rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
