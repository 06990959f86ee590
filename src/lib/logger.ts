import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { todayIn } from './dates.ts';

export const LOG_FILE_RE = /^app-(\d{4}-\d{2}-\d{2})\.log$/;
export const logFileName = (date: string) => `app-${date}.log`;

/**
 * Appends each line to `app-YYYY-MM-DD.log`, the day taken in APP_TIMEZONE (a rolling library rolls by
 * the machine's clock and names files by sequence, which would not match the contract's dates).
 */
export class DailyFileStream {
  private day = '';
  private checkedAt = 0;
  private stream: WriteStream | null = null;

  constructor(
    private readonly dir: string,
    private readonly timezone: string,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  write(line: string): boolean {
    const now = Date.now();
    if (now - this.checkedAt >= 1000) {
      this.checkedAt = now;
      const day = todayIn(this.timezone, new Date(now));
      if (day !== this.day) {
        this.stream?.end();
        this.day = day;
        this.stream = createWriteStream(path.join(this.dir, logFileName(day)), { flags: 'a' });
      }
    }
    return this.stream!.write(line);
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

export function createLogger(opts: LoggerOptions): { logger: Logger; close: () => void } {
  const streams: pino.StreamEntry[] = [];
  let file: DailyFileStream | null = null;
  if (opts.stdout) streams.push({ stream: process.stdout, level: opts.level as pino.Level });
  if (opts.logDir) {
    file = new DailyFileStream(opts.logDir, opts.timezone);
    streams.push({ stream: file, level: opts.level as pino.Level });
  }
  const logger = pino(
    {
      level: opts.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'req.headers.cookie', '*.refresh_token', '*.access_token'],
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
  return { logger, close: () => file?.end() };
}
