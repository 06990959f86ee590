import { addDays, isValidDate, todayIn } from '../../lib/dates.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import * as repo from './logs.repo.ts';
import {
  LEVELS,
  type DayStats,
  type LevelCounts,
  type LevelName,
  type LogEntry,
  type LogQuery,
  type StatsQuery,
} from './logs.schemas.ts';

const NAME_OF = new Map<number, LevelName>(Object.entries(LEVELS).map(([name, n]) => [n, name as LevelName]));

/** The numeric pino level of a line, or null for a line that is not a log entry. */
export function levelOf(line: string): number | null {
  // pino writes the level first; fall back to parsing for lines written otherwise
  const m = /^\{"level":(\d+)[,}]/.exec(line);
  if (m) return Number(m[1]);
  const obj = parseEntry(line);
  return obj && typeof obj.level === 'number' ? obj.level : null;
}

function parseEntry(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{')) return null;
  try {
    const v = JSON.parse(line) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function toLogEntry(line: string): LogEntry | null {
  const obj = parseEntry(line);
  if (!obj || typeof obj.level !== 'number') return null;
  const { level, time, msg, ...rest } = obj;
  let iso: string | null = null;
  if (typeof time === 'string') iso = time;
  else if (typeof time === 'number' && Number.isFinite(time)) iso = new Date(time).toISOString();
  return {
    ...rest,
    time: iso,
    level: NAME_OF.get(level) ?? String(level),
    msg: typeof msg === 'string' ? msg : msg === undefined ? '' : JSON.stringify(msg),
  };
}

const emptyLevels = (): LevelCounts => ({ trace: 0, debug: 0, info: 0, warn: 0, error: 0, fatal: 0 });

/** Matches found from the end of a file are kept in a ring of this size at most; deeper pages read the file twice. */
const RING_MAX = 5000;

export interface LogsServiceDeps {
  clock: Clock;
  config: Pick<Config, 'logDir' | 'appTimezone'>;
}

/**
 * The page [offset, offset + limit) of a day's matching lines, newest first, and how many match: one
 * pass keeping the last matches in a ring, or, for deep pages, a count and a second pass.
 */
async function pickPage(
  logDir: string,
  fileName: string,
  matches: (line: string) => boolean,
  offset: number,
  limit: number,
): Promise<{ picked: string[]; total: number }> {
  const window = offset + limit;
  let picked: string[];
  let total = 0;
  if (window <= RING_MAX) {
    // one pass: the last `window` matches, oldest first
    const ring: string[] = new Array(window);
    await repo.eachLine(logDir, fileName, (line) => {
      if (!matches(line)) return;
      ring[total % window] = line;
      total++;
    });
    const kept = Math.min(total, window);
    picked = [];
    for (let i = 0; i < kept; i++) picked.push(ring[(total - kept + i) % window]!);
    picked.reverse();
    picked = picked.slice(offset, offset + limit);
  } else {
    await repo.eachLine(logDir, fileName, (line) => {
      if (matches(line)) total++;
    });
    // newest-first positions [offset, offset + limit) are these positions counted from the start
    const from = total - offset - limit;
    const to = total - offset - 1;
    let i = 0;
    picked = [];
    await repo.eachLine(logDir, fileName, (line) => {
      if (!matches(line)) return;
      if (i >= from && i <= to) picked.push(line);
      i++;
    });
    picked.reverse();
  }
  return { picked, total };
}

export function createLogsService({ clock, config }: LogsServiceDeps) {
  const { logDir, appTimezone: timezone } = config;
  const now = () => clock.now();
  // a finished day's file no longer changes: its counts are kept until its size or time changes
  const statsCache = new Map<string, { size: number; mtimeMs: number; stats: DayStats }>();

  async function dayStats(date: string): Promise<DayStats> {
    const file = await repo.logFileOf(logDir, date);
    if (!file) return { date, total: 0, levels: emptyLevels() };
    const hit = statsCache.get(file.name);
    if (hit && hit.size === file.size && hit.mtimeMs === file.mtimeMs) return hit.stats;
    const levels = emptyLevels();
    let total = 0;
    await repo.eachLine(logDir, file.name, (line) => {
      const level = levelOf(line);
      if (level === null) return;
      total++;
      const name = NAME_OF.get(level);
      if (name) levels[name]++;
    });
    const stats = { date, total, levels };
    if (statsCache.size > 500) statsCache.clear();
    statsCache.set(file.name, { size: file.size, mtimeMs: file.mtimeMs, stats });
    return stats;
  }

  return {
    async files() {
      const files = await repo.listLogFiles(logDir);
      return { list: files.map((f) => ({ name: f.name, date: f.date, size: f.size })) };
    },

    async stats(q: StatsQuery): Promise<{ list: DayStats[] }> {
      if (q.date !== undefined && q.days !== undefined)
        throw Errors.field('days', 'give either date or days, not both');
      let dates: string[];
      if (q.date !== undefined) {
        if (!isValidDate(q.date)) throw Errors.field('date', 'is not a valid date');
        dates = [q.date];
      } else {
        const today = todayIn(timezone, now());
        dates = Array.from({ length: q.days ?? 7 }, (_, i) => addDays(today, -i));
      }
      const list: DayStats[] = [];
      for (const d of dates) list.push(await dayStats(d));
      return { list };
    },

    /**
     * Entries of one day, newest first. `level` is an exact match; `keyword` a case-insensitive substring of the raw
     * line.
     */
    async query(q: LogQuery): Promise<{ list: LogEntry[]; total: number }> {
      const date = q.date ?? todayIn(timezone, now());
      if (!isValidDate(date)) throw Errors.field('date', 'is not a valid date');
      const { limit, offset } = pageOf(q);
      const file = await repo.logFileOf(logDir, date);
      if (!file) return { list: [], total: 0 };
      const wantLevel = q.level ? LEVELS[q.level] : null;
      const needle = q.keyword?.toLowerCase() ?? null;
      const matches = (line: string) => {
        if (needle !== null && !line.toLowerCase().includes(needle)) return false;
        const level = levelOf(line);
        return level !== null && (wantLevel === null || level === wantLevel);
      };

      const { picked, total } = await pickPage(logDir, file.name, matches, offset, limit);
      return { list: picked.map(toLogEntry).filter((e): e is LogEntry => e !== null), total };
    },
  };
}
