import { Errors } from './errors.ts';
/**
 * Calendar arithmetic on `YYYY-MM-DD` strings. Pure: "now" and the time zone are always arguments.
 * Dates are handled as UTC midnights so that no local offset or DST change can shift a day.
 */
export type Period = 'week' | 'month' | 'year';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;
const DAY_MS = 86_400_000;

export function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // there is no year 0 (PostgreSQL refuses it)
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

export function isValidMonth(s: string): boolean {
  const m = MONTH_RE.exec(s);
  return !!m && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function toUtc(s: string): number {
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999
  const dt = new Date(0);
  dt.setUTCFullYear(y, m - 1, d);
  return dt.getTime();
}

function fromUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(s: string, n: number): string {
  return fromUtc(toUtc(s) + n * DAY_MS);
}

/** whole days from a to b (b - a) */
export function diffDays(a: string, b: string): number {
  return Math.round((toUtc(b) - toUtc(a)) / DAY_MS);
}

/** Adds months keeping the day, clamped to the target month's last day (Jan 31 + 1 = Feb 28/29). */
export function addMonthsClamped(s: string, n: number, day?: number): string {
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + n;
  const ny = Math.floor(total / 12);
  const nm = (((total % 12) + 12) % 12) + 1;
  const nd = Math.min(day ?? d, daysInMonth(ny, nm));
  return `${String(ny).padStart(4, '0')}-${String(nm).padStart(2, '0')}-${String(nd).padStart(2, '0')}`;
}

/** ISO weekday: 1 = Monday ... 7 = Sunday */
export function isoWeekday(s: string): number {
  const wd = new Date(toUtc(s)).getUTCDay();
  return wd === 0 ? 7 : wd;
}

/** The calendar date it is at instant `now` in time zone `tz`. */
export function todayIn(tz: string, now: Date = new Date()): string {
  const parts = zoneFormat(tz).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  // 'numeric' years are not padded (year 99 prints as "99")
  return `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
}

/** one formatter per time zone: building an Intl.DateTimeFormat costs far more than using one */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/** a zone's offset through each whole UTC hour it is known to hold for: hour number -> offset in ms */
const zoneOffsets = new Map<string, Map<number, number>>();
/** hours remembered per zone (a bill spans a few thousand at most) */
const ZONE_HOURS = 100_000;
const HOUR = 3_600_000;

/** The wall clock of time zone `tz`, to the second (24-hour), made once per zone. */
function zoneFormat(tz: string): Intl.DateTimeFormat {
  let fmt = zoneFormats.get(tz);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneFormats.set(tz, fmt);
  }
  return fmt;
}

/** The offset of time zone `tz` from UTC at instant `t` (ms), read from the zone's wall clock. */
function exactOffset(tz: string, t: number): number {
  const p: Record<string, number> = {};
  for (const part of zoneFormat(tz).formatToParts(new Date(t)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - t;
}

/**
 * The zone's offset at `t`: an hour whose start and end have the same offset holds it throughout
 * (zones change their offset months apart, never twice within an hour), and is remembered; an hour
 * with a change in it is read at the instant itself.
 */
function offsetAt(tz: string, t: number): number {
  let hours = zoneOffsets.get(tz);
  if (!hours) zoneOffsets.set(tz, (hours = new Map()));
  const hour = Math.floor(t / HOUR);
  const known = hours.get(hour);
  if (known !== undefined) return known;
  const start = exactOffset(tz, hour * HOUR);
  if (start !== exactOffset(tz, (hour + 1) * HOUR)) return exactOffset(tz, t);
  if (hours.size >= ZONE_HOURS) hours.clear();
  hours.set(hour, start);
  return start;
}

/**
 * The instant a wall-clock `date` and `time` (HH:MM:SS) name in time zone `tz`: the zone's offset
 * at that moment, found by reading the guess back in the zone (twice, for a day the offset changes).
 */
export function instantIn(tz: string, date: string, time: string): Date {
  const wall = Date.parse(`${date}T${time}Z`);
  const first = wall - offsetAt(tz, wall);
  return new Date(wall - offsetAt(tz, first));
}

export function monthOf(s: string): string {
  return s.slice(0, 7);
}

export function monthRange(month: string): { start: string; end: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const start = `${month}-01`;
  return { start, end: `${month}-${String(daysInMonth(y, m)).padStart(2, '0')}` };
}

/** The inclusive range of `period` containing `anchor`: week Monday-Sunday, calendar month, calendar year. */
export function periodRange(period: Period, anchor: string): { start: string; end: string } {
  if (period === 'week') {
    const start = addDays(anchor, 1 - isoWeekday(anchor));
    return { start, end: addDays(start, 6) };
  }
  if (period === 'month') return monthRange(monthOf(anchor));
  const y = anchor.slice(0, 4);
  return { start: `${y}-01-01`, end: `${y}-12-31` };
}

/** The period just before the one containing `anchor`. */
export function previousPeriodRange(period: Period, anchor: string): { start: string; end: string } {
  const { start } = periodRange(period, anchor);
  return periodRange(period, addDays(start, -1));
}

/** Every day from start to end inclusive. */
export function eachDay(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Every month (YYYY-MM) from start to end inclusive. */
export function eachMonth(start: string, end: string): string[] {
  const out: string[] = [];
  for (let m = monthOf(start); m <= monthOf(end); m = addMonthsClamped(`${m}-01`, 1).slice(0, 7)) out.push(m);
  return out;
}

/** Whether `tz` is an IANA time zone this runtime knows. */
export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** `value` when it is a calendar date (YYYY-MM-DD), else 40001 on `field`. */
export function checkDate(value: string, field: string): string {
  if (!isValidDate(value)) throw Errors.field(field, 'must be a valid calendar date (YYYY-MM-DD)');
  return value;
}
