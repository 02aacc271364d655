// Cell value parsing/formatting (src/database/fields/values). Expected values were checked
// against Python 3.11 (Decimal, float(), datetime.fromisoformat) driving the DRF / Django /
// Baserow logic these modules mirror.
import { toApiDateTime } from '../src/core/database/columns';
import { parseBoolean, textToBoolean } from '../src/database/fields/values/boolean';
import { pythonFloat, pythonFloatRepr, pythonStr, pythonStrip } from '../src/database/fields/values/common';
import { formatDateValue, formatDateValueExactly, parseDateValue } from '../src/database/fields/values/date';
import {
  DURATION_FORMATS,
  DurationFormat,
  formatDurationText,
  isDurationFormat,
  parseDuration,
  parseDurationText,
  roundDuration,
} from '../src/database/fields/values/duration';
import { formatDecimal, parseDecimal, quantizeDecimal } from '../src/database/fields/values/number';
import {
  parseEmail,
  parsePhoneNumber,
  parseText,
  parseUrl,
  validateEmail,
  validatePhoneNumber,
  validateUrl,
} from '../src/database/fields/values/text';

const ok = (value: unknown) => ({ ok: true, value });
const err = (error: string, code = 'invalid') => ({ ok: false, errors: [{ error, code }] });

describe('number', () => {
  const opts = (decimalPlaces: number, negative = false) => ({ decimalPlaces, negative });

  it.each<[unknown, number, boolean, unknown]>([
    ['10', 0, false, ok('10')],
    [10, 2, false, ok('10.00')],
    ['10.5', 2, false, ok('10.50')],
    [' 7 ', 0, false, ok('7')],
    ['1e2', 2, false, ok('100.00')],
    ['1_000', 0, false, ok('1000')],
    ['.5', 1, false, ok('0.5')],
    ['5.', 0, false, ok('5')],
    ['-1', 0, true, ok('-1')],
    ['-0', 0, false, ok('0')],
    ['-0.00', 2, false, ok('0.00')],
    [0.1, 1, false, ok('0.1')],
    [1e-7, 7, false, ok('0.0000001')],
    [123.456, 3, true, ok('123.456')],
    ['0.0000000001', 10, false, ok('0.0000000001')],
    ['', 0, false, ok(null)],
    ['  ', 0, false, ok(null)],
    [null, 0, false, ok(null)],
  ])('parses %j with %d places (negative %s)', (value, places, negative, expected) => {
    expect(parseDecimal(value, opts(places, negative))).toEqual(expected);
  });

  it('keeps 50-digit values exact', () => {
    const big = '1'.repeat(50);
    expect(parseDecimal(big, opts(0))).toEqual(ok(big));
    expect(parseDecimal(`${big}.12`, opts(2))).toEqual(ok(`${big}.12`));
    expect(parseDecimal(`-${'9'.repeat(50)}.5`, opts(1, true))).toEqual(ok(`-${'9'.repeat(50)}.5`));
  });

  it('rejects extra decimal places instead of rounding, counting trailing zeros', () => {
    expect(parseDecimal('1.50', opts(1))).toEqual(err('Ensure that there are no more than 1 decimal places.', 'max_decimal_places'));
    expect(parseDecimal('1.0', opts(0))).toEqual(err('Ensure that there are no more than 0 decimal places.', 'max_decimal_places'));
    expect(parseDecimal(0.30000000000000004, opts(2))).toEqual(
      err('Ensure that there are no more than 2 decimal places.', 'max_decimal_places'),
    );
  });

  it('limits digits like DRF (total first, then places, then whole digits)', () => {
    expect(parseDecimal('1'.repeat(51), opts(0))).toEqual(err('Ensure that there are no more than 50 digits in total.', 'max_digits'));
    expect(parseDecimal('1'.repeat(51), opts(2))).toEqual(
      err('Ensure that there are no more than 50 digits before the decimal point.', 'max_whole_digits'),
    );
    expect(parseDecimal('0e60', opts(0))).toEqual(err('Ensure that there are no more than 50 digits in total.', 'max_digits'));
    expect(parseDecimal('1e999999999999999999', opts(0))).toEqual(
      err('Ensure that there are no more than 50 digits in total.', 'max_digits'),
    );
    expect(parseDecimal('1', { decimalPlaces: 0, negative: false, maxIntegerDigits: 0 })).toEqual(
      err('Ensure that there are no more than 0 digits in total.', 'max_digits'),
    );
  });

  it('rejects negatives unless allowed, and non-numbers', () => {
    expect(parseDecimal('-1', opts(0))).toEqual(err('Ensure this value is greater than or equal to 0.', 'min_value'));
    expect(parseDecimal(-0.5, opts(1))).toEqual(err('Ensure this value is greater than or equal to 0.', 'min_value'));
    for (const bad of ['abc', 'inf', 'NaN', '1e9999999999999999999', '1,5', true, false, [1], { a: 1 }]) {
      expect(parseDecimal(bad, opts(0))).toEqual(err('A valid number is required.'));
    }
    expect(parseDecimal('1'.repeat(1001), opts(0))).toEqual(err('String value too large.', 'max_string_length'));
  });

  it('formats stored values half-even to the field places', () => {
    expect(formatDecimal('10', 2)).toBe('10.00');
    expect(formatDecimal('2.675', 2)).toBe('2.68');
    expect(formatDecimal('2.665', 2)).toBe('2.66');
    expect(formatDecimal('0.5', 0)).toBe('0');
    expect(formatDecimal('1.5', 0)).toBe('2');
    expect(formatDecimal('-0.004', 2)).toBe('0.00');
    expect(formatDecimal('-1.20', 1)).toBe('-1.2');
    expect(formatDecimal(12.5, 1)).toBe('12.5');
    expect(formatDecimal(0.1 + 0.2, 2)).toBe('0.30');
    expect(formatDecimal(-3, 0)).toBe('-3');
    expect(formatDecimal('12345678901234567890123456789012345678901234567890.5', 0)).toBe(
      '12345678901234567890123456789012345678901234567890',
    );
    expect(formatDecimal(null, 2)).toBeNull();
    expect(quantizeDecimal('x', 2)).toBeNull();
  });

  it('formats plain stored values (the padding shortcut) exactly as the general rounding does', () => {
    const samples: (string | number)[] = ['0', '-0', '-0.00', '0.5', '-0.5', '1.50', '12', '007', '1e5', '1.5e-3', '-12.345', '100.00', '0.001', '-0.001', 5, -5, 0, -0, 1.25, 2.675, 1e21, 1e-7, -0.001];
    for (let i = 0; i < 2000; i++) samples.push(((i * 7919) % 200001) / 100 - 1000, String((i * 104729) % 99991), ((i * 31) % 1000) / 1000);
    for (const sample of samples) {
      for (const places of [0, 1, 2, 3, 10]) {
        const text = typeof sample === 'number' ? String(sample) : sample;
        expect([sample, places, formatDecimal(sample, places)]).toEqual([sample, places, quantizeDecimal(text, places) ?? text]);
      }
    }
  });
});

describe('boolean', () => {
  it.each(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 'checked', true, 1])(
    'reads %j as true',
    (v) => expect(parseBoolean(v)).toEqual(ok(true)),
  );

  it.each(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 'unchecked', false, 0])(
    'reads %j as false',
    (v) => expect(parseBoolean(v)).toEqual(ok(false)),
  );

  it('rejects other values exactly as DRF', () => {
    for (const bad of ['tRUE', 'Checked', ' true', '', 2, 0.5, [], {}, 'yes please']) {
      expect(parseBoolean(bad)).toEqual(err('Must be a valid boolean.'));
    }
    expect(parseBoolean(null)).toEqual(err('This field may not be null.', 'null'));
  });

  it('converts text like the field conversion SQL', () => {
    expect(textToBoolean('Checked')).toBe(true);
    expect(textToBoolean('yEs')).toBe(true);
    expect(textToBoolean(' yes')).toBe(false);
    expect(textToBoolean('2')).toBe(false);
    expect(textToBoolean(null)).toBe(false);
  });
});

describe('date', () => {
  const DATE_ERR = err('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
  const DATETIME_ERR = err(
    'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  );

  it.each<[unknown, unknown]>([
    ['2020-02-01', ok('2020-02-01')],
    ['2020-2-1', ok('2020-02-01')],
    ['20200201', ok('2020-02-01')],
    ['2020-W05-6', ok('2020-02-01')],
    ['2020-02-01\n', ok('2020-02-01')],
    [null, ok(null)],
    ['2020-02-01T10:00:00Z', DATE_ERR],
    ['2020-02-30', DATE_ERR],
    ['0000-01-01', DATE_ERR],
    [' 2020-02-01', DATE_ERR],
    ['', DATE_ERR],
    [20200201, DATE_ERR],
  ])('date-only field: %j', (value, expected) => {
    expect(parseDateValue(value, { includeTime: false })).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    ['2020-02-01T01:23:00Z', ok('2020-02-01T01:23:00.000000Z')],
    ['2020-02-01T01:23', ok('2020-02-01T01:23:00.000000Z')],
    ['2020-02-01', ok('2020-02-01T00:00:00.000000Z')],
    ['2020-02-01 01:23:00.123+01:00', ok('2020-02-01T00:23:00.123000Z')],
    ['2020-02-01T01:23:00.1234567-05:30', ok('2020-02-01T06:53:00.123456Z')],
    ['2020-02-01x01:23', ok('2020-02-01T01:23:00.000000Z')],
    ['20200201T0123', ok('2020-02-01T01:23:00.000000Z')],
    ['2020-W05-6T10', ok('2020-02-01T10:00:00.000000Z')],
    ['2020-2-1T1:2:3.5 Z', ok('2020-02-01T01:02:03.500000Z')],
    ['2020-02-01T10:00:00:5', ok('2020-02-01T10:00:00.500000Z')],
    ['2020-02-01T10:00 Z', ok('2020-02-01T10:00:00.000000Z')],
    ['2020-03-01T00:30:00+01:00', ok('2020-02-29T23:30:00.000000Z')],
    [null, ok(null)],
    ['2020-02-01T24:00', DATETIME_ERR],
    ['2020-02-01T10:00:00+24:00', DATETIME_ERR],
    ['2020-02-01T', DATETIME_ERR],
    ['2020-2-1', DATETIME_ERR],
    ['', DATETIME_ERR],
    [1580515200, DATETIME_ERR],
    ['0001-01-01T00:30:00+01:00', err('Datetime value out of range.', 'overflow')],
    ['9999-12-31T23:00:00-05:00', err('Datetime value out of range.', 'overflow')],
  ])('datetime field: %j', (value, expected) => {
    expect(parseDateValue(value, { includeTime: true })).toEqual(expected);
  });

  it('formats stored values like DRF', () => {
    expect(formatDateValue('2020-02-01', false)).toBe('2020-02-01');
    expect(formatDateValue('2020-02-01T01:23:00.000000Z', true)).toBe('2020-02-01T01:23:00Z');
    // The shortcut for plain stored values answers what the calendar arithmetic does.
    const samples = ['2020-02-30', '2021-02-29', '2024-02-29', '1900-02-29', '2000-02-29', '0000-01-01', '0001-01-01', '9999-12-31', '2020-13-01', '2020-00-10', '2020-04-31', '2020-02-01 ',
      '2020-02-01T24:00:00Z', '2020-02-01T23:59:59.999999Z', '2020-02-01T01:23:00.000001Z', '2021-02-29T01:00:00Z', '2020-02-01T01:60:00Z', '2020-02-01T01:23:00.123Z', '2020-02-01T01:23:00+01:00'];
    for (let i = 0; i < 3000; i++) {
      const pad = (n: number, w = 2) => String(n).padStart(w, '0');
      const date = `${pad((i * 7919) % 10000, 4)}-${pad((i * 31) % 14)}-${pad((i * 17) % 33)}`;
      samples.push(date, `${date}T${pad((i * 13) % 25)}:${pad((i * 7) % 61)}:${pad((i * 11) % 61)}${i % 3 ? '' : `.${pad((i * 104729) % 1000000, 6)}`}Z`);
    }
    for (const sample of samples) for (const includeTime of [false, true]) expect([sample, formatDateValue(sample, includeTime)]).toEqual([sample, formatDateValueExactly(sample, includeTime)]);
    expect(formatDateValue('2020-02-01T01:23:00.123000Z', true)).toBe('2020-02-01T01:23:00.123000Z');
    expect(formatDateValue('2024-05-01T10:20:30.123456Z', true)).toBe('2024-05-01T10:20:30.123456Z');
    expect(formatDateValue('2020-02-01 01:23:00.5+01', true)).toBe('2020-02-01T00:23:00.500000Z');
    expect(formatDateValue('2020-02-01 00:30:00+01:00', false)).toBe('2020-01-31');
    expect(formatDateValue('2020-02-01', true)).toBe('2020-02-01T00:00:00Z');
    expect(formatDateValue('0099-01-01', false)).toBe('0099-01-01');
    expect(formatDateValue(null, true)).toBeNull();
  });

  it('agrees with toApiDateTime for Date values', () => {
    for (const iso of ['2020-02-01T01:23:00.000Z', '2020-02-01T01:23:00.123Z', '1999-12-31T23:59:59.999Z']) {
      const d = new Date(iso);
      expect(formatDateValue(d, true)).toBe(toApiDateTime(d));
    }
    expect(formatDateValue(new Date('2020-02-01T23:00:00Z'), false)).toBe('2020-02-01');
  });

  it('round-trips its own canonical values', () => {
    const r = parseDateValue('2020-02-01T01:23:00.5+02:00', { includeTime: true });
    expect(r).toEqual(ok('2020-01-31T23:23:00.500000Z'));
    expect(formatDateValue((r as { value: string }).value, true)).toBe('2020-01-31T23:23:00.500000Z');
  });
});

describe('duration', () => {
  it('lists the ten formats', () => {
    expect(DURATION_FORMATS).toEqual([
      'h:mm',
      'h:mm:ss',
      'h:mm:ss.s',
      'h:mm:ss.ss',
      'h:mm:ss.sss',
      'd h',
      'd h:mm',
      'd h:mm:ss',
      'd h mm',
      'd h mm ss',
    ]);
    expect(isDurationFormat('d h')).toBe(true);
    expect(isDurationFormat('h')).toBe(false);
  });

  it.each<[unknown, DurationFormat, unknown]>([
    [3600, 'h:mm', ok(3600)],
    [90, 'h:mm', ok(120)],
    [89.5, 'h:mm:ss', ok(90)],
    [-89.5, 'h:mm:ss', ok(-90)],
    [1.2345, 'h:mm:ss.sss', ok(1.235)],
    [1.0005, 'h:mm:ss.sss', ok(1.001)],
    [5399, 'd h', ok(3600)],
    [true, 'h:mm:ss', ok(1)],
    ['90', 'h:mm', ok(120)],
    [' 1.5 ', 'h:mm:ss.s', ok(1.5)],
    ['1_0', 'h:mm:ss', ok(10)],
    ['1e3', 'h:mm', ok(1020)],
    ['1:30', 'h:mm', ok(5400)],
    ['1:30', 'h:mm:ss', ok(90)],
    ['1:30', 'd h', ok(7200)],
    ['1:30', 'd h mm', ok(120)],
    ['1:30:20.5', 'h:mm:ss.s', ok(5420.5)],
    ['1:30:20.5', 'h:mm', ok(5400)],
    ['1d 2h', 'd h', ok(93600)],
    ['1d 2h 3m 4s', 'd h mm ss', ok(93784)],
    ['1d2h3m4s', 'd h mm ss', ok(93784)],
    ['2h 30m', 'h:mm', ok(9000)],
    ['45s', 'h:mm:ss', ok(45)],
    ['1d 10:20', 'h:mm', ok(123600)],
    ['1d 10:20', 'h:mm:ss', ok(87020)],
    ['1 10:20:30', 'd h:mm:ss', ok(123630)],
    ['1d 5', 'd h', ok(104400)],
    ['1d 5', 'h:mm', ok(86700)],
    ['1d 5', 'h:mm:ss', ok(86405)],
    ['-1:30', 'h:mm', ok(-5400)],
    ['-1d 2h', 'd h', ok(-93600)],
    ['3 days', 'h:mm', ok(259200)],
    ['-3 days', 'h:mm', ok(259200)],
    ['foo 2 years', 'd h', ok(63072000)],
    ['1 mon 01:02:03', 'h:mm:ss', ok(2595723)],
    [86399999999999, 'h:mm:ss', ok(86399999999999)],
    [-86399999913600, 'h:mm:ss', ok(-86399999913600)],
    [null, 'h:mm', ok(null)],
  ])('parses %j as %s', (value, format, expected) => {
    expect(parseDuration(value, format)).toEqual(expected);
  });

  it.each<[unknown, string]>([
    ['1x5', 'The value 1x5 is not a valid duration.'],
    ['1:2x5', 'The value 1:2x5 is not a valid duration.'],
    ['abc', 'The value abc is not a valid duration.'],
    ['', 'The value  is not a valid duration.'],
    ['nan', 'The value nan is not a valid duration.'],
    [[1, 'a'], "The value [1, 'a'] is not a valid duration."],
    [{ a: 1 }, "The value {'a': 1} is not a valid duration."],
    ['inf', 'Value inf is too large. The maximum is 999999999 days, 23:59:59.999999.'],
    [1e300, 'Value 1e+300 is too large. The maximum is 999999999 days, 23:59:59.999999.'],
    [86400000000000, 'Value 86400000000000 is too large. The maximum is 999999999 days, 23:59:59.999999.'],
  ])('rejects %j', (value, message) => {
    expect(parseDuration(value, 'h:mm')).toEqual(err(message));
  });

  it('rounds half away from zero to the format unit', () => {
    expect(roundDuration(29.999, 'h:mm')).toBe(0);
    expect(roundDuration(30, 'h:mm')).toBe(60);
    expect(roundDuration(-30, 'd h:mm')).toBe(-60);
    expect(roundDuration(1799, 'd h')).toBe(0);
    expect(roundDuration(1800, 'd h')).toBe(3600);
    expect(roundDuration(0.05, 'h:mm:ss.s')).toBe(0.1);
    expect(roundDuration(2.5, 'd h mm ss')).toBe(3);
    expect(parseDurationText('1:30', 'h:mm')).toBe(5400);
    expect(parseDurationText('90', 'h:mm')).toBe(5400); // minutes here; parseDuration reads "90" as seconds first
    expect(parseDurationText('nope', 'h:mm')).toBeNull();
    // Texts a backtracking engine took seconds on (20,000 digits and an "x") are no duration: longer than 200 characters.
    expect(parseDurationText(`${'1'.repeat(20000)}x`, 'h:mm')).toBeNull();
    expect(parseDurationText(`1d${' '.repeat(196)}1h`, 'd h')).toBe(90000);
    expect(parseDurationText(`1d${' '.repeat(197)}1h`, 'd h')).toBeNull();
  });

  const FORMATTED: [number, string[]][] = [
    [5400, ['1:30', '1:30:00', '1:30:00.0', '1:30:00.00', '1:30:00.000', '0d 1h', '0d 1:30', '0d 1:30:00', '0d 1h 30m', '0d 1h 30m 00s']],
    [5399.5, ['1:29', '1:29:59', '1:29:59.5', '1:29:59.50', '1:29:59.500', '0d 1h', '0d 1:29', '0d 1:29:59', '0d 1h 29m', '0d 1h 29m 59s']],
    [0.25, ['0:00', '0:00:00', '0:00:00.2', '0:00:00.25', '0:00:00.250', '0d 0h', '0d 0:00', '0d 0:00:00', '0d 0h 00m', '0d 0h 00m 00s']],
    [59.96, ['0:00', '0:00:59', '0:00:60.0', '0:00:59.96', '0:00:59.960', '0d 0h', '0d 0:00', '0d 0:00:59', '0d 0h 00m', '0d 0h 00m 59s']],
    [-65.5, ['-0:01', '-0:01:05', '-0:01:05.5', '-0:01:05.50', '-0:01:05.500', '-0d 0h', '-0d 0:01', '-0d 0:01:05', '-0d 0h 01m', '-0d 0h 01m 05s']],
    [3723.456, ['1:02', '1:02:03', '1:02:03.5', '1:02:03.46', '1:02:03.456', '0d 1h', '0d 1:02', '0d 1:02:03', '0d 1h 02m', '0d 1h 02m 03s']],
    [273906, ['76:05', '76:05:06', '76:05:06.0', '76:05:06.00', '76:05:06.000', '3d 4h', '3d 4:05', '3d 4:05:06', '3d 4h 05m', '3d 4h 05m 06s']],
  ];
  it.each(FORMATTED)('formats %d seconds in every format', (seconds, texts) => {
    expect(DURATION_FORMATS.map((f) => formatDurationText(seconds, f))).toEqual(texts);
  });

  it('formats null as null', () => {
    expect(formatDurationText(null, 'h:mm')).toBeNull();
  });
});

describe('text', () => {
  it('behaves as a DRF CharField (strip, numbers, blank)', () => {
    expect(parseText('  hello ')).toEqual(ok('hello'));
    expect(parseText('   ')).toEqual(ok(''));
    expect(parseText('')).toEqual(ok(''));
    expect(parseText(null)).toEqual(ok(null));
    expect(parseText(5)).toEqual(ok('5'));
    expect(parseText(1.5)).toEqual(ok('1.5'));
    for (const bad of [true, [1], { a: 1 }]) expect(parseText(bad)).toEqual(err('Not a valid string.'));
    expect(parseText('a\u0000b')).toEqual(err('Null characters are not allowed.', 'null_characters_not_allowed'));
    expect(parseText('a\ud800b')).toEqual(err('Surrogate characters are not allowed: U+D800.', 'surrogate_characters_not_allowed'));
    expect(parseText('😀')).toEqual(ok('😀'));
  });

  it('validates urls with the lenient regex', () => {
    expect(parseUrl('example.com')).toEqual(ok('example.com'));
    expect(parseUrl(' https://x.y/z ')).toEqual(ok('https://x.y/z'));
    expect(parseUrl('//a')).toEqual(ok('//a'));
    expect(parseUrl(`${'x'.repeat(255)}.c`)).toEqual(ok(`${'x'.repeat(255)}.c`));
    expect(parseUrl(null)).toEqual(ok(''));
    expect(parseUrl('')).toEqual(ok(''));
    for (const bad of ['a.', 'a b.c', 'http:/x', 5, `${'x'.repeat(256)}.c`]) {
      expect(parseUrl(bad)).toEqual(err('Enter a valid value.'));
    }
    expect(validateUrl('a.b')).toEqual([]);
  });

  it('validates emails permissively, max 254', () => {
    for (const good of ['a@b', 'a@b.c', 'test.user+tag@sub.example.co', 'é@ü.de', 'oneil@x.io']) {
      expect(parseEmail(good)).toEqual(ok(good));
    }
    for (const bad of ['ab', 'a b@c.d', 'a@@b', "o'neil@x.io", 'a@b c']) expect(parseEmail(bad)).toEqual(err('Enter a valid value.'));
    expect(parseEmail(`x@${'y'.repeat(253)}`)).toEqual({
      ok: false,
      errors: [
        { error: 'Enter a valid value.', code: 'invalid' },
        { error: 'Ensure this field has no more than 254 characters.', code: 'max_length' },
      ],
    });
    expect(parseEmail(null)).toEqual(ok(''));
    expect(validateEmail(`x@${'y'.repeat(252)}`)).toEqual([]);
  });

  it('validates phone numbers', () => {
    for (const good of ['+31 (0)6-1234 5678', '123x#*', '1'.repeat(100)]) expect(parsePhoneNumber(good)).toEqual(ok(good));
    expect(parsePhoneNumber(12345)).toEqual(ok('12345'));
    expect(parsePhoneNumber(null)).toEqual(ok(''));
    for (const bad of ['abc', 'ext. 123']) expect(parsePhoneNumber(bad)).toEqual(err('Enter a valid value.'));
    expect(validatePhoneNumber('1'.repeat(101))).toEqual([
      { error: 'Enter a valid value.', code: 'invalid' },
      { error: 'Ensure this field has no more than 100 characters.', code: 'max_length' },
    ]);
  });
});

describe('python helpers', () => {
  test('pythonStrip strips blanks at both ends in one pass (a run of 100,000 inside stays)', () => {
    expect(pythonStrip(` \t\u3000a${' '.repeat(100000)}b\x85\n`)).toBe(`a${' '.repeat(100000)}b`);
    expect(pythonStrip('   ')).toBe('');
  });

  it('prints values like Python str()', () => {
    expect(pythonStr(null)).toBe('None');
    expect(pythonStr(true)).toBe('True');
    expect(pythonStr(12)).toBe('12');
    expect(pythonStr(1e20)).toBe('100000000000000000000');
    expect(pythonStr(['a', 1, null, "it's"])).toBe(`['a', 1, None, "it's"]`);
    expect(pythonStr({ k: 'v' })).toBe("{'k': 'v'}");
    expect([1e16, 1e-5, 1.5e-7, 0.0001, 1.5, 1e21, -2.5e-10].map(pythonFloatRepr)).toEqual([
      '1e+16',
      '1e-05',
      '1.5e-07',
      '0.0001',
      '1.5',
      '1e+21',
      '-2.5e-10',
    ]);
  });

  it('parses like Python float()', () => {
    expect(pythonFloat(' 1_000.5 ')).toBe(1000.5);
    expect(pythonFloat('-Infinity')).toBe(-Infinity);
    expect(pythonFloat('1__0')).toBeNull();
    expect(pythonFloat('1.')).toBe(1);
    expect(pythonFloat('0x10')).toBeNull();
  });
});
