/**
 * Occurrences of a recurring rule. Pure: dates are `YYYY-MM-DD` strings and "today" is an argument.
 *
 * The n-th occurrence is always computed from `startDate` (never by stepping from the previous
 * occurrence), so a monthly rule on the 31st yields Jan 31, Feb 28/29, Mar 31, Apr 30 ... and a
 * yearly rule on 29 February yields 28 February in common years and 29 February in leap years.
 */
import { addDays, addMonthsClamped, diffDays } from './dates.ts';

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export interface Schedule {
  frequency: Frequency;
  /** every `interval` days, weeks, months or years; 1 to 365 */
  interval: number;
  startDate: string;
  /** inclusive; null = no end */
  endDate: string | null;
}

/** The n-th occurrence (n = 0 is startDate), ignoring endDate. */
export function occurrence(s: Schedule, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError('occurrence index must be a non-negative integer');
  switch (s.frequency) {
    case 'daily':
      return addDays(s.startDate, n * s.interval);
    case 'weekly':
      return addDays(s.startDate, n * s.interval * 7);
    case 'monthly':
      return addMonthsClamped(s.startDate, n * s.interval);
    case 'yearly':
      return addMonthsClamped(s.startDate, n * s.interval * 12);
  }
}

function monthIndex(d: string): number {
  return Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7)) - 1;
}

/** The smallest n whose occurrence is on or after `date` (ignoring endDate). */
export function indexOnOrAfter(s: Schedule, date: string): number {
  if (date <= s.startDate) return 0;
  let n: number;
  if (s.frequency === 'daily' || s.frequency === 'weekly') {
    const step = s.interval * (s.frequency === 'weekly' ? 7 : 1);
    return Math.ceil(diffDays(s.startDate, date) / step);
  }
  // monthly and yearly: estimate from the month distance, then settle (at most a step or two)
  const stepMonths = s.interval * (s.frequency === 'yearly' ? 12 : 1);
  n = Math.max(0, Math.floor((monthIndex(date) - monthIndex(s.startDate)) / stepMonths) - 1);
  while (n > 0 && occurrence(s, n - 1) >= date) n--;
  while (occurrence(s, n) < date) n++;
  return n;
}

/** The first occurrence on or after `date`, or null when it would fall after endDate. */
export function firstOnOrAfter(s: Schedule, date: string): string | null {
  const d = occurrence(s, indexOnOrAfter(s, date));
  return s.endDate !== null && d > s.endDate ? null : d;
}

/**
 * The occurrences from `from` (inclusive) up to `today` (inclusive) and the next occurrence after
 * them (null when the schedule has ended). `from` is normally the rule's next_date.
 */
export function dueOccurrences(
  s: Schedule,
  from: string,
  today: string,
  max = Number.POSITIVE_INFINITY,
): { dates: string[]; next: string | null } {
  const dates: string[] = [];
  const last = s.endDate !== null && s.endDate < today ? s.endDate : today;
  let n = indexOnOrAfter(s, from);
  let d = occurrence(s, n);
  while (d <= last && dates.length < max) {
    dates.push(d);
    d = occurrence(s, ++n);
  }
  return { dates, next: s.endDate !== null && d > s.endDate ? null : d };
}

/** Every occurrence from startDate up to `until` inclusive (and endDate); for listings and tests. */
export function occurrencesUntil(s: Schedule, until: string): string[] {
  return dueOccurrences(s, s.startDate, until).dates;
}
