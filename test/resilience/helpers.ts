import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import pg from 'pg';
import { blankPgDatabase, type PgDatabase } from '../helpers/db.ts';
import { entryArgs } from '../helpers/entry.ts';

/** The PostgreSQL server the suite uses for databases of its own (created and dropped per test). */
export { PG_SERVER, pgServerAnswers as pgAnswers } from '../helpers/db.ts';
export type OwnDatabase = PgDatabase;

export const REDIS = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
export const JWT_SECRET = 'resilience-suite-secret-0123456789abcdefghijklmnop';
/** this suite's ports: 3320 to 3399 */
export const BASE_PORT = 3320;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A uniquely named, empty database on the PostgreSQL server; `drop` removes it (connections or not). */
export const createPgDatabase = (prefix: string): Promise<OwnDatabase> => blankPgDatabase(`ledger_${prefix}`);

/** Runs one statement on a database of its own and closes the connection. */
export async function sqlOn<T = Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

/** One HTTP request on a fresh connection; rejects when the connection fails or is cut before the end. */
export function call(port: number, path: string, opts: CallOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('response aborted')));
        res.on('end', () => {
          if (!res.complete) return reject(new Error('response incomplete'));
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) });
        });
      },
    );
    req.setTimeout(opts.timeoutMs ?? 30_000, () =>
      req.destroy(new Error(`no answer to ${path} within ${opts.timeoutMs ?? 30_000} ms`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const jsonBody = (value: unknown, headers: Record<string, string> = {}): CallOptions => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/** A multipart body with one file field. */
export function multipart(
  fileName: string,
  content: Buffer | string,
  headers: Record<string, string> = {},
): CallOptions {
  const boundary = `----ledger${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers }, body };
}

export interface ServerOptions {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}

export interface ServerProcess {
  port: number;
  pid: number;
  child: ChildProcess;
  /** everything the process wrote, stdout and stderr */
  output(): string;
  /** resolves when the process has exited */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** resident memory in bytes (Linux) */
  rss(): number;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Starts the real server (compiled dist/, else `src/server.ts` through tsx) as a child process and waits until
 * /api/health answers 200.
 */
export async function startServer(opts: ServerOptions, waitMs = 60_000): Promise<ServerProcess> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    JWT_SECRET,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...(opts.env ?? {}),
  };
  const child = spawn(process.execPath, entryArgs('server'), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-200_000)));
  child.stderr!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-200_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  const server: ServerProcess = {
    port: opts.port,
    pid: child.pid!,
    child,
    output: () => out,
    exited,
    rss() {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return Number(m?.[1] ?? 0) * 1024;
    },
    kill(signal = 'SIGKILL') {
      if (!gone) child.kill(signal);
    },
  };
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the server exited while starting:\n${out.slice(-4000)}`);
    const res = await call(opts.port, '/api/health', { timeoutMs: 2000 }).catch(() => null);
    if (res?.status === 200) return server;
    await sleep(100);
  }
  server.kill();
  throw new Error(`the server did not become healthy within ${waitMs} ms:\n${out.slice(-4000)}`);
}

/** Stops a server for good (SIGKILL) and waits for it to be gone. */
export async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server) return;
  server.kill('SIGKILL');
  await server.exited;
}

export interface Session {
  auth: { authorization: string };
  userId: number;
  categoryId: number;
}

/** A demo user on a running server, with the id of one of their expense categories. */
export async function demoSession(port: number, ip?: string): Promise<Session> {
  const login = await call(port, '/api/auth/demo-login', {
    method: 'POST',
    headers: ip ? { 'x-forwarded-for': ip } : {},
  });
  if (login.status !== 200) throw new Error(`demo login answered ${login.status} ${login.body}`);
  const { access_token: token, user } = login.json();
  const auth = { authorization: `Bearer ${token}` };
  const cats = (await call(port, '/api/categories?kind=expense', { headers: auth })).json();
  const list = Array.isArray(cats) ? cats : cats.list;
  return { auth, userId: user.id, categoryId: list[0].id };
}
