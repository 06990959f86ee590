import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  addDays,
  addMonthsClamped,
  daysInMonth,
  diffDays,
  eachDay,
  eachMonth,
  instantIn,
  isLeapYear,
  isValidDate,
  isValidMonth,
  isoWeekday,
  monthRange,
  periodRange,
  previousPeriodRange,
  todayIn,
  type Period,
} from '../../src/lib/dates.ts';

describe('todayIn', () => {
  const cases: [string, string, string][] = [
    // UTC+14: the first zone to start a day
    ['Pacific/Kiritimati', '2026-01-01T09:59:59.999Z', '2026-01-01'],
    ['Pacific/Kiritimati', '2026-01-01T10:00:00.000Z', '2026-01-02'],
    ['Pacific/Kiritimati', '2025-12-31T10:00:00.000Z', '2026-01-01'],
    // UTC-12: the last
    ['Etc/GMT+12', '2026-01-01T11:59:59.999Z', '2025-12-31'],
    ['Etc/GMT+12', '2026-01-01T12:00:00.000Z', '2026-01-01'],
    ['Etc/GMT+12', '2024-03-01T11:00:00.000Z', '2024-02-29'],
    // the same instant is three different dates around the world
    ['UTC', '2026-06-15T11:30:00.000Z', '2026-06-15'],
    ['Pacific/Kiritimati', '2026-06-15T11:30:00.000Z', '2026-06-16'],
    ['Etc/GMT+12', '2026-06-15T11:30:00.000Z', '2026-06-14'],
    // New York: spring forward 2026-03-08 02:00 EST -> 03:00 EDT
    ['America/New_York', '2026-03-08T04:59:59.999Z', '2026-03-07'],
    ['America/New_York', '2026-03-08T05:00:00.000Z', '2026-03-08'],
    ['America/New_York', '2026-03-09T03:59:59.999Z', '2026-03-08'],
    ['America/New_York', '2026-03-09T04:00:00.000Z', '2026-03-09'],
    // New York: fall back 2026-11-01 02:00 EDT -> 01:00 EST
    ['America/New_York', '2026-11-01T03:59:59.999Z', '2026-10-31'],
    ['America/New_York', '2026-11-01T04:00:00.000Z', '2026-11-01'],
    ['America/New_York', '2026-11-02T04:59:59.999Z', '2026-11-01'],
    ['America/New_York', '2026-11-02T05:00:00.000Z', '2026-11-02'],
    // Berlin: spring forward 2026-03-29 (CET +1 -> CEST +2)
    ['Europe/Berlin', '2026-03-28T22:59:59.999Z', '2026-03-28'],
    ['Europe/Berlin', '2026-03-28T23:00:00.000Z', '2026-03-29'],
    ['Europe/Berlin', '2026-03-29T21:59:59.999Z', '2026-03-29'],
    ['Europe/Berlin', '2026-03-29T22:00:00.000Z', '2026-03-30'],
    // Berlin: fall back 2026-10-25
    ['Europe/Berlin', '2026-10-24T21:59:59.999Z', '2026-10-24'],
    ['Europe/Berlin', '2026-10-24T22:00:00.000Z', '2026-10-25'],
    ['Europe/Berlin', '2026-10-25T22:59:59.999Z', '2026-10-25'],
    ['Europe/Berlin', '2026-10-25T23:00:00.000Z', '2026-10-26'],
    // a zone with a half-hour offset
    ['Asia/Kolkata', '2026-05-31T18:29:59.999Z', '2026-05-31'],
    ['Asia/Kolkata', '2026-05-31T18:30:00.000Z', '2026-06-01'],
    // years below 1000 keep four digits
    ['UTC', '0099-06-01T00:00:00.000Z', '0099-06-01'],
  ];
  for (const [tz, instant, expected] of cases) {
    it(`${instant} in ${tz} is ${expected}`, () => assert.equal(todayIn(tz, new Date(instant)), expected));
  }
});

describe('calendar basics', () => {
  it('knows leap years: 2024 yes, 2100 no, 2000 yes, 2026 no', () => {
    assert.equal(isLeapYear(2024), true);
    assert.equal(isLeapYear(2100), false);
    assert.equal(isLeapYear(2000), true);
    assert.equal(isLeapYear(2026), false);
    assert.equal(daysInMonth(2024, 2), 29);
    assert.equal(daysInMonth(2100, 2), 28);
    assert.equal(daysInMonth(2000, 2), 29);
    assert.equal(daysInMonth(2026, 4), 30);
    assert.equal(daysInMonth(2026, 12), 31);
  });

  it('validates dates and months', () => {
    for (const ok of ['2024-02-29', '2000-02-29', '2026-12-31', '2026-01-01']) assert.equal(isValidDate(ok), true, ok);
    for (const bad of [
      '2100-02-29',
      '2026-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-1-01',
      '26-01-01',
      '2026-01-01T00:00',
      '',
    ])
      assert.equal(isValidDate(bad), false, bad);
    for (const ok of ['2026-01', '2026-12']) assert.equal(isValidMonth(ok), true, ok);
    for (const bad of ['2026-00', '2026-13', '2026-1', '2026']) assert.equal(isValidMonth(bad), false, bad);
  });

  it('adds days across month, year and leap-day boundaries', () => {
    assert.equal(addDays('2024-02-28', 1), '2024-02-29');
    assert.equal(addDays('2100-02-28', 1), '2100-03-01');
    assert.equal(addDays('2000-02-28', 1), '2000-02-29');
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
    assert.equal(addDays('2026-01-01', -1), '2025-12-31');
    assert.equal(addDays('2026-03-08', 1), '2026-03-09');
    assert.equal(addDays('0099-12-31', 1), '0100-01-01');
    assert.equal(diffDays('2024-01-01', '2025-01-01'), 366);
    assert.equal(diffDays('2026-03-01', '2026-02-01'), -28);
  });

  it('numbers ISO weekdays Monday 1 to Sunday 7', () => {
    assert.equal(isoWeekday('2026-01-05'), 1);
    assert.equal(isoWeekday('2026-01-04'), 7);
    assert.equal(isoWeekday('2024-02-29'), 4);
  });
});

describe('periodRange', () => {
  const cases: [Period, string, string, string][] = [
    // weeks run Monday to Sunday
    ['week', '2026-01-05', '2026-01-05', '2026-01-11'],
    ['week', '2026-01-11', '2026-01-05', '2026-01-11'],
    ['week', '2026-01-01', '2025-12-29', '2026-01-04'],
    ['week', '2024-12-31', '2024-12-30', '2025-01-05'],
    ['week', '2026-03-01', '2026-02-23', '2026-03-01'],
    ['week', '2024-02-29', '2024-02-26', '2024-03-03'],
    ['week', '2100-02-28', '2100-02-22', '2100-02-28'],
    ['week', '2100-03-01', '2100-03-01', '2100-03-07'],
    ['week', '2026-03-08', '2026-03-02', '2026-03-08'],
    // calendar months
    ['month', '2026-01-15', '2026-01-01', '2026-01-31'],
    ['month', '2026-04-30', '2026-04-01', '2026-04-30'],
    ['month', '2024-02-10', '2024-02-01', '2024-02-29'],
    ['month', '2100-02-10', '2100-02-01', '2100-02-28'],
    ['month', '2000-02-29', '2000-02-01', '2000-02-29'],
    ['month', '2026-12-31', '2026-12-01', '2026-12-31'],
    // calendar years
    ['year', '2026-06-15', '2026-01-01', '2026-12-31'],
    ['year', '2024-12-31', '2024-01-01', '2024-12-31'],
  ];
  for (const [period, anchor, start, end] of cases) {
    it(`${period} of ${anchor} is ${start}..${end}`, () =>
      assert.deepEqual(periodRange(period, anchor), { start, end }));
  }

  it('gives month ranges by YYYY-MM', () => {
    assert.deepEqual(monthRange('2024-02'), { start: '2024-02-01', end: '2024-02-29' });
    assert.deepEqual(monthRange('2100-02'), { start: '2100-02-01', end: '2100-02-28' });
    assert.deepEqual(monthRange('2026-11'), { start: '2026-11-01', end: '2026-11-30' });
  });
});

describe('previousPeriodRange', () => {
  const cases: [Period, string, string, string][] = [
    ['week', '2026-01-07', '2025-12-29', '2026-01-04'],
    ['week', '2026-01-01', '2025-12-22', '2025-12-28'],
    ['month', '2026-03-31', '2026-02-01', '2026-02-28'],
    ['month', '2024-03-31', '2024-02-01', '2024-02-29'],
    ['month', '2026-01-15', '2025-12-01', '2025-12-31'],
    ['month', '2100-03-01', '2100-02-01', '2100-02-28'],
    ['year', '2026-06-15', '2025-01-01', '2025-12-31'],
    ['year', '2001-01-01', '2000-01-01', '2000-12-31'],
  ];
  for (const [period, anchor, start, end] of cases) {
    it(`the ${period} before ${anchor} is ${start}..${end}`, () =>
      assert.deepEqual(previousPeriodRange(period, anchor), { start, end }));
  }
});

describe('eachDay and eachMonth', () => {
  it('lists every day inclusive, across leap days and year ends', () => {
    assert.deepEqual(eachDay('2024-02-27', '2024-03-01'), ['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    assert.deepEqual(eachDay('2100-02-27', '2100-03-01'), ['2100-02-27', '2100-02-28', '2100-03-01']);
    assert.deepEqual(eachDay('2025-12-30', '2026-01-02'), ['2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02']);
    assert.deepEqual(eachDay('2026-05-05', '2026-05-05'), ['2026-05-05']);
    assert.deepEqual(eachDay('2026-05-06', '2026-05-05'), []);
    assert.equal(eachDay('2024-01-01', '2024-12-31').length, 366);
    assert.equal(eachDay('2026-03-01', '2026-03-31').length, 31);
  });

  it('lists every month inclusive as YYYY-MM', () => {
    assert.deepEqual(eachMonth('2025-11-15', '2026-02-01'), ['2025-11', '2025-12', '2026-01', '2026-02']);
    assert.deepEqual(eachMonth('2026-01-31', '2026-01-31'), ['2026-01']);
    assert.equal(eachMonth('2026-01-01', '2026-12-31').length, 12);
    assert.deepEqual(eachMonth('2026-03-01', '2026-02-01'), []);
  });
});

describe('addMonthsClamped', () => {
  const cases: [string, number, number | undefined, string][] = [
    ['2026-01-31', 1, undefined, '2026-02-28'],
    ['2024-01-31', 1, undefined, '2024-02-29'],
    ['2026-01-31', 2, undefined, '2026-03-31'],
    ['2026-03-31', 1, undefined, '2026-04-30'],
    ['2026-12-31', 1, undefined, '2027-01-31'],
    ['2026-01-31', -2, undefined, '2025-11-30'],
    ['2026-03-31', -1, undefined, '2026-02-28'],
    ['2024-02-29', 12, undefined, '2025-02-28'],
    ['2024-02-29', 48, undefined, '2028-02-29'],
    ['2096-02-29', 48, undefined, '2100-02-28'],
    ['1996-02-29', 48, undefined, '2000-02-29'],
    ['2026-01-15', 0, undefined, '2026-01-15'],
    // a rule's original day comes back in longer months
    ['2026-02-28', 1, 31, '2026-03-31'],
    ['2026-04-30', 1, 31, '2026-05-31'],
    ['2025-02-28', 12, 29, '2026-02-28'],
    ['2027-02-28', 12, 29, '2028-02-29'],
  ];
  for (const [start, n, day, expected] of cases) {
    it(`${start} + ${n} month(s)${day ? ` on day ${day}` : ''} is ${expected}`, () =>
      assert.equal(addMonthsClamped(start, n, day), expected));
  }
});

describe('calendar arithmetic (properties)', () => {
  const day = fc
    .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9998-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
  const span = fc.integer({ min: -3000, max: 3000 });

  it('adds and subtracts days as inverses, and diffDays measures the step', () => {
    fc.assert(
      fc.property(day, span, (d, n) => {
        const moved = addDays(d, n);
        if (moved < '0001-01-01') return;
        assert.ok(isValidDate(moved), moved);
        assert.equal(addDays(moved, -n), d);
        assert.equal(diffDays(d, moved), n);
        assert.equal(isoWeekday(moved), ((((isoWeekday(d) - 1 + n) % 7) + 7) % 7) + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('puts every date inside its week, month and year, right after the previous period', () => {
    fc.assert(
      fc.property(
        day.filter((d) => d >= '0002-01-01'),
        fc.constantFrom<Period>('week', 'month', 'year'),
        (d, period) => {
          const { start, end } = periodRange(period, d);
          assert.ok(start <= d && d <= end, `${start} ${d} ${end}`);
          const prev = previousPeriodRange(period, d);
          assert.equal(addDays(prev.end, 1), start);
          assert.equal(eachDay(start, end).length, diffDays(start, end) + 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('adds months keeping the day where the month has it, else its last day', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: -120, max: 120 }), (d, n) => {
        const moved = addMonthsClamped(d, n);
        const [y, m] = moved.split('-').map(Number) as [number, number];
        // outside the years 1 to 9999 there is no YYYY-MM-DD form to check
        if (y < 1 || y > 9999) return;
        assert.ok(isValidDate(moved), moved);
        assert.equal(Number(moved.slice(8)), Math.min(Number(d.slice(8)), daysInMonth(y, m)));
        assert.equal(y * 12 + m - (Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7))), n);
      }),
      { numRuns: 500 },
    );
  });
});

describe('instantIn: a wall-clock time in a time zone', () => {
  /** the zone's offset read afresh for one instant (no formatter or hour kept between calls) */
  const offsetOnce = (tz: string, t: number) => {
    const f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, Number(x.value)]));
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - t;
  };
  const reference = (tz: string, date: string, time: string) => {
    const wall = Date.parse(`${date}T${time}Z`);
    return new Date(wall - offsetOnce(tz, wall - offsetOnce(tz, wall)));
  };

  it('reads ordinary times, and the two days a year the clock changes', () => {
    assert.equal(instantIn('Asia/Shanghai', '2025-01-05', '12:00:00').toISOString(), '2025-01-05T04:00:00.000Z');
    assert.equal(instantIn('America/New_York', '2024-07-01', '12:00:00').toISOString(), '2024-07-01T16:00:00.000Z');
    assert.equal(instantIn('America/New_York', '2024-01-15', '12:00:00').toISOString(), '2024-01-15T17:00:00.000Z');
    // 01:30 happens twice on the night the clocks go back: the first (summer time) is taken
    assert.equal(instantIn('America/New_York', '2024-11-03', '01:30:00').toISOString(), '2024-11-03T05:30:00.000Z');
    assert.equal(instantIn('America/New_York', '2024-11-03', '02:30:00').toISOString(), '2024-11-03T07:30:00.000Z');
    // 02:30 does not happen the night the clocks go forward: read with the offset after the change
    assert.equal(instantIn('America/New_York', '2024-03-10', '02:30:00').toISOString(), '2024-03-10T06:30:00.000Z');
    assert.equal(instantIn('America/New_York', '2024-03-10', '03:30:00').toISOString(), '2024-03-10T07:30:00.000Z');
    // a half-hour change (Lord Howe Island: 01:30 to 02:00 happens twice, read here at the offset after the
    // change) and an offset in seconds (Shanghai's local mean time in 1900)
    assert.equal(instantIn('Australia/Lord_Howe', '2024-04-07', '01:45:00').toISOString(), '2024-04-06T15:15:00.000Z');
    assert.equal(instantIn('Australia/Lord_Howe', '2024-04-07', '03:00:00').toISOString(), '2024-04-06T16:30:00.000Z');
    assert.equal(instantIn('Asia/Shanghai', '1900-06-01', '12:00:00').toISOString(), '1900-06-01T03:54:17.000Z');
  });

  it('answers as a reading of the zone afresh for each time would, through every change of offset', () => {
    const zones = [
      'America/New_York',
      'Europe/Berlin',
      'Australia/Lord_Howe',
      'Asia/Shanghai',
      'America/Santiago',
      'UTC',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        // around the changes of 2023 to 2025, minute by minute, and any second of those years
        fc.integer({ min: Date.UTC(2023, 0, 1) / 1000, max: Date.UTC(2025, 11, 31) / 1000 }),
        (tz, seconds) => {
          const iso = new Date(seconds * 1000).toISOString();
          const [date, time] = [iso.slice(0, 10), iso.slice(11, 19)];
          assert.equal(
            instantIn(tz, date, time).getTime(),
            reference(tz, date, time).getTime(),
            `${tz} ${date} ${time}`,
          );
        },
      ),
      { numRuns: 3000 },
    );
    // every quarter hour of the nights the clocks change
    for (const [tz, day] of [
      ['America/New_York', '2024-03-10'],
      ['America/New_York', '2024-11-03'],
      ['Europe/Berlin', '2024-03-31'],
      ['Europe/Berlin', '2024-10-27'],
      ['Australia/Lord_Howe', '2024-04-07'],
      ['Australia/Lord_Howe', '2024-10-06'],
    ] as const)
      for (let q = 0; q < 96; q++) {
        const time = `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}:00`;
        assert.equal(instantIn(tz, day, time).getTime(), reference(tz, day, time).getTime(), `${tz} ${day} ${time}`);
      }
  });
});
