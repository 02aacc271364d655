// Unit tests for the pure date filter value resolver (Baserow 1.35 date view filters).
import {
  DateFilterCondition,
  DateInterval,
  MULTI_STEP_DATE_FILTER_TYPES,
  LEGACY_DATE_FILTER_TYPES,
  isDateFilterType,
  isValidTimeZone,
  localDateString,
  matchesDateFilter,
  resolveDateFilter,
  startOfDayInTimeZone,
} from '../src/database/filters/date-filter-value';

const iso = (d: Date | undefined) => d?.toISOString();

function range(cond: DateFilterCondition): DateInterval {
  if (cond.kind !== 'range') throw new Error(`expected a range, got ${JSON.stringify(cond)}`);
  expect(cond.ranges).toHaveLength(1);
  return cond.ranges[0];
}

/** Calendar-date view of a single-interval range: [fromDate, toDate). */
function dates(cond: DateFilterCondition): [string | undefined, string | undefined] {
  const r = range(cond);
  return [r.fromDate, r.toDate];
}

function instants(cond: DateFilterCondition): [string | undefined, string | undefined] {
  const r = range(cond);
  return [iso(r.from), iso(r.to)];
}

describe('time zone helpers', () => {
  it('validates IANA names like Python zoneinfo', () => {
    for (const tz of ['UTC', 'GMT', 'CET', 'Europe/Amsterdam', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires']) {
      expect(isValidTimeZone(tz)).toBe(true);
    }
    for (const tz of ['', 'utc', 'europe/amsterdam', 'Foo/Bar', '+01:00', ' UTC', 'Europe/Amsterdam ', 'Mars/Olympus_Mons']) {
      expect(isValidTimeZone(tz)).toBe(false);
    }
  });

  it('finds the start of local days across DST changes', () => {
    expect(iso(startOfDayInTimeZone('2024-03-31', 'Europe/Amsterdam'))).toBe('2024-03-30T23:00:00.000Z');
    expect(iso(startOfDayInTimeZone('2024-04-01', 'Europe/Amsterdam'))).toBe('2024-03-31T22:00:00.000Z');
    expect(iso(startOfDayInTimeZone('2024-10-27', 'Europe/Amsterdam'))).toBe('2024-10-26T22:00:00.000Z');
    expect(iso(startOfDayInTimeZone('2024-10-28', 'Europe/Amsterdam'))).toBe('2024-10-27T23:00:00.000Z');
    expect(iso(startOfDayInTimeZone('2024-03-10', 'America/New_York'))).toBe('2024-03-10T05:00:00.000Z');
    expect(iso(startOfDayInTimeZone('2024-03-11', 'America/New_York'))).toBe('2024-03-11T04:00:00.000Z');
    expect(iso(startOfDayInTimeZone('2024-05-24', 'Asia/Kolkata'))).toBe('2024-05-23T18:30:00.000Z');
    // Chile springs forward at midnight: 2024-09-08 starts at 01:00 -03 (04:00Z).
    expect(iso(startOfDayInTimeZone('2024-09-08', 'America/Santiago'))).toBe('2024-09-08T04:00:00.000Z');
    expect(iso(startOfDayInTimeZone('0001-01-01', 'UTC'))).toBe('0001-01-01T00:00:00.000Z');
  });

  it('gives the local calendar date of an instant', () => {
    expect(localDateString(new Date('2024-05-23T19:00:00Z'), 'Asia/Kolkata')).toBe('2024-05-24');
    expect(localDateString(new Date('2024-05-23T19:00:00Z'), 'America/New_York')).toBe('2024-05-23');
    expect(localDateString(new Date('2024-03-31T22:00:00Z'), 'Europe/Amsterdam')).toBe('2024-04-01');
    expect(localDateString(new Date('2024-03-31T21:59:59.999Z'), 'Europe/Amsterdam')).toBe('2024-03-31');
  });

  it('recognises date filter types', () => {
    expect(MULTI_STEP_DATE_FILTER_TYPES).toHaveLength(7);
    expect(LEGACY_DATE_FILTER_TYPES).toHaveLength(20);
    expect(isDateFilterType('date_is_within')).toBe(true);
    expect(isDateFilterType('date_equals_day_of_month')).toBe(true);
    expect(isDateFilterType('contains')).toBe(false);
    expect(() => resolveDateFilter('equal', 'x', new Date(), true)).toThrow(/not a date filter/);
  });
});

// Baserow's own matrix (backend/tests/.../view/date_utils.py): today is Friday 2024-05-24
// 09:30 UTC and rows hold today ± 1 day/week/month/year.
describe('multi-step filters: Baserow operator matrix', () => {
  const NOW = new Date('2024-05-24T09:30:00Z');
  const ROWS: Record<string, string> = {
    '-1d': '2024-05-23',
    now: '2024-05-24',
    '+1d': '2024-05-25',
    '-1w': '2024-05-17',
    '-1m': '2024-04-24',
    '-1y': '2023-05-24',
    '+1w': '2024-05-31',
    '+1m': '2024-06-24',
    '+1y': '2025-05-24',
  };
  const ALL = Object.keys(ROWS);
  const not = (...keys: string[]) => ALL.filter((k) => !keys.includes(k));

  type Case = [operator: string, value: string, expected: string[]];
  const MATRIX: Record<string, Case[]> = {
    date_is: [
      ['yesterday', '', ['-1d']],
      ['today', '', ['now']],
      ['tomorrow', '', ['+1d']],
      ['one_week_ago', '', ['-1w']],
      ['one_month_ago', '', ['-1m']],
      ['one_year_ago', '', ['-1y']],
      ['this_week', '', ['-1d', 'now', '+1d']],
      ['this_month', '', ['-1d', 'now', '+1d', '-1w', '+1w']],
      ['this_year', '', ['-1d', 'now', '+1d', '-1w', '-1m', '+1w', '+1m']],
      ['next_week', '', ['+1w']],
      ['next_month', '', ['+1m']],
      ['next_year', '', ['+1y']],
      ['nr_days_ago', '7', ['-1w']],
      ['nr_weeks_ago', '1', ['-1w']],
      ['nr_months_ago', '1', ['-1m']],
      ['nr_years_ago', '1', ['-1y']],
      ['nr_days_from_now', '7', ['+1w']],
      ['nr_weeks_from_now', '1', ['+1w']],
      ['nr_months_from_now', '1', ['+1m']],
      ['nr_years_from_now', '1', ['+1y']],
      ['exact_date', '2024-05-24', ['now']],
    ],
    date_is_not: [
      ['yesterday', '', not('-1d')],
      ['today', '', not('now')],
      ['this_week', '', not('-1d', 'now', '+1d')],
      ['this_month', '', ['-1y', '-1m', '+1m', '+1y']],
      ['this_year', '', ['-1y', '+1y']],
      ['nr_days_ago', '7', not('-1w')],
      ['exact_date', '2024-05-24', not('now')],
    ],
    date_is_before: [
      ['yesterday', '', ['-1w', '-1m', '-1y']],
      ['today', '', ['-1d', '-1w', '-1m', '-1y']],
      ['one_week_ago', '', ['-1m', '-1y']],
      ['one_year_ago', '', []],
      ['this_week', '', ['-1w', '-1m', '-1y']],
      ['next_week', '', ['-1d', 'now', '+1d', '-1w', '-1m', '-1y']],
      ['next_month', '', ['-1d', 'now', '+1d', '-1w', '-1m', '-1y', '+1w']],
      ['nr_months_from_now', '1', ['-1d', 'now', '+1d', '-1w', '-1m', '-1y', '+1w']],
      ['exact_date', '2024-05-24', ['-1d', '-1w', '-1m', '-1y']],
    ],
    date_is_on_or_before: [
      ['today', '', ['-1d', 'now', '-1w', '-1m', '-1y']],
      ['this_month', '', ['-1d', 'now', '+1d', '-1w', '-1m', '-1y', '+1w']],
      ['next_year', '', ALL],
      ['nr_weeks_ago', '1', ['-1w', '-1m', '-1y']],
      ['exact_date', '2024-05-24', ['-1d', 'now', '-1w', '-1m', '-1y']],
    ],
    date_is_after: [
      ['today', '', ['+1d', '+1w', '+1m', '+1y']],
      ['one_month_ago', '', ['-1w', '-1d', 'now', '+1d', '+1w', '+1m', '+1y']],
      ['this_week', '', ['+1w', '+1m', '+1y']],
      ['next_week', '', ['+1m', '+1y']],
      ['next_year', '', []],
      ['nr_days_from_now', '7', ['+1m', '+1y']],
      ['exact_date', '2024-05-24', ['+1d', '+1w', '+1m', '+1y']],
    ],
    date_is_on_or_after: [
      ['yesterday', '', ['-1d', 'now', '+1d', '+1w', '+1m', '+1y']],
      ['one_year_ago', '', ALL],
      ['this_year', '', ['-1d', 'now', '+1d', '-1m', '-1w', '+1w', '+1m', '+1y']],
      ['nr_months_ago', '1', ['-1m', '-1w', '-1d', 'now', '+1d', '+1w', '+1m', '+1y']],
      ['exact_date', '2024-05-24', ['now', '+1d', '+1w', '+1m', '+1y']],
    ],
    date_is_within: [
      ['yesterday', '', ['-1d', 'now']],
      ['tomorrow', '', ['now', '+1d']],
      ['one_week_ago', '', ['-1d', 'now', '-1w']],
      ['one_month_ago', '', ['-1d', 'now', '-1w', '-1m']],
      ['one_year_ago', '', ['-1d', 'now', '-1w', '-1m', '-1y']],
      ['this_week', '', ['now', '+1d']],
      ['this_month', '', ['now', '+1d', '+1w']],
      ['this_year', '', ['now', '+1d', '+1w', '+1m']],
      ['next_week', '', ['now', '+1d', '+1w']],
      ['next_month', '', ['now', '+1d', '+1w', '+1m']],
      ['next_year', '', ['now', '+1d', '+1w', '+1m', '+1y']],
      ['nr_days_from_now', '7', ['now', '+1d', '+1w']],
      ['nr_weeks_from_now', '1', ['now', '+1d', '+1w']],
      ['nr_months_from_now', '1', ['now', '+1d', '+1w', '+1m']],
      ['nr_years_from_now', '1', ['now', '+1d', '+1w', '+1m', '+1y']],
      ['nr_days_ago', '7', ['now', '-1d', '-1w']],
      ['nr_weeks_ago', '1', ['now', '-1d', '-1w']],
      ['nr_months_ago', '1', ['now', '-1d', '-1w', '-1m']],
      ['nr_years_ago', '1', ['now', '-1d', '-1w', '-1m', '-1y']],
      ['exact_date', '2024-05-25', ['now', '+1d']],
    ],
  };

  for (const [type, cases] of Object.entries(MATRIX)) {
    for (const [operator, value, expected] of cases) {
      it(`${type} ${operator}${value ? ` ${value}` : ''}`, () => {
        const filterValue = `UTC?${value}?${operator}`;
        const onDates = resolveDateFilter(type, filterValue, NOW, false);
        const onTimestamps = resolveDateFilter(type, filterValue, NOW, true);
        const matchedDates = ALL.filter((k) => matchesDateFilter(onDates, ROWS[k], false));
        // Timestamp rows are "today ± delta" at 09:30 UTC, like Baserow's fixture.
        const matchedTimes = ALL.filter((k) =>
          matchesDateFilter(onTimestamps, new Date(`${ROWS[k]}T09:30:00Z`), true),
        );
        expect(matchedDates.sort()).toEqual([...expected].sort());
        expect(matchedTimes.sort()).toEqual([...expected].sort());
      });
    }
  }
});

describe('multi-step filters: ranges', () => {
  const NOW = new Date('2024-05-24T09:30:00Z'); // Friday

  it('handles the n8n value form', () => {
    const cond = resolveDateFilter('date_is', 'UTC?2026-06-17?exact_date', NOW, true);
    expect(cond).toMatchObject({ kind: 'range', negate: false, timeZone: 'UTC' });
    expect(dates(cond)).toEqual(['2026-06-17', '2026-06-18']);
    expect(instants(cond)).toEqual(['2026-06-17T00:00:00.000Z', '2026-06-18T00:00:00.000Z']);
  });

  it('defaults an empty timezone part to UTC', () => {
    expect(instants(resolveDateFilter('date_is', '?2025-02-05?exact_date', NOW, true))).toEqual([
      '2025-02-05T00:00:00.000Z',
      '2025-02-06T00:00:00.000Z',
    ]);
    expect(dates(resolveDateFilter('date_is', '??today', NOW, false))).toEqual(['2024-05-24', '2024-05-25']);
  });

  it('computes days in the filter timezone (Amsterdam DST start)', () => {
    const now = new Date('2024-03-31T12:00:00Z');
    const today = resolveDateFilter('date_is', 'Europe/Amsterdam??today', now, true);
    expect(dates(today)).toEqual(['2024-03-31', '2024-04-01']);
    expect(instants(today)).toEqual(['2024-03-30T23:00:00.000Z', '2024-03-31T22:00:00.000Z']);
    expect(matchesDateFilter(today, new Date('2024-03-30T23:00:00Z'), true)).toBe(true);
    expect(matchesDateFilter(today, new Date('2024-03-30T22:59:59Z'), true)).toBe(false);
    expect(matchesDateFilter(today, new Date('2024-03-31T21:59:59Z'), true)).toBe(true);
    expect(matchesDateFilter(today, new Date('2024-03-31T22:00:00Z'), true)).toBe(false);
  });

  it('computes days in the filter timezone (Amsterdam DST end)', () => {
    const cond = resolveDateFilter('date_is', 'Europe/Amsterdam?2024-10-27?exact_date', new Date(), true);
    expect(instants(cond)).toEqual(['2024-10-26T22:00:00.000Z', '2024-10-27T23:00:00.000Z']);
  });

  it('uses the local "today", not the UTC one', () => {
    // 2024-03-31T22:30Z is Monday 2024-04-01 00:30 in Amsterdam but still Sunday in UTC.
    const now = new Date('2024-03-31T22:30:00Z');
    expect(dates(resolveDateFilter('date_is', 'Europe/Amsterdam??this_week', now, true))).toEqual([
      '2024-04-01',
      '2024-04-08',
    ]);
    expect(dates(resolveDateFilter('date_is', 'UTC??this_week', now, true))).toEqual(['2024-03-25', '2024-04-01']);
    // 2024-03-10T03:00Z is still 2024-03-09 22:00 in New York; tomorrow is the 23h DST day.
    const ny = new Date('2024-03-10T03:00:00Z');
    expect(instants(resolveDateFilter('date_is', 'America/New_York??today', ny, true))).toEqual([
      '2024-03-09T05:00:00.000Z',
      '2024-03-10T05:00:00.000Z',
    ]);
    expect(instants(resolveDateFilter('date_is', 'America/New_York??tomorrow', ny, true))).toEqual([
      '2024-03-10T05:00:00.000Z',
      '2024-03-11T04:00:00.000Z',
    ]);
    // Kolkata (+05:30): 19:00Z is already the next day.
    const k = resolveDateFilter('date_is', 'Asia/Kolkata??today', new Date('2024-05-23T19:00:00Z'), true);
    expect(instants(k)).toEqual(['2024-05-23T18:30:00.000Z', '2024-05-24T18:30:00.000Z']);
    expect(dates(k)).toEqual(['2024-05-24', '2024-05-25']);
  });

  it('starts weeks on Monday (Baserow test_week_operator_for_view_multi_date_filters)', () => {
    for (let day = 24; day <= 30; day++) {
      const now = new Date(`2025-03-${day}T12:00:00Z`);
      expect(dates(resolveDateFilter('date_is', 'Europe/Rome??this_week', now, false))).toEqual(['2025-03-24', '2025-03-31']);
      expect(dates(resolveDateFilter('date_is', 'Europe/Rome??one_week_ago', now, false))).toEqual(['2025-03-17', '2025-03-24']);
      expect(dates(resolveDateFilter('date_is', 'Europe/Rome?2?nr_weeks_ago', now, false))).toEqual(['2025-03-10', '2025-03-17']);
      expect(dates(resolveDateFilter('date_is', 'Europe/Rome??next_week', now, false))).toEqual(['2025-03-31', '2025-04-07']);
      expect(dates(resolveDateFilter('date_is', 'Europe/Rome?2?nr_weeks_from_now', now, false))).toEqual(['2025-04-07', '2025-04-14']);
    }
  });

  it('uses relativedelta month arithmetic and whole periods', () => {
    const endOfMarch = new Date('2024-03-31T12:00:00Z');
    expect(dates(resolveDateFilter('date_is', 'UTC?1?nr_months_ago', endOfMarch, false))).toEqual(['2024-02-01', '2024-03-01']);
    expect(dates(resolveDateFilter('date_is', 'UTC??one_month_ago', endOfMarch, false))).toEqual(['2024-02-01', '2024-03-01']);
    expect(dates(resolveDateFilter('date_is', 'UTC??next_month', endOfMarch, false))).toEqual(['2024-04-01', '2024-05-01']);
    expect(dates(resolveDateFilter('date_is', 'UTC?11?nr_months_from_now', endOfMarch, false))).toEqual(['2025-02-01', '2025-03-01']);
    expect(dates(resolveDateFilter('date_is', 'UTC?2?nr_years_ago', endOfMarch, false))).toEqual(['2022-01-01', '2023-01-01']);
    expect(dates(resolveDateFilter('date_is', 'UTC??one_year_ago', endOfMarch, false))).toEqual(['2023-01-01', '2024-01-01']);
    expect(dates(resolveDateFilter('date_is', 'UTC??next_year', endOfMarch, false))).toEqual(['2025-01-01', '2026-01-01']);
    expect(dates(resolveDateFilter('date_is', 'UTC?-3?nr_days_ago', NOW, false))).toEqual(['2024-05-27', '2024-05-28']);
  });

  it('maps each comparison type onto the operator period', () => {
    const v = 'UTC??this_month';
    expect(dates(resolveDateFilter('date_is_before', v, NOW, false))).toEqual([undefined, '2024-05-01']);
    expect(dates(resolveDateFilter('date_is_on_or_before', v, NOW, false))).toEqual([undefined, '2024-06-01']);
    expect(dates(resolveDateFilter('date_is_after', v, NOW, false))).toEqual(['2024-06-01', undefined]);
    expect(dates(resolveDateFilter('date_is_on_or_after', v, NOW, false))).toEqual(['2024-05-01', undefined]);
    expect(dates(resolveDateFilter('date_is_within', v, NOW, false))).toEqual(['2024-05-24', '2024-06-01']);
    expect(dates(resolveDateFilter('date_is_within', 'UTC?10?nr_days_ago', NOW, false))).toEqual(['2024-05-14', '2024-05-25']);
    const isNot = resolveDateFilter('date_is_not', v, NOW, true);
    expect(isNot).toMatchObject({ kind: 'range', negate: true });
    expect(matchesDateFilter(isNot, null, true)).toBe(true);
    expect(matchesDateFilter(resolveDateFilter('date_is', v, NOW, true), null, true)).toBe(false);
  });

  it('parses ISO variants for exact_date like dateutil', () => {
    const d = (value: string, tz = 'UTC', includeTime = false) =>
      dates(resolveDateFilter('date_is', `${tz}?${value}?exact_date`, NOW, includeTime));
    expect(d('20240524')).toEqual(['2024-05-24', '2024-05-25']);
    expect(d('2024-05')).toEqual(['2024-05-01', '2024-05-02']);
    expect(d('2024')).toEqual(['2024-01-01', '2024-01-02']);
    expect(d('2024-W21-5')).toEqual(['2024-05-24', '2024-05-25']);
    expect(d('2024-145')).toEqual(['2024-05-24', '2024-05-25']);
    // Datetimes reduce to their local date in the filter timezone (both column kinds).
    expect(d('2024-05-24T23:30:00Z', 'Europe/Amsterdam', true)).toEqual(['2024-05-25', '2024-05-26']);
    expect(d('2024-05-24T23:30:00Z', 'Europe/Amsterdam', false)).toEqual(['2024-05-25', '2024-05-26']);
    expect(d('2024-05-24 23:30', 'Europe/Amsterdam', true)).toEqual(['2024-05-24', '2024-05-25']);
    expect(d('2024-05-24T24:00', 'UTC', true)).toEqual(['2024-05-25', '2024-05-26']);
    expect(d('2024-05-24T10:00:00.123456+05:30', 'Asia/Kolkata', true)).toEqual(['2024-05-24', '2024-05-25']);
  });
});

describe('multi-step filters: empty and invalid values', () => {
  const NOW = new Date('2024-05-24T09:30:00Z');

  it('ignores an empty value for exact_date, nr_days_ago and nr_days_from_now', () => {
    for (const op of ['exact_date', 'nr_days_ago', 'nr_days_from_now']) {
      expect(resolveDateFilter('date_is', `UTC??${op}`, NOW, true)).toEqual({ kind: 'all' });
      expect(resolveDateFilter('date_is_not', `Europe/Amsterdam??${op}`, NOW, false)).toEqual({ kind: 'all' });
    }
  });

  it('treats an empty number as 0 for the other nr_* operators', () => {
    expect(dates(resolveDateFilter('date_is', 'UTC??nr_weeks_ago', NOW, false))).toEqual(['2024-05-20', '2024-05-27']);
    expect(dates(resolveDateFilter('date_is', 'UTC??nr_months_from_now', NOW, false))).toEqual(['2024-05-01', '2024-06-01']);
    expect(dates(resolveDateFilter('date_is', 'UTC?ignored?today', NOW, false))).toEqual(['2024-05-24', '2024-05-25']);
  });

  const INVALID = [
    '', // no "?" at all
    'UTC', // bare timezone
    '2024-05-24', // bare value
    'UTC?2024-05-24', // legacy two-part form: no operator
    'UTC?2024-05-24?exact_date?x', // too many parts
    'Foo/Bar??today', // unknown timezone
    'Foo/Bar??exact_date', // timezone is checked before the empty-value shortcut
    'utc??today', // zoneinfo keys are case-sensitive
    'UTC??bogus', // unknown operator
    'UTC?abc?nr_days_ago',
    'UTC?1.5?nr_weeks_ago',
    'UTC? ?nr_days_ago',
    'UTC?2024-13-01?exact_date',
    'UTC?2024-02-30?exact_date',
    'UTC?yesterday?exact_date',
    'UTC?2024-05-24T25:00?exact_date',
    'UTC?\uff12\uff10\uff12\uff14-05-24?exact_date', // non-ASCII digits (dateutil is ASCII-only)
    'UTC?99999999?nr_days_from_now', // beyond year 9999 (OverflowError)
    'UTC?8000?nr_years_from_now',
  ];
  for (const value of INVALID) {
    it(`matches nothing for ${JSON.stringify(value)} (date_is) and everything for date_is_not`, () => {
      const cond = resolveDateFilter('date_is', value, NOW, true);
      expect(cond.kind).toBe('none');
      expect(matchesDateFilter(cond, new Date('2024-05-24T10:00:00Z'), true)).toBe(false);
      expect(resolveDateFilter('date_is_not', value, NOW, true)).toEqual({ kind: 'all' });
    });
  }

  it('rejects today for date_is_within only', () => {
    expect(resolveDateFilter('date_is_within', 'UTC??today', NOW, true).kind).toBe('none');
    expect(resolveDateFilter('date_is_before', 'UTC??today', NOW, true).kind).toBe('range');
  });

  it('trims surrounding whitespace of the whole value', () => {
    expect(dates(resolveDateFilter('date_is', '  UTC?2024-05-24?exact_date \n', NOW, false))).toEqual(['2024-05-24', '2024-05-25']);
    expect(resolveDateFilter('date_is', 'UTC? 2024-05-24?exact_date', NOW, false).kind).toBe('none');
  });
});

describe('legacy filters', () => {
  it('date_equal on timestamps uses the local day (TruncDate in tz)', () => {
    const cond = resolveDateFilter('date_equal', 'Europe/Amsterdam?2024-05-24', new Date(), true);
    expect(instants(cond)).toEqual(['2024-05-23T22:00:00.000Z', '2024-05-24T22:00:00.000Z']);
    expect(dates(resolveDateFilter('date_equal', '2024-05-24', new Date(), false))).toEqual(['2024-05-24', '2024-05-25']);
  });

  it('compares timestamps with an exact instant when the value has a time', () => {
    const now = new Date();
    const at = '2021-07-06T01:40:00.000Z';
    expect(range(resolveDateFilter('date_after', '2021-07-06 01:40', now, true))).toEqual({ from: new Date(at), fromExclusive: true });
    expect(range(resolveDateFilter('date_after_or_equal', 'UTC?2021-07-06 01:40', now, true))).toEqual({ from: new Date(at) });
    expect(range(resolveDateFilter('date_before', '2021-07-06T01:40:00Z', now, true))).toEqual({ to: new Date(at) });
    expect(range(resolveDateFilter('date_before_or_equal', '2021-07-06T03:40+02:00', now, true))).toEqual({ to: new Date(at), toInclusive: true });
    const eq = resolveDateFilter('date_equal', 'Europe/Amsterdam?2021-07-06 03:40', now, true);
    expect(range(eq)).toEqual({ from: new Date(at), to: new Date(at), toInclusive: true });
    expect(matchesDateFilter(eq, new Date(at), true)).toBe(true);
    expect(matchesDateFilter(eq, new Date('2021-07-06T01:40:00.001Z'), true)).toBe(false);
    // Baserow test_date_after_filter_type rows: 2021-07-06 02:40:05Z and 2021-08-01 02:45:45Z.
    const after = resolveDateFilter('date_after', '2021-07-06 02:41', now, true);
    expect(matchesDateFilter(after, '2021-07-06T02:40:05Z', true)).toBe(false);
    expect(matchesDateFilter(after, '2021-08-01T02:45:45Z', true)).toBe(true);
    // On a date-only column the datetime is reduced to its local date.
    expect(dates(resolveDateFilter('date_after', 'Asia/Kolkata?2021-07-06T20:00:00Z', now, false))).toEqual(['2021-07-08', undefined]);
  });

  it('resolves naive datetimes in DST transitions like fold=0', () => {
    const now = new Date();
    // Ambiguous 02:30 on 2024-10-27 in Amsterdam → the first (CEST) occurrence.
    expect(iso(range(resolveDateFilter('date_before', 'Europe/Amsterdam?2024-10-27 02:30', now, true)).to)).toBe('2024-10-27T00:30:00.000Z');
    // Non-existent 02:30 on 2024-03-31 → offset before the transition (+01:00).
    expect(iso(range(resolveDateFilter('date_before', 'Europe/Amsterdam?2024-03-31 02:30', now, true)).to)).toBe('2024-03-31T01:30:00.000Z');
  });

  // Baserow test_before_or_equal_datetime_view_filter / test_after_or_equal_*.
  it('reproduces Baserow before/after-or-equal timezone cases', () => {
    const now = new Date();
    const rows = ['2020-12-01T12:30:00Z', '2021-01-01T18:30:00Z', '2021-01-02T03:30:00Z'];
    const pick = (type: string, value: string, values: string[]) =>
      values.map((v, i) => (matchesDateFilter(resolveDateFilter(type, value, now, true), v, true) ? i : -1)).filter((i) => i >= 0);
    expect(pick('date_before_or_equal', '', rows)).toEqual([0, 1, 2]);
    expect(pick('date_before_or_equal', 'Europe/Rome?2021-01-02', rows)).toEqual([0, 1, 2]);
    expect(pick('date_before_or_equal', 'Australia/Melbourne?2021-01-01', rows)).toEqual([0]);
    expect(pick('date_before_or_equal', 'Pacific/Honolulu?2021-01-01', rows)).toEqual([0, 1, 2]);
    const rows2 = ['2020-12-01T12:30:00Z', '2021-01-01T14:30:00Z', '2021-01-02T03:30:00Z'];
    expect(pick('date_after_or_equal', 'Australia/Melbourne?2021-01-02', rows2)).toEqual([1, 2]);
    expect(pick('date_after_or_equal', 'Pacific/Honolulu?2021-01-02', rows2)).toEqual([]);
  });

  it('applies the field default timezone only to bare values', () => {
    const now = new Date();
    const opts = { defaultTimezone: 'America/New_York' };
    expect(instants(resolveDateFilter('date_equal', '2024-05-24', now, true, opts))).toEqual([
      '2024-05-24T04:00:00.000Z',
      '2024-05-25T04:00:00.000Z',
    ]);
    expect(instants(resolveDateFilter('date_equal', 'UTC?2024-05-24', now, true, opts))).toEqual([
      '2024-05-24T00:00:00.000Z',
      '2024-05-25T00:00:00.000Z',
    ]);
  });

  it('handles empty and invalid values like Baserow', () => {
    const now = new Date('2024-05-24T09:30:00Z');
    expect(resolveDateFilter('date_equal', '', now, true)).toEqual({ kind: 'all' });
    expect(resolveDateFilter('date_equal', '   ', now, true)).toEqual({ kind: 'all' });
    expect(resolveDateFilter('date_equal', 'UTC?', now, true)).toEqual({ kind: 'all' });
    expect(resolveDateFilter('date_before', 'Europe/Amsterdam', now, true)).toEqual({ kind: 'all' }); // timezone only
    expect(resolveDateFilter('date_equal', 'UTC?2024-05-24?exact_date', now, true)).toEqual({ kind: 'all' }); // >1 "?"
    for (const bad of ['abc', 'UTC?abc', 'Foo/Bar?2024-05-24', 'Foo/Bar?', '?2024-05-24', '2024-02-30', '24-05-2024']) {
      expect(resolveDateFilter('date_equal', bad, now, true).kind).toBe('none');
      expect(resolveDateFilter('date_not_equal', bad, now, true)).toEqual({ kind: 'all' });
    }
    const ne = resolveDateFilter('date_not_equal', 'UTC?2024-05-24', now, false);
    expect(ne).toMatchObject({ kind: 'range', negate: true });
    expect(matchesDateFilter(ne, null, false)).toBe(true);
    expect(matchesDateFilter(ne, '2024-05-24', false)).toBe(false);
    expect(matchesDateFilter(ne, '2024-05-25', false)).toBe(true);
  });

  it('today-relative types never treat the value as empty', () => {
    const now = new Date('2024-05-24T23:30:00Z'); // 25 May in Amsterdam
    expect(dates(resolveDateFilter('date_equals_today', '', now, true))).toEqual(['2024-05-24', '2024-05-25']);
    expect(dates(resolveDateFilter('date_equals_today', 'Europe/Amsterdam', now, true))).toEqual(['2024-05-25', '2024-05-26']);
    expect(dates(resolveDateFilter('date_equals_today', 'Europe/Amsterdam?whatever', now, true))).toEqual(['2024-05-25', '2024-05-26']);
    expect(dates(resolveDateFilter('date_before_today', 'Europe/Amsterdam', now, false))).toEqual([undefined, '2024-05-25']);
    expect(dates(resolveDateFilter('date_after_today', 'Europe/Amsterdam', now, false))).toEqual(['2024-05-26', undefined]);
    expect(dates(resolveDateFilter('date_equals_month', 'Europe/Amsterdam', now, false))).toEqual(['2024-05-01', '2024-06-01']);
    expect(dates(resolveDateFilter('date_equals_year', 'America/New_York', now, false))).toEqual(['2024-01-01', '2025-01-01']);
    // A bare unknown name is a (here ignored) value in the default timezone; with "?" it is a tz.
    expect(dates(resolveDateFilter('date_equals_today', 'Foo/Bar', now, true))).toEqual(['2024-05-24', '2024-05-25']);
    expect(resolveDateFilter('date_equals_today', 'Foo/Bar?', now, true).kind).toBe('none');
  });

  it('date_equals_week: ISO week number AND calendar year', () => {
    const weekRanges = (now: string) => {
      const cond = resolveDateFilter('date_equals_week', 'UTC', new Date(now), false);
      if (cond.kind !== 'range') throw new Error('expected range');
      return cond.ranges.map((r) => [r.fromDate, r.toDate]);
    };
    expect(weekRanges('2024-05-24T12:00:00Z')).toEqual([['2024-05-20', '2024-05-27']]);
    // Monday 2024-12-30 is ISO week 1 (of 2025) but calendar year 2024.
    expect(weekRanges('2024-12-30T12:00:00Z')).toEqual([
      ['2024-01-01', '2024-01-08'],
      ['2024-12-30', '2025-01-01'],
    ]);
    // Saturday 2022-01-01 is ISO week 52 (of 2021), calendar year 2022.
    expect(weekRanges('2022-01-01T12:00:00Z')).toEqual([
      ['2022-01-01', '2022-01-03'],
      ['2022-12-26', '2023-01-01'],
    ]);
    // 2021-01-02 is ISO week 53 of 2020; 2021 has no week 53.
    expect(weekRanges('2021-01-02T12:00:00Z')).toEqual([['2021-01-01', '2021-01-04']]);
    const cond = resolveDateFilter('date_equals_week', 'UTC', new Date('2024-12-30T12:00:00Z'), true);
    expect(matchesDateFilter(cond, '2024-01-03T10:00:00Z', true)).toBe(true);
    expect(matchesDateFilter(cond, '2025-01-01T10:00:00Z', true)).toBe(false);
  });

  it('date_within_days/weeks/months (Baserow tests)', () => {
    const pick = (type: string, value: string, now: Date, rows: string[]) => {
      const cond = resolveDateFilter(type, value, now, false);
      return rows.map((r, i) => (matchesDateFilter(cond, r, false) ? i : -1)).filter((i) => i >= 0);
    };
    const dayRows = ['2020-12-01', '2021-01-01', '2021-01-02', '2021-01-03', '2021-01-04', '2021-01-05', '2021-01-06', '2021-02-01', '2022-01-01'];
    expect(pick('date_within_days', '', new Date('2021-01-02T00:00:00Z'), dayRows)).toHaveLength(9);
    expect(pick('date_within_days', '1', new Date('2021-01-02T00:00:00Z'), dayRows)).toEqual([2, 3]);
    expect(pick('date_within_days', 'Europe/Rome?1', new Date('2021-01-04T00:00:00Z'), dayRows)).toEqual([4, 5]);
    expect(pick('date_within_days', 'Europe/Rome?1', new Date('2021-01-03T10:00:00Z'), dayRows)).toEqual([3, 4]);
    expect(pick('date_within_days', '-2', new Date('2021-01-04T00:00:00Z'), dayRows)).toEqual([2, 3, 4]);

    const weekRows = ['2020-12-01', '2021-01-01', '2021-01-07', '2021-01-08', '2021-01-14', '2021-01-15', '2021-01-18', '2021-02-01', '2022-01-01'];
    expect(pick('date_within_weeks', '1', new Date('2021-01-01T00:00:00Z'), weekRows)).toEqual([1, 2, 3]);
    expect(pick('date_within_weeks', 'Europe/Rome?2', new Date('2021-01-08T00:00:00Z'), weekRows)).toEqual([3, 4, 5, 6]);
    expect(pick('date_within_weeks', 'Europe/Rome?2', new Date('2021-01-07T10:00:00Z'), weekRows)).toEqual([2, 3, 4, 5, 6]);
    expect(resolveDateFilter('date_within_weeks', '0', new Date(), false).kind).toBe('none');

    const monthRows = ['2020-12-01', '2021-01-01', '2021-01-07', '2021-01-31', '2021-02-01', '2021-02-15', '2021-03-01', '2021-03-21', '2022-01-01'];
    expect(pick('date_within_months', '1', new Date('2021-01-02T00:00:00Z'), monthRows)).toEqual([2, 3, 4]);
    expect(pick('date_within_months', 'Europe/Rome?2', new Date('2021-01-08T00:00:00Z'), monthRows)).toEqual([3, 4, 5, 6]);
    expect(resolveDateFilter('date_within_months', 'UTC?0', new Date(), false).kind).toBe('none');
    // relativedelta: Jan 31 + 1 month = Feb 28 (2023) / Feb 29 (2024).
    expect(dates(resolveDateFilter('date_within_months', '1', new Date('2023-01-31T12:00:00Z'), false))).toEqual(['2023-01-31', '2023-03-01']);
    expect(dates(resolveDateFilter('date_within_months', '1', new Date('2024-01-31T12:00:00Z'), false))).toEqual(['2024-01-31', '2024-03-01']);
    expect(dates(resolveDateFilter('date_within_months', '1', new Date('2024-03-31T12:00:00Z'), false))).toEqual(['2024-03-31', '2024-05-01']);
  });

  it('date_after_days_ago (Baserow test_date_after_days_ago_filter_type)', () => {
    const rows = ['2023-01-01', '2023-01-02', '2023-01-03', '2023-01-04'];
    const pick = (value: string, now: string) => {
      const cond = resolveDateFilter('date_after_days_ago', value, new Date(now), false);
      return rows.map((r, i) => (matchesDateFilter(cond, r, false) ? i + 1 : -1)).filter((i) => i >= 0);
    };
    expect(pick('Europe/Berlin?2', '2023-01-04T10:00:00Z')).toEqual([2, 3, 4]);
    expect(pick('UTC?3', '2023-01-04T10:00:00Z')).toEqual([1, 2, 3, 4]);
    expect(pick('1', '2023-01-04T10:00:00Z')).toEqual([3, 4]);
    expect(pick('0', '2023-01-04T10:00:00Z')).toEqual([1, 2, 3, 4]);
    expect(pick(' ', '2023-01-04T10:00:00Z')).toEqual([1, 2, 3, 4]);
    expect(pick('GMT?1', '2023-01-04T10:00:00Z')).toEqual([3, 4]);
    expect(pick('CET?1', '2023-01-04T11:00:00Z')).toEqual([3, 4]);
    expect(pick('UTC?100', '2019-01-04T11:00:00Z')).toEqual([1, 2, 3, 4]);
    expect(pick('ABC', '2019-01-04T11:00:00Z')).toEqual([]);
  });

  it('days/months/years ago select a day, month or year', () => {
    const now = new Date('2024-03-31T12:00:00Z');
    expect(dates(resolveDateFilter('date_equals_days_ago', 'UTC?1', now, false))).toEqual(['2024-03-30', '2024-03-31']);
    expect(dates(resolveDateFilter('date_equals_days_ago', 'UTC?-1', now, false))).toEqual(['2024-04-01', '2024-04-02']);
    expect(dates(resolveDateFilter('date_equals_months_ago', 'UTC?1', now, false))).toEqual(['2024-02-01', '2024-03-01']);
    expect(dates(resolveDateFilter('date_equals_years_ago', 'UTC?1', now, false))).toEqual(['2023-01-01', '2024-01-01']);
    expect(instants(resolveDateFilter('date_equals_years_ago', 'Asia/Kolkata?1', now, true))).toEqual([
      '2022-12-31T18:30:00.000Z',
      '2023-12-31T18:30:00.000Z',
    ]);
    expect(resolveDateFilter('date_equals_days_ago', 'UTC?', now, false)).toEqual({ kind: 'all' });
    expect(resolveDateFilter('date_equals_months_ago', 'UTC?x', now, false).kind).toBe('none');
  });

  it('date_equals_day_of_month returns a day-of-month condition', () => {
    const now = new Date();
    const cond = resolveDateFilter('date_equals_day_of_month', 'Europe/Amsterdam?15', now, true);
    expect(cond).toEqual({ kind: 'day_of_month', day: 15, timeZone: 'Europe/Amsterdam' });
    expect(matchesDateFilter(cond, '2024-05-14T22:30:00Z', true)).toBe(true); // 15 May 00:30 local
    expect(matchesDateFilter(cond, '2024-05-15T22:30:00Z', true)).toBe(false);
    expect(matchesDateFilter(cond, null, true)).toBe(false);
    const onDates = resolveDateFilter('date_equals_day_of_month', '7', now, false);
    expect(onDates).toEqual({ kind: 'day_of_month', day: 7, timeZone: 'UTC' });
    expect(matchesDateFilter(onDates, '1999-12-07', false)).toBe(true);
    expect(matchesDateFilter(onDates, '1999-12-17', false)).toBe(false);
    expect(resolveDateFilter('date_equals_day_of_month', '', now, false)).toEqual({ kind: 'all' });
    for (const bad of ['0', '32', 'x', 'Foo/Bar?3']) {
      expect(resolveDateFilter('date_equals_day_of_month', bad, now, false).kind).toBe('none');
    }
  });
});
