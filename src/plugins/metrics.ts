import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { Errors } from '../lib/errors.ts';

/** What an import was: a bill read into a preview, a preview committed, a CSV/JSON file imported (or tried). */
export type ImportKind = 'bill_preview' | 'bill_commit' | 'import' | 'import_dry_run';
/**
 * The file's format: the bill formats, csv/json for the data import; a commit does not read the
 * file again and counts as `bill`; a format not listed here (a new one) as `other`, so that the
 * label keeps a closed set of values.
 */
export type ImportFormat = 'wechat' | 'alipay' | 'ledger' | 'mapped' | 'csv' | 'json' | 'bill' | 'other';
const IMPORT_FORMATS: readonly ImportFormat[] = [
  'wechat',
  'alipay',
  'ledger',
  'mapped',
  'csv',
  'json',
  'bill',
  'other',
];

export interface Metrics {
  /** false: nothing is measured and /metrics is not found */
  readonly enabled: boolean;
  /** this app's own registry (null when off): app instances in one process never share one */
  readonly registry: Registry | null;
  /** a scheduled task ran (failed: it threw) */
  taskRun(task: string, seconds: number, failed: boolean): void;
  /**
   * Starts timing an import once its bytes are in hand (the upload's own transfer time is the
   * client's network, not ours); `done` is called when it succeeded, with the format and rows read.
   */
  importTimer(kind: ImportKind, bytes: number | null): (format: string, rows: number) => void;
  /** METRICS_PORT: starts the listener of its own; answers its address, or null when there is none */
  listen(): Promise<AddressInfo | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** API latencies, 5 ms to 10 s */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** a checkout is immediate, or waits for a free connection up to the 5 s connect timeout */
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const TASK_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];
/** 1 KiB to the 20 MiB upload limit */
const BYTE_BUCKETS = [1024, 10_240, 102_400, 524_288, 1_048_576, 5_242_880, 10_485_760, 20_971_520];
/** up to the 100,000-row limit */
const ROW_BUCKETS = [1, 10, 50, 100, 500, 1000, 5000, 10_000, 50_000, 100_000];
const IMPORT_SECONDS_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** a route label for requests that matched no route, so that a raw path never becomes a label */
export const UNMATCHED_ROUTE = 'unmatched';

/** CSV or JSON, as the import tells them apart: the first visible character of the text. */
export function dataFileFormat(bytes: Uint8Array): 'csv' | 'json' {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x5b || bytes[i] === 0x7b ? 'json' : 'csv';
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1] ?? '';
  // digests of equal length, compared in constant time: the answer's timing says nothing of the token
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}

const disabled: Metrics = {
  enabled: false,
  registry: null,
  taskRun() {},
  importTimer: () => () => {},
  listen: async () => null,
};

interface Instruments {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status_code'>;
  latency: Histogram<'method' | 'route' | 'status_code'>;
  poolWait: Histogram;
  taskRuns: Counter<'task'>;
  taskFailures: Counter<'task'>;
  taskSeconds: Histogram<'task'>;
  importBytes: Histogram<'kind' | 'format'>;
  importRows: Histogram<'kind' | 'format'>;
  importSeconds: Histogram<'kind' | 'format'>;
}

function instruments(database: Database): Instruments {
  const registry = new Registry();
  // event loop lag, heap, RSS, CPU, handles, GC: into this registry only, never the global one
  collectDefaultMetrics({ register: registry });
  poolGauges(registry, database);
  return {
    registry,
    ...httpInstruments(registry),
    ...taskInstruments(registry),
    ...importInstruments(registry),
  };
}

/** The database connections: open, idle, in use, and the statements waiting for one. */
function poolGauges(registry: Registry, database: Database): void {
  const usageGauge = (name: string, help: string, read: (u: ReturnType<Database['usage']>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(database.usage()));
      },
    });
  usageGauge('ledger_db_pool_connections', 'open database connections (the embedded database: 1)', (u) => u.total);
  usageGauge('ledger_db_pool_idle_connections', 'open database connections not in use', (u) => u.idle);
  usageGauge(
    'ledger_db_pool_in_use_connections',
    'database connections running a statement or a transaction',
    (u) => u.inUse,
  );
  usageGauge(
    'ledger_db_pool_waiting',
    'statements and transactions waiting for a database connection',
    (u) => u.waiting,
  );
}

/** The requests answered and their latency, and the wait for a pooled connection. */
function httpInstruments(registry: Registry): Pick<Instruments, 'requests' | 'latency' | 'poolWait'> {
  const registers = [registry];
  const http = ['method', 'route', 'status_code'] as const;
  return {
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route template, method and status',
      labelNames: http,
      registers,
    }),
    latency: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'time to answer an HTTP request, by route template, method and status',
      labelNames: http,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    poolWait: new Histogram({
      name: 'ledger_db_pool_wait_seconds',
      help: 'time to obtain a pooled PostgreSQL connection (waiting for a free one or opening one)',
      buckets: WAIT_BUCKETS,
      registers,
    }),
  };
}

/** The runs of the scheduled tasks, their failures and their durations. */
function taskInstruments(registry: Registry): Pick<Instruments, 'taskRuns' | 'taskFailures' | 'taskSeconds'> {
  const registers = [registry];
  return {
    taskRuns: new Counter({
      name: 'ledger_scheduler_runs_total',
      help: 'runs of a scheduled task',
      labelNames: ['task'],
      registers,
    }),
    taskFailures: new Counter({
      name: 'ledger_scheduler_failures_total',
      help: 'runs of a scheduled task that failed',
      labelNames: ['task'],
      registers,
    }),
    taskSeconds: new Histogram({
      name: 'ledger_scheduler_run_duration_seconds',
      help: 'time a scheduled task ran',
      labelNames: ['task'],
      buckets: TASK_BUCKETS,
      registers,
    }),
  };
}

/** The size, rows and duration of imports, by kind and format. */
function importInstruments(registry: Registry): Pick<Instruments, 'importBytes' | 'importRows' | 'importSeconds'> {
  const registers = [registry];
  const imports = ['kind', 'format'] as const;
  return {
    importBytes: new Histogram({
      name: 'ledger_import_bytes',
      help: 'size of imported files',
      labelNames: imports,
      buckets: BYTE_BUCKETS,
      registers,
    }),
    importRows: new Histogram({
      name: 'ledger_import_rows',
      help: 'rows of imported files',
      labelNames: imports,
      buckets: ROW_BUCKETS,
      registers,
    }),
    importSeconds: new Histogram({
      name: 'ledger_import_duration_seconds',
      help: 'time to read, check and write an import (after the upload)',
      labelNames: imports,
      buckets: IMPORT_SECONDS_BUCKETS,
      registers,
    }),
  };
}

/** The separate listener of METRICS_PORT: /metrics and nothing else. */
function metricsServer(registry: Registry, token: string | null): Server {
  const answer = (res: ServerResponse, status: number, code: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ code, message }));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD'))
      return answer(res, 404, 40401, `route ${req.method} ${path} not found`);
    if (token !== null && !bearerMatches(req.headers.authorization, token))
      return answer(res, 401, 40101, 'metrics token missing or invalid');
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => answer(res, 500, 50001, 'internal error'),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

/**
 * Prometheus metrics (`app.metrics`), off unless METRICS_TOKEN or METRICS_PORT is set. With a token,
 * GET /metrics on the main port answers that bearer token only; with a port, a listener of its own
 * answers it (token required too when one is set). Without a token, /metrics on the main port is
 * not found, like any unknown path, rather than the web client's index page a scraper could not read.
 */
async function registerMetrics(app: FastifyInstance): Promise<void> {
  const config: MetricsConfig = app.config.metrics ?? { token: null, port: null, host: app.config.host };
  if (config.token === null && config.port === null) {
    app.decorate('metrics', disabled);
    return;
  }
  const m = instruments(app.database);
  const stopWaits = app.database.onConnectionWait((seconds) => m.poolWait.observe(seconds));
  let server: Server | null = null;

  const metrics: Metrics = {
    enabled: true,
    registry: m.registry,
    taskRun(task, seconds, failed) {
      m.taskRuns.inc({ task });
      if (failed) m.taskFailures.inc({ task });
      m.taskSeconds.observe({ task }, seconds);
    },
    importTimer(kind, bytes) {
      const started = performance.now();
      return (format, rows) => {
        const labels = { kind, format: (IMPORT_FORMATS as readonly string[]).includes(format) ? format : 'other' };
        if (bytes !== null) m.importBytes.observe(labels, bytes);
        m.importRows.observe(labels, rows);
        m.importSeconds.observe(labels, (performance.now() - started) / 1000);
      };
    },
    async listen() {
      if (config.port === null || server) return (server?.address() as AddressInfo | null) ?? null;
      const s = metricsServer(m.registry, config.token);
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(config.port!, config.host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      server = s;
      return s.address() as AddressInfo;
    },
  };
  app.decorate('metrics', metrics);

  // the route's template, never the raw URL: ids in paths would make a series per record
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status_code: String(reply.statusCode),
    };
    m.requests.inc(labels);
    m.latency.observe(labels, reply.elapsedTime / 1000);
  });

  app.addHook('onClose', async () => {
    stopWaits();
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
  });
}

export default fp(registerMetrics, { name: 'metrics', fastify: '5.x', dependencies: ['errors', 'database'] });

/**
 * GET /metrics on the main port, registered with the routes (after the rate limiter and the
 * OpenAPI document, which leaves it out as every path outside /api: it is for a scraper, not a
 * client of the API, and exists only where configured).
 */
async function registerMetricsRoute(app: FastifyInstance): Promise<void> {
  const token = app.config.metrics?.token ?? null;
  const registry = app.metrics.registry;
  app.get('/metrics', { config: { auth: 'public' } }, async (request, reply) => {
    if (token === null || registry === null) throw Errors.notFound('route GET /metrics');
    if (!bearerMatches(request.headers.authorization, token))
      throw Errors.unauthorized('metrics token missing or invalid');
    const text = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
}

export const metricsRoute = fp(registerMetricsRoute, {
  name: 'metrics-route',
  fastify: '5.x',
  dependencies: ['metrics', 'openapi'],
});
