import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { CalendarDate, Nullable } from '../../lib/schemas.ts';

export const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LevelName = keyof typeof LEVELS;
const LevelName = Type.Union(
  (Object.keys(LEVELS) as LevelName[]).map((l) => Type.Literal(l)),
  { description: 'trace (10), debug (20), info (30), warn (40), error (50) or fatal (60)' },
);

export const LogFiles = Type.Object({
  list: Type.Array(
    Type.Object({
      name: Type.String({ description: 'app-YYYY-MM-DD.log' }),
      date: CalendarDate,
      size: Type.Integer({ description: 'bytes' }),
    }),
  ),
});

export const StatsQuery = Type.Object({
  date: Type.Optional(CalendarDate),
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 90, description: 'the last n days, today included; default 7' }),
  ),
});
export type StatsQuery = Static<typeof StatsQuery>;

const Levels = Type.Object({
  trace: Type.Integer(),
  debug: Type.Integer(),
  info: Type.Integer(),
  warn: Type.Integer(),
  error: Type.Integer(),
  fatal: Type.Integer(),
});
export type LevelCounts = Static<typeof Levels>;

export const DayStats = Type.Object({
  date: CalendarDate,
  total: Type.Integer({ description: 'log entries that day' }),
  levels: Levels,
});
export type DayStats = Static<typeof DayStats>;
export const LogStats = Type.Object({
  list: Type.Array(DayStats, { description: 'newest day first; a day without a log file counts 0' }),
});

export const LogQuery = Type.Object({
  date: Type.Optional(CalendarDate),
  level: Type.Optional(LevelName),
  keyword: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'case-insensitive substring of the raw log line' }),
  ),
  ...PageQuery,
});
export type LogQuery = Static<typeof LogQuery>;

export const LogEntry = Type.Object(
  {
    time: Nullable(Type.String({ description: 'ISO 8601 time of the entry' })),
    level: Type.String({ description: 'level name (trace ... fatal), or the number for a custom level' }),
    msg: Type.String(),
  },
  {
    additionalProperties: true,
    description: 'every other field of the log line is passed through (reqId, req, res, err, ...)',
  },
);
export type LogEntry = Static<typeof LogEntry> & Record<string, unknown>;

export const LogList = Type.Object({ list: Type.Array(LogEntry), total: Type.Integer() });
