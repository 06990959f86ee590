import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addDays } from '../../src/lib/dates.ts';
import {
  dueOccurrences,
  firstOnOrAfter,
  indexOnOrAfter,
  occurrence,
  occurrencesUntil,
  type Schedule,
} from '../../src/lib/recurrence.ts';

const rule = (
  frequency: Schedule['frequency'],
  startDate: string,
  interval = 1,
  endDate: string | null = null,
): Schedule => ({
  frequency,
  interval,
  startDate,
  endDate,
});

describe('recurrence: n-th occurrence', () => {
  const table: [string, Schedule, string[]][] = [
    ['daily', rule('daily', '2026-02-27'), ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']],
    [
      'daily every 3 days across a leap day',
      rule('daily', '2028-02-26', 3),
      ['2028-02-26', '2028-02-29', '2028-03-03', '2028-03-06'],
    ],
    [
      'daily every 365 days',
      rule('daily', '2027-03-01', 365),
      ['2027-03-01', '2028-02-29', '2029-02-28', '2030-02-28'],
    ],
    ['weekly', rule('weekly', '2026-12-24'), ['2026-12-24', '2026-12-31', '2027-01-07', '2027-01-14']],
    ['every 2 weeks', rule('weekly', '2026-01-05', 2), ['2026-01-05', '2026-01-19', '2026-02-02', '2026-02-16']],
    [
      'monthly on the 31st: last day of shorter months, back to the 31st after',
      rule('monthly', '2026-01-31'),
      ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31'],
    ],
    ['monthly on the 31st in a leap year', rule('monthly', '2028-01-31'), ['2028-01-31', '2028-02-29', '2028-03-31']],
    [
      'monthly on the 30th keeps the 30th after February',
      rule('monthly', '2026-01-30'),
      ['2026-01-30', '2026-02-28', '2026-03-30'],
    ],
    ['monthly on the 29th', rule('monthly', '2027-12-29'), ['2027-12-29', '2028-01-29', '2028-02-29', '2028-03-29']],
    [
      'every 3 months across a year end',
      rule('monthly', '2026-11-30', 3),
      ['2026-11-30', '2027-02-28', '2027-05-30', '2027-08-30'],
    ],
    [
      'every 12 months',
      rule('monthly', '2024-02-29', 12),
      ['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29'],
    ],
    [
      'yearly on 29 February: 28 February in common years, 29 again in leap years',
      rule('yearly', '2024-02-29'),
      ['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29', '2029-02-28'],
    ],
    ['every 4 years on 29 February', rule('yearly', '2096-02-29', 4), ['2096-02-29', '2100-02-28', '2104-02-29']],
    ['yearly every 2 years', rule('yearly', '2026-12-31', 2), ['2026-12-31', '2028-12-31', '2030-12-31']],
  ];
  for (const [name, s, expected] of table) {
    it(name, () => {
      assert.deepEqual(
        expected.map((_, n) => occurrence(s, n)),
        expected,
      );
    });
  }

  it('refuses a negative or fractional index', () => {
    assert.throws(() => occurrence(rule('daily', '2026-01-01'), -1), RangeError);
    assert.throws(() => occurrence(rule('daily', '2026-01-01'), 1.5), RangeError);
  });

  it('reaches far indexes directly, without drift', () => {
    assert.equal(occurrence(rule('monthly', '2026-01-31'), 13), '2027-02-28');
    assert.equal(occurrence(rule('monthly', '2026-01-31'), 14), '2027-03-31');
    assert.equal(occurrence(rule('monthly', '2026-01-31'), 1200), '2126-01-31');
    assert.equal(occurrence(rule('daily', '2026-01-01'), 365), '2027-01-01');
  });
});

describe('recurrence: first occurrence on or after a date', () => {
  const table: [string, Schedule, string, string | null][] = [
    ['before the start', rule('monthly', '2026-03-15'), '2020-01-01', '2026-03-15'],
    ['on the start', rule('monthly', '2026-03-15'), '2026-03-15', '2026-03-15'],
    ['the day after an occurrence', rule('monthly', '2026-03-15'), '2026-03-16', '2026-04-15'],
    ['on an occurrence', rule('monthly', '2026-01-31'), '2026-04-30', '2026-04-30'],
    ['between clamped occurrences', rule('monthly', '2026-01-31'), '2026-03-01', '2026-03-31'],
    ['daily interval rounds up', rule('daily', '2026-01-01', 10), '2026-01-12', '2026-01-21'],
    ['weekly', rule('weekly', '2026-01-01'), '2026-01-09', '2026-01-15'],
    ['yearly leap day', rule('yearly', '2024-02-29'), '2027-03-01', '2028-02-29'],
    ['every 5 years', rule('yearly', '2020-06-30', 5), '2021-01-01', '2025-06-30'],
    ['after the end', rule('daily', '2026-01-01', 1, '2026-01-10'), '2026-01-11', null],
    ['the end itself', rule('weekly', '2026-01-01', 1, '2026-01-15'), '2026-01-09', '2026-01-15'],
    ['next would pass the end', rule('monthly', '2026-01-31', 1, '2026-04-29'), '2026-04-01', null],
  ];
  for (const [name, s, date, expected] of table) {
    it(name, () => assert.equal(firstOnOrAfter(s, date), expected));
  }

  it('agrees with a brute-force scan for every day of four years', () => {
    const schedules = [
      rule('daily', '2027-02-28', 7),
      rule('weekly', '2026-05-03', 3),
      rule('monthly', '2026-01-31'),
      rule('monthly', '2026-08-29', 5),
      rule('yearly', '2024-02-29'),
      rule('yearly', '2026-12-31', 2),
    ];
    for (const s of schedules) {
      const all = occurrencesUntil(s, '2032-12-31');
      let day = '2026-01-01';
      for (let i = 0; i < 4 * 366; i++) {
        const expected = all.find((d) => d >= day);
        assert.equal(occurrence(s, indexOnOrAfter(s, day)), expected, `${JSON.stringify(s)} from ${day}`);
        const [y, m, d] = day.split('-').map(Number) as [number, number, number];
        day = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
      }
    }
  });
});

describe('recurrence: due occurrences (catch-up)', () => {
  it('lists every missed occurrence up to today and the next one', () => {
    const s = rule('monthly', '2026-01-31');
    assert.deepEqual(dueOccurrences(s, '2026-01-31', '2026-05-15'), {
      dates: ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30'],
      next: '2026-05-31',
    });
  });

  it('includes today', () => {
    assert.deepEqual(dueOccurrences(rule('daily', '2026-03-01'), '2026-03-02', '2026-03-03'), {
      dates: ['2026-03-02', '2026-03-03'],
      next: '2026-03-04',
    });
  });

  it('yields nothing when the next occurrence is in the future', () => {
    assert.deepEqual(dueOccurrences(rule('weekly', '2026-03-01'), '2026-03-08', '2026-03-07'), {
      dates: [],
      next: '2026-03-08',
    });
  });

  it('stops at end_date (inclusive) and then has no next date', () => {
    const s = rule('daily', '2026-03-01', 2, '2026-03-07');
    assert.deepEqual(dueOccurrences(s, '2026-03-01', '2026-12-31'), {
      dates: ['2026-03-01', '2026-03-03', '2026-03-05', '2026-03-07'],
      next: null,
    });
    const ending = rule('monthly', '2026-01-15', 1, '2026-03-15');
    assert.deepEqual(dueOccurrences(ending, '2026-01-15', '2026-02-20'), {
      dates: ['2026-01-15', '2026-02-15'],
      next: '2026-03-15',
    });
    assert.deepEqual(dueOccurrences(ending, '2026-03-15', '2026-03-15'), { dates: ['2026-03-15'], next: null });
  });

  it('honours a maximum count and resumes where it stopped', () => {
    const s = rule('daily', '2026-01-01');
    const first = dueOccurrences(s, '2026-01-01', '2026-01-10', 4);
    assert.deepEqual(first, { dates: ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04'], next: '2026-01-05' });
    assert.equal(dueOccurrences(s, first.next!, '2026-01-10').dates.length, 6);
  });

  it('yearly on 29 February over a decade', () => {
    assert.deepEqual(occurrencesUntil(rule('yearly', '2028-02-29', 1, '2033-12-31'), '2040-01-01'), [
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
      '2033-02-28',
    ]);
  });
});

describe('recurrence (properties)', () => {
  const schedule = fc.record({
    frequency: fc.constantFrom<Schedule['frequency']>('daily', 'weekly', 'monthly', 'yearly'),
    interval: fc.integer({ min: 1, max: 365 }),
    startDate: fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2060-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    endDate: fc.constant(null),
  });
  const offset = fc.integer({ min: -400, max: 4000 });

  it('finds the first occurrence on or after any date: not before it, and the one before is', () => {
    fc.assert(
      fc.property(schedule, offset, (s, k) => {
        const date = addDays(s.startDate, k);
        const n = indexOnOrAfter(s, date);
        assert.ok(occurrence(s, n) >= date || n === 0);
        if (n > 0) assert.ok(occurrence(s, n - 1) < date);
        assert.ok(occurrence(s, n) >= s.startDate);
      }),
      { numRuns: 500 },
    );
  });

  it('lists due dates strictly increasing, ending at today, resumable from where it stopped', () => {
    fc.assert(
      fc.property(schedule, fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 1, max: 5 }), (s, k, max) => {
        const today = addDays(s.startDate, k);
        const all = dueOccurrences(s, s.startDate, today);
        for (let i = 1; i < all.dates.length; i++) assert.ok(all.dates[i - 1]! < all.dates[i]!);
        for (const d of all.dates) assert.ok(d >= s.startDate && d <= today);
        assert.ok(all.next !== null && all.next > today);
        // taken a few at a time, resuming from each answer's next date, the same dates come out
        const pieces: string[] = [];
        let from = s.startDate;
        for (let guard = 0; guard < 2000; guard++) {
          const part = dueOccurrences(s, from, today, max);
          pieces.push(...part.dates);
          if (part.dates.length < max || part.next === null) break;
          from = part.next;
        }
        assert.deepEqual(pieces, all.dates);
      }),
      { numRuns: 300 },
    );
  });
});
