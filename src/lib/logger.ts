import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { todayIn } from './dates.ts';

export const LOG_FILE_RE = /^app-(\d{4}-\d{2}-\d{2})\.log$/;
export const logFileName = (date: string) => `app-${date}.log`;

/** The state of the log file: a failing file (unwritable folder, full disk) is reported, never fatal. */
export interface LogFileHealth {
  ok: boolean;
  /** the last failure, while the file is failing */
  error: string | null;
}

/** how long a failed log file waits before it is tried again */
const REOPEN_AFTER_MS = 30_000;

/**
 * Appends each line to `app-YYYY-MM-DD.log`, the day taken in APP_TIMEZONE (a rolling library rolls by
 * the machine's clock and names files by sequence, which would not match the contract's dates).
 * When the file cannot be written (folder missing or unwritable, disk full) the lines go to
 * `fallback` (stdout) instead, `health()` says so, and the file is tried again 30 s later: a log
 * failure never stops the service.
 */
export class DailyFileStream {
  private day = '';
  private checkedAt = 0;
  private stream: WriteStream | null = null;
  private failedAt = 0;
  private lastError: string | null = null;

  constructor(
    private readonly dir: string,
    private readonly timezone: string,
    /** where lines go while the file fails; null when they already go to stdout */
    private readonly fallback: { write(line: string): unknown } | null = process.stdout,
  ) {}

  private fail(err: unknown): void {
    const first = this.lastError === null;
    this.lastError = (err as Error)?.message ?? String(err);
    this.failedAt = Date.now();
    const broken = this.stream;
    this.stream = null;
    this.day = '';
    broken?.destroy();
    if (first) process.stderr.write(`log file unavailable, logging to stdout: ${this.lastError}\n`);
  }

  private open(day: string): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const stream = createWriteStream(path.join(this.dir, logFileName(day)), { flags: 'a' });
      stream.on('error', (err) => {
        if (this.stream === stream) this.fail(err);
      });
      stream.on('open', () => {
        if (this.stream === stream) this.lastError = null;
      });
      this.stream = stream;
      this.day = day;
    } catch (err) {
      this.fail(err);
    }
  }

  write(line: string): boolean {
    const now = Date.now();
    if (now - this.checkedAt >= 1000) {
      this.checkedAt = now;
      const day = todayIn(this.timezone, new Date(now));
      if (day !== this.day && (this.lastError === null || now - this.failedAt >= REOPEN_AFTER_MS)) {
        this.stream?.end();
        this.stream = null;
        this.open(day);
      }
    }
    if (!this.stream) {
      this.fallback?.write(line);
      return true;
    }
    return this.stream.write(line);
  }

  health(): LogFileHealth {
    return { ok: this.lastError === null, error: this.lastError };
  }

  end(): void {
    this.stream?.end();
    this.stream = null;
  }
}

/** Hides the value of `token` (and similar) query parameters. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token|refresh_token)=)[^&#]*/gi, '$1[REDACTED]');
}

export interface LoggerOptions {
  level: string;
  logDir: string | null;
  timezone: string;
  stdout: boolean;
}

export interface AppLogger {
  logger: Logger;
  /** the log file's state (always ok without a log file) */
  health: () => LogFileHealth;
  close: () => void;
}

export function createLogger(opts: LoggerOptions): AppLogger {
  const streams: pino.StreamEntry[] = [];
  let file: DailyFileStream | null = null;
  if (opts.stdout) streams.push({ stream: process.stdout, level: opts.level as pino.Level });
  if (opts.logDir) {
    file = new DailyFileStream(opts.logDir, opts.timezone, opts.stdout ? null : process.stdout);
    streams.push({ stream: file, level: opts.level as pino.Level });
  }
  const logger = pino(
    {
      level: opts.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          'authorization',
          'req.headers.cookie',
          '*.refresh_token',
          '*.access_token',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        req: (req: { method?: string; url?: string; ip?: string; headers?: Record<string, unknown> }) => ({
          method: req.method,
          url: req.url ? redactUrl(req.url) : req.url,
          ip: req.ip,
          ua: req.headers?.['user-agent'],
        }),
        err: pino.stdSerializers.err,
      },
    },
    streams.length ? pino.multistream(streams) : undefined,
  );
  return { logger, health: () => file?.health() ?? { ok: true, error: null }, close: () => file?.end() };
}
