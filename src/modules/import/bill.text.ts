/*
 * Cell texts of foreign bills, made safe and plain: amounts, dates and free text.
 */

/** Characters a spreadsheet reads as the start of a formula. */
const FORMULA_LEAD = /^[=+\-@\t\r\n\s]+/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const CONTROL = /[\u0000-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex -- the characters cleanText changes, as the condition for its work
const NEEDS_CLEANING = /[\u0000-\u001f\u007f\ud800-\udfff]|[^\S ]| {2}|^[\s=+\-@]|\s$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Free text from a bill: control characters (the tabs exports append to ids, NUL) become spaces,
 * the placeholder "/" becomes empty, and the characters that would make a spreadsheet run it as a
 * formula (= + - @ at the start) are removed, so that no imported text can carry a formula into a
 * later export or preview. At most `max` characters.
 */
export function cleanText(raw: string | undefined, max = 200): string {
  if (!raw) return '';
  // most cells need none of it: no control or surrogate character, single plain spaces, nothing to trim or strip
  if (!NEEDS_CLEANING.test(raw) && raw !== '/' && raw.length <= max) return raw;
  let s = raw.replace(CONTROL, ' ').replace(LONE_SURROGATE, '').replace(/\s+/g, ' ').trim();
  if (s === '/' || s === '-' || s === '--') return '';
  s = s.replace(FORMULA_LEAD, '').trim();
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max).join('').trim() : s;
}

/** An id column: tabs and spaces removed (WeChat and Alipay pad them with a tab); empty or "/" is none. */
export function cleanId(raw: string | undefined): string | null {
  if (!raw) return null;
  // eslint-disable-next-line no-control-regex -- NUL cannot be stored
  const s = raw.replace(/[\s\u0000]/g, '').replace(/^'+/, '');
  if (s === '' || s === '/' || s === '-') return null;
  return s.length > 128 ? s.slice(0, 128) : s;
}

/** A column name, compared after NFKC (full-width brackets) with spaces and tabs removed. */
export function headerKey(raw: string): string {
  return raw.normalize('NFKC').replace(/[\s\ufeff]/g, '');
}

const MAX_CENTS = 999_999_999_999_99;
const PLAIN_AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/**
 * A cell that a CSV parser left with its quotes because a tab followed the closing quote
 * (`"-1,099.14"<tab>`, as WeChat and HSBC write ids and amounts): its quotes removed and doubled
 * quotes undone. Other cells are returned as they are.
 */
export function unwrapCell(raw: string): string {
  if (!raw.includes('"')) return raw;
  const m = /^\s*"([\s\S]*)"[\t ]*$/.exec(raw);
  if (!m || (!raw.includes('"\t') && !/"\s+$/.test(raw))) return raw;
  return m[1]!.replace(/""/g, '"');
}

export type DecimalMark = '.' | ',';

/**
 * A bill amount in cents, sign included: `¥25.00`, `￥1,234.5`, `-12.00`, `(12.00)`, `25元`,
 * `+3.10`. At most 2 decimals (more only as trailing zeros) and 12 integer digits. null when it is
 * not an amount.
 */
export function parseBillAmount(raw: string | undefined, decimal: DecimalMark = '.'): number | null {
  if (raw === undefined) return null;
  // the usual cell, 25.00: read as is
  const plain = decimal === '.' ? PLAIN_AMOUNT.exec(raw) : null;
  if (plain) return Number(plain[1]) * 100 + Number((plain[2] ?? '').padEnd(2, '0'));
  let s = unwrapCell(raw).normalize('NFKC').trim();
  // a currency code before or after the number: CNY 123.18, 12.00 HKD
  s = s.replace(/^[A-Z]{3}(?=\s*[-+(\d])/, '').replace(/(?<=\d)\s*[A-Z]{3}$/, '');
  if (decimal === ',') s = s.replace(/[.\s\u00a0']/g, '').replace(',', '.');
  s = s.replace(/[\s,¥$€£]|元|CNY|RMB/gi, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  // a currency sign may follow the sign: -¥12.00
  s = s.replace(/^[¥$]/, '');
  const m = /^(\d{1,12})(?:\.(\d+))?$/.exec(s);
  if (!m) return null;
  const decimals = (m[2] ?? '').replace(/0+$/, '');
  if (decimals.length > 2) return null;
  const cents = Number(m[1]) * 100 + Number(decimals.padEnd(2, '0'));
  if (cents > MAX_CENTS) return null;
  return negative ? -cents : cents;
}

export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'YYYY.MM.DD',
  'YYYYMMDD',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'MM-DD-YYYY',
  'DD.MM.YYYY',
  'DD-MM-YYYY',
  'MM/DD',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** Days of a month of the (proleptic) Gregorian calendar. */
function daysIn(y: number, m: number): number {
  if (m === 2) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function isValidYmd(y: number, m: number, d: number): boolean {
  return y >= 1900 && y <= 2999 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

function validYmd(y: number, m: number, d: number): string | null {
  if (!isValidYmd(y, m, d)) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
const isDigits = (s: string, from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
};

/**
 * Whether a cell is the payment apps' usual date, `2024-01-31` or `2024-01-31 14:06:51` (ASCII
 * digits), told by its characters: no match array and no substrings per cell.
 */
function isPlainDate(s: string): boolean {
  if (s.length !== 10 && s.length !== 19) return false;
  if (
    !isDigits(s, 0, 4) ||
    s.charCodeAt(4) !== 45 ||
    !isDigits(s, 5, 7) ||
    s.charCodeAt(7) !== 45 ||
    !isDigits(s, 8, 10)
  )
    return false;
  return (
    s.length === 10 ||
    (s.charCodeAt(10) === 32 &&
      isDigits(s, 11, 13) &&
      s.charCodeAt(13) === 58 &&
      isDigits(s, 14, 16) &&
      s.charCodeAt(16) === 58 &&
      isDigits(s, 17, 19))
  );
}

/** An Excel serial day number (1900 date system) as a date. */
function fromSerial(n: number): string | null {
  if (!Number.isFinite(n) || n < 1 || n > 2958465) return null;
  const ms = Date.UTC(1899, 11, 30) + Math.floor(n) * 86400000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** The year and month a statement covers (its last month), for dates written without a year. */
export interface Period {
  year: number;
  month: number;
}

/**
 * The statement period named in a line above the table: `2024年01月`, `[2023-02-10 00:00:00] ... [2023-02-13 ...]`,
 * `2024-12-01 至 2024-12-31`.
 */
export function periodOf(text: string): Period | null {
  const s = text.normalize('NFKC');
  let last: Period | null = null;
  for (const m of s.matchAll(/(\d{4})\s*(?:年|[-/.])\s*(\d{1,2})(?:\s*月|[-/.]\d{1,2})/g)) {
    const year = +m[1]!;
    const month = +m[2]!;
    if (year >= 1900 && year <= 2999 && month >= 1 && month <= 12) last = { year, month };
  }
  return last;
}

/** A time of day after the date in a cell (`14:06:51`), or an empty string. */
export function timeOf(raw: string | undefined): string {
  if (!raw) return '';
  if (isPlainDate(raw)) return raw.length === 19 ? raw.slice(11) : '';
  const m = /[T\s](\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(raw.normalize('NFKC').trim());
  return m ? `${m[1]!.padStart(2, '0')}:${m[2]}:${m[3] ?? '00'}` : '';
}

/**
 * The calendar date of a bill cell in `format` (a time after it is ignored, after one or more
 * spaces; the `YYYY-MM-DD` family also accepts `/` or `.` and one-digit months and days, and an
 * XLSX serial number). `MM/DD` takes its year from the statement period: a month after the
 * period's month belongs to the year before (a January statement lists December's payments).
 */
export function parseBillDate(
  raw: string | undefined,
  format: DateFormat = 'YYYY-MM-DD',
  period: Period | null = null,
): string | null {
  if (!raw) return null;
  if ((format !== 'MM/DD' || !period) && isPlainDate(raw)) {
    // its digits are the date as written: four, two and two of them
    const y = digit(raw, 0) * 1000 + digit(raw, 1) * 100 + digit(raw, 2) * 10 + digit(raw, 3);
    return isValidYmd(y, digit(raw, 5) * 10 + digit(raw, 6), digit(raw, 8) * 10 + digit(raw, 9))
      ? raw.slice(0, 10)
      : null;
  }
  const s = unwrapCell(raw).normalize('NFKC').trim();
  let m: RegExpExecArray | null;
  switch (format) {
    case 'MM/DD':
      if (period && (m = /^(\d{1,2})[-/.](\d{1,2})(?:$|[T\s]\s*\d)/.exec(s))) {
        const month = +m[1]!;
        return validYmd(month > period.month ? period.year - 1 : period.year, month, +m[2]!);
      }
      if ((m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s]\s*\d)/.exec(s))) return validYmd(+m[1]!, +m[2]!, +m[3]!);
      break;
    case 'YYYY-MM-DD':
    case 'YYYY/MM/DD':
    case 'YYYY.MM.DD':
      if ((m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:$|[T\s]\s*\d)/.exec(s)))
        return validYmd(+m[1]!, +m[2]!, +m[3]!);
      if ((m = /^(\d{4})(\d{2})(\d{2})(?:$|[T\s]\s*\d)/.exec(s))) return validYmd(+m[1]!, +m[2]!, +m[3]!);
      break;
    case 'YYYYMMDD':
      if ((m = /^(\d{4})(\d{2})(\d{2})(?:$|[T\s]\s*\d)/.exec(s))) return validYmd(+m[1]!, +m[2]!, +m[3]!);
      if ((m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s]\s*\d)/.exec(s))) return validYmd(+m[1]!, +m[2]!, +m[3]!);
      break;
    case 'DD/MM/YYYY':
    case 'DD.MM.YYYY':
    case 'DD-MM-YYYY':
      if ((m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:$|[T\s]\s*\d)/.exec(s))) return validYmd(+m[3]!, +m[2]!, +m[1]!);
      if ((m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s]\s*\d)/.exec(s))) return validYmd(+m[1]!, +m[2]!, +m[3]!);
      break;
    case 'MM/DD/YYYY':
    case 'MM-DD-YYYY':
      if ((m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:$|[T\s]\s*\d)/.exec(s))) return validYmd(+m[3]!, +m[1]!, +m[2]!);
      if ((m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s]\s*\d)/.exec(s))) return validYmd(+m[1]!, +m[2]!, +m[3]!);
      break;
  }
  // a workbook date cell that was not styled as a date
  if (/^\d{4,7}(\.\d+)?$/.test(s) && !/^\d{8}$/.test(s)) return fromSerial(Number(s));
  return null;
}
