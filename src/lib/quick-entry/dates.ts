import { addDays, addMonthsClamped, daysInMonth, isoWeekday, isValidDate } from '../dates.ts';
import { CN_NUMERAL_CHARS, parseChineseInteger } from './numbers.ts';

/**
 * Dates in a line of text, relative to the caller's `today` (YYYY-MM-DD, already in their time
 * zone). A line records something that happened: a bare weekday, day or month-day means the
 * latest such date on or before today.
 *
 * - 今天/昨天/前天/大前天, N天前; today, yesterday, the day before yesterday, N days ago;
 * - 周五/星期五/礼拜天: the latest Friday on or before today; 这周五/本周五: this week's
 *   (weeks start on Monday); 上周五: last week's; 上上周五: the week before;
 * - Friday, on Friday: the latest on or before today; last Friday: the latest before today;
 * - 3月5日, 三月五号, 5号, Mar 5, 5 March; 2026-03-05, 2026/3/5, 2026年3月5日.
 */
export interface Found {
  start: number;
  end: number;
  /** YYYY-MM-DD */
  date: string;
}

const N = `(?<![0-9])(?:\\d{1,2}(?![0-9])|[${CN_NUMERAL_CHARS}]{1,3})`;
const num = (s: string): number | null => (/^\d+$/.test(s) ? Number(s) : parseChineseInteger(s));
const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;

/** The latest date on or before `today` with this month and day (a 29 February looks back to a leap year). */
function latestMonthDay(today: string, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  let year = Number(today.slice(0, 4));
  for (let i = 0; i < 8; i++, year--) {
    if (day > daysInMonth(year, month)) continue;
    const d = ymd(year, month, day);
    if (d <= today) return d;
  }
  return null;
}

/** The latest date on or before `today` with this day of the month. */
function latestDay(today: string, day: number): string | null {
  if (day < 1 || day > 31) return null;
  for (let back = 0; back < 12; back++) {
    const first = addMonthsClamped(`${today.slice(0, 7)}-01`, -back);
    const [y, m] = [Number(first.slice(0, 4)), Number(first.slice(5, 7))];
    if (day > daysInMonth(y, m)) continue;
    const d = ymd(y, m, day);
    if (d <= today) return d;
  }
  return null;
}

/** Weekday `wd` (1 = Monday) of the week `weeksBack` weeks before today's. */
function weekdayOfWeek(today: string, wd: number, weeksBack: number): string {
  return addDays(today, wd - isoWeekday(today) - 7 * weeksBack);
}

/** The latest weekday `wd` on or before today (strictly before with `strict`). */
function latestWeekday(today: string, wd: number, strict: boolean): string {
  let back = (isoWeekday(today) - wd + 7) % 7;
  if (back === 0 && strict) back = 7;
  return addDays(today, -back);
}

const ZH_WEEKDAY: Record<string, number> = {
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  日: 7,
  天: 7,
  1: 1,
  2: 2,
  3: 3,
  4: 4,
  5: 5,
  6: 6,
  7: 7,
};
const EN_WEEKDAY: Record<string, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };
const EN_MONTH: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const EN_WEEKDAY_RE = '(mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|r|rs)?';
const EN_MONTH_RE =
  '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|t|tember|ober|ember)?\\.?';

type Rule = [RegExp, (m: RegExpExecArray, today: string) => string | null];

const RELATIVE_ZH: Record<string, number> = {
  大前天: -3,
  前天: -2,
  昨天: -1,
  昨日: -1,
  昨儿: -1,
  今天: 0,
  今日: 0,
  今儿: 0,
  明天: 1,
  后天: 2,
};

/** Rules in order: an earlier rule's match hides the later ones' overlapping matches. */
const RULES: Rule[] = [
  [
    /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/g,
    (m) => (isValidDate(ymd(+m[1]!, +m[2]!, +m[3]!)) ? ymd(+m[1]!, +m[2]!, +m[3]!) : null),
  ],
  [
    new RegExp(`(\\d{4})年(${N})月(${N})[日号]`, 'g'),
    (m) => {
      const [mo, d] = [num(m[2]!), num(m[3]!)];
      return mo !== null && d !== null && isValidDate(ymd(+m[1]!, mo, d)) ? ymd(+m[1]!, mo, d) : null;
    },
  ],
  [
    new RegExp(`(${N})月(${N})[日号]?`, 'g'),
    (m, today) => {
      const [mo, d] = [num(m[1]!), num(m[2]!)];
      return mo === null || d === null ? null : latestMonthDay(today, mo, d);
    },
  ],
  [/大前天|前天|昨天|昨日|昨儿|今天|今日|今儿|明天|后天/g, (m, today) => addDays(today, RELATIVE_ZH[m[0]]!)],
  [
    new RegExp(`(?<![0-9])(\\d{1,3}|[${CN_NUMERAL_CHARS}]{1,4})天(?:前|以前)`, 'g'),
    (m, today) => {
      const n = num(m[1]!);
      return n === null || n > 366 ? null : addDays(today, -n);
    },
  ],
  [
    /(上上|上|这|本)?(?:周|星期|礼拜)([一二三四五六日天1-7])/g,
    (m, today) => {
      const wd = ZH_WEEKDAY[m[2]!]!;
      if (m[1] === '上上') return weekdayOfWeek(today, wd, 2);
      if (m[1] === '上') return weekdayOfWeek(today, wd, 1);
      if (m[1]) return weekdayOfWeek(today, wd, 0);
      return latestWeekday(today, wd, false);
    },
  ],
  // 5号, 十五日, but not 3号线 (a metro line) nor 5日元
  [
    new RegExp(`(${N})[号日](?![线楼元])`, 'g'),
    (m, today) => {
      const d = num(m[1]!);
      return d === null ? null : latestDay(today, d);
    },
  ],
  [/(?<![a-z])the day before yesterday(?![a-z])/g, (_m, today) => addDays(today, -2)],
  [
    /(?<![a-z])(today|yesterday|tomorrow)(?![a-z])/g,
    (m, today) => addDays(today, { today: 0, yesterday: -1, tomorrow: 1 }[m[1] as 'today']),
  ],
  [/(?<![a-z0-9])(\d{1,3}) days? ago(?![a-z])/g, (m, today) => (+m[1]! > 366 ? null : addDays(today, -m[1]!))],
  [
    new RegExp(`(?<![a-z])(last |on |this )?${EN_WEEKDAY_RE}(?![a-z])`, 'g'),
    (m, today) => {
      const wd = EN_WEEKDAY[m[2]!]!;
      if (m[1] === 'this ') return weekdayOfWeek(today, wd, 0);
      return latestWeekday(today, wd, m[1] === 'last ');
    },
  ],
  [
    new RegExp(`(?<![a-z])${EN_MONTH_RE} (\\d{1,2})(?:st|nd|rd|th)?(?![a-z0-9])`, 'g'),
    (m, today) => latestMonthDay(today, EN_MONTH[m[1]!]!, +m[2]!),
  ],
  [
    new RegExp(`(?<![a-z0-9.])(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${EN_MONTH_RE}(?![a-z])`, 'g'),
    (m, today) => latestMonthDay(today, EN_MONTH[m[2]!]!, +m[1]!),
  ],
];

/**
 * Every date expression of `text` (lower-cased, NFKC-folded), without overlaps, in the order of
 * the rules (the first one found is the one that counts).
 */
export function findDates(text: string, today: string): Found[] {
  const out: Found[] = [];
  for (const [re, read] of RULES) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (out.some((f) => start < f.end && f.start < end)) continue;
      const date = read(m, today);
      if (date && isValidDate(date)) out.push({ start, end, date });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
