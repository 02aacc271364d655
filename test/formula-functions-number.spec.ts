import { formatDateValue } from '../src/database/fields/values/date';
import { FormulaEval, type FormulaResult, type TableOneRow } from './support/formula-eval';

/*
 * The number, date and array functions of the formula language, evaluated on the test
 * database (SQLite, or PostgreSQL with ROWSPACE_TEST_DB=postgres): the values and types
 * Baserow 1.35's tests expect (test_baserow_formula_results.py), NaN included (the text 'NaN').
 */

let db: FormulaEval;

beforeAll(async () => {
  db = await FormulaEval.open();
});

afterAll(async () => {
  await db.close();
});

async function run(formula: string, row: TableOneRow = {}): Promise<FormulaResult> {
  const result = await db.eval(formula, row);
  if (result.type.name === 'invalid') throw new Error(`${formula}: ${result.type.error}`);
  return result;
}

/** The value as the driver answers it. */
const value = async (formula: string, row?: TableOneRow) => (await run(formula, row)).value;
/** A number (PostgreSQL answers numeric as text), NaN for Baserow's NaN (the text 'NaN' on both databases), or null. */
const num = async (formula: string, row?: TableOneRow) => {
  const v = await value(formula, row);
  if (v === null || v === 'NaN') return v === null ? null : NaN;
  if (Number.isNaN(Number(v))) throw new Error(`${formula}: ${String(v)} is not a number`);
  return Number(v);
};
/** A boolean (SQLite answers 0/1), or null. */
const bool = async (formula: string, row?: TableOneRow) => {
  const v = await value(formula, row);
  return v === null ? null : v === true || v === 1;
};
/** A date or datetime as the API writes it (`2020-01-01`, `2020-01-01T10:00:00Z`), whichever database answered. */
const date = async (formula: string, row?: TableOneRow) => {
  const result = await run(formula, row);
  return formatDateValue(result.value as string | null, !!result.type.props.date_include_time);
};
/** The decimal places of a number result. */
const places = async (formula: string) => (await run(formula)).type.props.number_decimal_places;
/** The error of an invalid formula, null when it is valid. */
const error = async (formula: string) => {
  const result = await db.eval(formula);
  return result.type.name === 'invalid' ? result.type.error : null;
};

const LINKED: TableOneRow = {
  Link: [
    { Name: 'a', Amount: 1.5 },
    { Name: null, Amount: 2.25 },
    { Name: 'c', Amount: null },
    { Name: 'd', Amount: 4 },
  ],
};

describe('number functions', () => {
  it('adds, subtracts, multiplies and divides with Baserow decimal places', async () => {
    expect(await num('1+1')).toBe(2);
    expect(await places('1+1')).toBe(0);
    expect(await num('10/3')).toBeCloseTo(3.3333333333, 9);
    expect(await places('10/3')).toBe(10);
    expect(await num('(10+2)/3')).toBeCloseTo(4, 9);
    expect(await num('1/2/4')).toBeCloseTo(0.125, 9);
    expect(await num('1.2 * 2')).toBeCloseTo(2.4, 9);
    expect(await places('1.2 * 2')).toBe(1);
    expect(await num("field('Num') - 0.125", { Num: 1 })).toBeCloseTo(0.875, 9);
    expect(await places("field('Num') - 0.125")).toBe(3);
    expect(await places("field('Num') * 2")).toBe(2);
  });

  it('reads an empty number as 0, and the result is not nullable', async () => {
    expect(await num("field('Num') + 1", { Num: 1.5 })).toBeCloseTo(2.5, 9);
    expect(await num("field('Num') + 1", { Num: null })).toBe(1);
    expect((await run("field('Num') + 1")).type.nullable).toBe(false);
    expect((await run("field('Num')")).type.nullable).toBe(true);
  });

  it('answers NaN for a division by zero, as Baserow', async () => {
    expect(await num('1/0')).toBeNaN();
    expect(await num("1/field('Num')", { Num: 0 })).toBeNaN();
    expect(await num("1/field('Num')", { Num: null })).toBeNaN();
    expect(await num('mod(1234, 0)')).toBeNaN();
  });

  it('mod', async () => {
    expect(await num('mod(5, 2)')).toBe(1);
    expect(await num('mod(4.5, 1)')).toBeCloseTo(0.5, 9);
    expect(await num('mod(3.12345, 2)')).toBeCloseTo(1.12345, 9);
    expect(await places('mod(3.12345, 2)')).toBe(5);
    expect(await num('mod(3, -2)')).toBe(1);
    expect(await num('mod(-3, -2)')).toBe(-1);
    expect(await num('mod(0, 3)')).toBe(0);
  });

  it('round: the literal decimal places (10 otherwise), negative places left of the point', async () => {
    expect(await num('round(1.12345, 0)')).toBe(1);
    expect(await places('round(1.12345, 0)')).toBe(0);
    expect(await num('round(1.12345, 4)')).toBeCloseTo(1.1235, 9);
    expect(await places('round(1.12345, 4)')).toBe(4);
    expect(await num('round(1.12345, 100)')).toBeCloseTo(1.12345, 9);
    expect(await places('round(1.12345, 100)')).toBe(10);
    expect(await num('round(1234.5678, -2)')).toBe(1200);
    expect(await num('round(1234.5678, -2.99999)')).toBe(1200);
    expect(await num('round(2.5, 0)')).toBe(3);
    expect(await num('round(-2.5, 0)')).toBe(-3);
    expect(await num('round(1.005, 2)')).toBeCloseTo(1.01, 9);
    expect(await num("round(field('Num'), field('Num'))", { Num: 1.55 })).toBeCloseTo(1.6, 9);
    expect(await places("round(field('Num'), 1)")).toBe(1);
    expect(await places("round(1, field('Num'))")).toBe(10);
    expect(await num('round(1234.5678, 1/0)')).toBeNaN();
  });

  it('trunc, int, ceil, floor, sign and abs', async () => {
    expect(await num('trunc(1.56)')).toBe(1);
    expect(await num('trunc(-1.56)')).toBe(-1);
    expect(await num('int(-1.56)')).toBe(-1);
    expect(await num('trunc(1/0)')).toBeNaN();
    expect(await num('ceil(1.1234)')).toBe(2);
    expect(await num('ceil(-1.56)')).toBe(-1);
    expect(await num('floor(1.56)')).toBe(1);
    expect(await num('floor(-1.56)')).toBe(-2);
    expect(await places('floor(-1.56)')).toBe(0);
    expect(await num('sign(1123.4)')).toBe(1);
    expect(await num('sign(-1.56)')).toBe(-1);
    expect(await num('sign(0)')).toBe(0);
    expect(await num('abs(-1.56)')).toBeCloseTo(1.56, 9);
    expect(await places('abs(-1.56)')).toBe(2);
    expect(await num("abs(field('Num'))", { Num: null })).toBe(0);
  });

  it('even and odd (false for NaN)', async () => {
    expect(await bool('even(2)')).toBe(true);
    expect(await bool('even(2.5)')).toBe(false);
    expect(await bool('even(5)')).toBe(false);
    expect(await bool('even(1/0)')).toBe(false);
    expect(await bool('odd(5)')).toBe(true);
    expect(await bool('odd(2)')).toBe(false);
    expect(await bool('odd(2.5)')).toBe(false);
    expect(await bool('odd(1/0)')).toBe(false);
  });

  it('ln, log, sqrt, power and exp, NaN out of their domain', async () => {
    expect(await num('ln(9.0)')).toBeCloseTo(2.1972245773, 8);
    expect(await places('ln(9.0)')).toBe(1);
    expect(await num('ln(0)')).toBeNaN();
    expect(await num('ln(-1)')).toBeNaN();
    expect(await num('log(3, 9.0)')).toBeCloseTo(2, 9);
    expect(await places('log(3, 9.0)')).toBe(1);
    expect(await num('log(125.000, 5)')).toBeCloseTo(1 / 3, 9);
    expect(await num('log(0, 5)')).toBeNaN();
    expect(await num('log(5, 0)')).toBeNaN();
    expect(await num('log(1, 5)')).toBeNaN();
    expect(await num('sqrt(9)')).toBeCloseTo(3, 9);
    expect(await num('sqrt(2.00)')).toBeCloseTo(Math.SQRT2, 9);
    expect(await num('sqrt(-1)')).toBeNaN();
    expect(await num('power(3.0, 2)')).toBeCloseTo(9, 9);
    expect(await places('power(3.0, 2)')).toBe(1);
    expect(await num('power(-2, 3)')).toBeCloseTo(-8, 9);
    expect(await num('power(25, 0.5)')).toBeCloseTo(5, 9);
    expect(await num('power(-4.55, 0)')).toBeCloseTo(1, 9);
    expect(await num('power(0, -1)')).toBeNaN();
    expect(await num('power(-8, 0.5)')).toBeNaN();
    expect(await num('power(10, 60)')).toBeNaN();
    expect(await num('exp(1.000)')).toBeCloseTo(Math.E, 9);
    expect(await places('exp(1.000)')).toBe(3);
    expect(await num('exp(0)')).toBeCloseTo(1, 9);
    expect(await num('exp(-1.00)')).toBeCloseTo(0.3678794412, 9);
    expect(await num('exp(200)')).toBeNaN();
  });

  it('greatest and least (an empty argument leaves the other one)', async () => {
    expect(await num('greatest(1, 2.5)')).toBeCloseTo(2.5, 9);
    expect(await places('greatest(1, 2.5)')).toBe(1);
    expect(await num('least(1, 2.5)')).toBe(1);
    expect(await num("greatest(field('Num'), 3)", { Num: null })).toBe(3);
    expect(await num("least(field('Num'), 3)", { Num: null })).toBe(3);
    expect(await num("least(field('Num'), 3)", { Num: 1 })).toBe(1);
    expect((await run("least(field('Num'), field('Num'))")).type.nullable).toBe(true);
  });

  it('is_nan, when_nan and error_to_nan', async () => {
    expect(await bool('is_nan(1/0)')).toBe(true);
    expect(await bool('is_nan(1)')).toBe(false);
    expect(await bool("is_nan(field('Num'))", { Num: null })).toBe(false);
    expect(await num('when_nan(1/0, 4)')).toBe(4);
    expect(await places('when_nan(1/0, 4)')).toBe(10);
    expect(await num('when_nan(1.0, 4)')).toBe(1);
    expect(await places('when_nan(1.0, 4)')).toBe(1);
    expect(await num('error_to_nan(2)')).toBe(2);
    expect(await num('when_nan(1/0, 1/0)')).toBeNaN();
    expect(await bool("is_nan(tonumber('a'))")).toBe(true);
  });

  it('NaN carries through every number function, as Baserow', async () => {
    for (const formula of ['round(1/0, 2)', 'round(1/0, 1/0)', "round(tonumber('invalid'), 2)", "round(1234.5678, tonumber('invalid'))", 'mod(0, 1/0)', 'mod(1/0, 2)', "mod(12, tonumber('invalid'))"]) {
      expect(await num(formula)).toBeNaN();
    }
    for (const formula of ['abs(1/0)', 'ceil(1/0)', 'floor(1/0)', 'sign(1/0)', 'int(1/0)', 'ln(1/0)', 'log(1/0, 2)', 'sqrt(1/0)', 'power(1/0, 2)', 'power(2, 1/0)', 'exp(1/0)', '1/0 + 1', '2 * (1/0)', '1 - 1/0', '1/(1/0)']) {
      expect(await num(formula)).toBeNaN();
    }
    expect(await num("field('Num') / 0", { Num: 5 })).toBeNaN();
    expect(await bool("even(tonumber('invalid'))")).toBe(false);
    expect(await bool("not(isblank(tonumber('x')))")).toBe(true);
    expect(await bool('isblank(0)')).toBe(true);
    expect(await value('totext(1/0)')).toBe('NaN');
    expect(await bool('1/0 > 1000')).toBe(true);
    expect(await bool('1/0 = 1/0')).toBe(true);
  });

  it('numbers beyond Baserow\'s decimals (10^50) are NaN', async () => {
    expect(await num(`${'9'.repeat(100)}+1`)).toBeNaN();
    expect(await num(`tonumber('${'9'.repeat(100)}')+1`)).toBeNaN();
    expect(await num(`-${'9'.repeat(60)}`)).toBeNaN();
    expect(await num("field('Num')", { Num: null })).toBeNull();
  });

  it('tonumber: 10 decimal places, NaN for what is not a number', async () => {
    expect(await num("tonumber('1')")).toBe(1);
    expect(await places("tonumber('1')")).toBe(10);
    expect(await num("tonumber('a')")).toBeNaN();
    expect(await num("tonumber('12abc')")).toBeNaN();
    expect(await num("tonumber('-12.12345')")).toBeCloseTo(-12.12345, 9);
    expect(await num("tonumber(' 42 ')")).toBe(42);
    expect(await num("tonumber('1.123456')")).toBeCloseTo(1.12346, 9);
    expect(await num("tonumber('1e3')")).toBe(1000);
    expect(await num(`tonumber('${'9'.repeat(100)}')`)).toBeNaN();
    expect(await num("tonumber(field('Text'))", { Text: null })).toBeNaN();
    expect(await num("tonumber(field('Text')) + 1", { Text: '41' })).toBe(42);
  });
});

describe('operators on texts, dates and durations', () => {
  it('joins texts with +, an empty text as ""', async () => {
    expect(await value("'a' + 'b'")).toBe('ab');
    expect(await value("'a' + field('Text')", { Text: null })).toBe('a');
    expect(await value("field('Text') + 'b'", { Text: 'x' })).toBe('xb');
  });

  it('moves dates by durations', async () => {
    expect(await date("todate('20200101', 'YYYYMMDD') + date_interval('1 day')")).toBe('2020-01-02');
    expect(await date("date_interval('1 day') + todate('20200101', 'YYYYMMDD')")).toBe('2020-01-02');
    expect(await date("todate('20200101', 'YYYYMMDD') + date_interval('1 second')")).toBe('2020-01-01');
    expect(await date("todate('20200101', 'YYYYMMDD') - date_interval('1 day')")).toBe('2019-12-31');
    expect(await date("field('DateTime') + field('Dur')", { DateTime: '2020-01-07T13:05:09Z', Dur: 3661 })).toBe('2020-01-07T14:06:10Z');
    expect(await date("field('DateTime') - date_interval('1 hour')", { DateTime: '2020-01-07T00:30:00Z' })).toBe('2020-01-06T23:30:00Z');
    expect(await date("field('Date') + date_interval('1 day')", { Date: null })).toBeNull();
    expect(await num("month(todate('20200601', 'YYYYMMDD') - date_interval('1 year'))")).toBe(6);
    // Calendar intervals, as Baserow's PostgreSQL interval: a year is 12 months, not 365 days.
    expect(await date("todate('20200101', 'YYYYMMDD') + date_interval('1 year')")).toBe('2021-01-01');
    expect(await date("date_interval('1 year') + todate('20200101', 'YYYYMMDD')")).toBe('2021-01-01');
    expect(await date("todate('20200101', 'YYYYMMDD') - date_interval('1 year')")).toBe('2019-01-01');
    expect(await date("todate('20200131', 'YYYYMMDD') + date_interval('1 month')")).toBe('2020-02-29');
    expect(await date("todate('20200131', 'YYYYMMDD') + date_interval('1 month 1 day')")).toBe('2020-03-01');
    expect(await date("field('DateTime') + date_interval('1 year 2 hours')", { DateTime: '2020-02-29T10:00:00Z' })).toBe('2021-02-28T12:00:00Z');
    expect(await date("todate('20200101', 'YYYYMMDD') + (date_interval('1 year') + date_interval('1 day'))")).toBe('2021-01-02');
    expect(await num("date_interval('1 year')")).toBe(365 * 24 * 3600);
    const moved = await run("field('Date') + date_interval('1 day')");
    expect(moved.type.name).toBe('date');
    expect(moved.type.props.date_include_time).toBe(false);
  });

  it('subtracts dates into durations and computes with durations', async () => {
    const diff = await run("todate('20200101', 'YYYYMMDD') - todate('20210101', 'YYYYMMDD')");
    expect(diff.type.name).toBe('duration');
    expect(Number(diff.value)).toBe(-366 * 24 * 3600);
    expect(await num("field('DateTime') - field('Date')", { DateTime: '2020-01-02T01:00:00Z', Date: '2020-01-01' })).toBe(25 * 3600);
    expect(await num("date_interval('1 year') - date_interval('1 day')")).toBe(364 * 24 * 3600);
    expect(await num("date_interval('1 minute') * 2")).toBe(120);
    expect(await num("3 * date_interval('1 minute')")).toBe(180);
    expect(await num("date_interval('1 minute') / 2")).toBe(30);
    expect(await num("date_interval('1 minute') / 0")).toBeNull();
    expect(await num("field('Dur') + field('Dur')", { Dur: 3661 })).toBe(7322);
    expect(await num("field('Dur') + date_interval('1 minute')", { Dur: null })).toBe(60);
    expect((await run("field('Dur') * 2")).type.props.duration_format).toBe('h:mm:ss');
  });
});

describe('totext', () => {
  it('formats numbers with their decimal places and booleans as true/false', async () => {
    expect(await value('totext(1)')).toBe('1');
    expect(await value('totext(1.5)')).toBe('1.5');
    expect(await value("totext(field('Num'))", { Num: 1.5 })).toBe('1.50');
    expect(await value("totext(field('Num'))", { Num: null })).toBe('');
    expect(await value('totext(1/3)')).toBe('0.3333333333');
    expect(await value('totext(true)')).toBe('true');
    expect(await value("totext(field('Bool'))", { Bool: false })).toBe('false');
    expect(await value("totext(field('Text'))", { Text: 'x' })).toBe('x');
    expect((await run("totext(field('Num'))")).type).toMatchObject({ name: 'text', nullable: false });
  });

  it('formats dates in their field format and zone', async () => {
    expect(await value("totext(field('Date'))", { Date: '2020-01-31' })).toBe('2020-01-31');
    expect(await value("totext(field('Date'))", { Date: null })).toBe('');
    expect(await value("totext(field('DateTime'))", { DateTime: '2020-01-07T13:05:09Z' })).toBe('2020-01-07 13:05');
    expect(await value("totext(todate('20200101', 'YYYYMMDD'))")).toBe('2020-01-01');
    expect(await value("totext(todate_tz('20200101 1230', 'YYYYMMDD HH24MI', 'Europe/Rome'))")).toBe('2020-01-01 12:30');
  });

  it('formats durations as PostgreSQL writes intervals', async () => {
    expect(await value("totext(field('Dur'))", { Dur: 3661 })).toBe('01:01:01');
    expect(await value("totext(field('Dur'))", { Dur: 90061 })).toBe('1 day 01:01:01');
    expect(await value("totext(field('Dur'))", { Dur: 172800 })).toBe('2 days');
    expect(await value("totext(field('Dur'))", { Dur: 1.5 })).toBe('00:00:01.5');
    expect(await value("totext(field('Dur'))", { Dur: -3600 })).toBe('-01:00:00');
    expect(await value("totext(field('Dur'))", { Dur: null })).toBe('');
    expect(await value("totext(date_interval('1 day 2 hours'))")).toBe('1 day 02:00:00');
  });

  it('formats each element of a list', async () => {
    expect(await value("join(totext(lookup('Link', 'Amount')), ';')", LINKED)).toBe('1.50;2.25;;4.00');
  });
});

describe('date functions', () => {
  it('todate reads text with PostgreSQL templates', async () => {
    expect(await date("todate('20170103', 'YYYYMMDD')")).toBe('2017-01-03');
    expect(await date("todate('blah', 'YYYY')")).toBeNull();
    expect(await date("todate('aaaa', 'DDMMYYYY')")).toBeNull();
    expect(await date("todate('01123456', 'DDMMYYYY')")).toBe('3456-12-01');
    expect(await date("todate('2021-01-22 ', 'YYYY-MM-DD')")).toBe('2021-01-22');
    expect(await date("todate('20200201T00', 'YYYY-MM-DD')")).toBeNull();
    expect(await date("todate('2020-1-5', 'YYYY-MM-DD')")).toBe('2020-01-05');
    expect(await date("todate('5 March 2021', 'DD Month YYYY')")).toBe('2021-03-05');
    expect(await date("todate('15-Jun-20', 'DD-Mon-YY')")).toBe('2020-06-15');
    expect(await date("todate('31/12/2020 23:59', 'DD/MM/YYYY HH24:MI')")).toBe('2020-12-31');
    expect(await date("todate('2020-02-30', 'YYYY-MM-DD')")).toBeNull();
    expect(await date("todate('2020-13-01', 'YYYY-MM-DD')")).toBeNull();
    expect(await date("todate('10:30', 'HH24:MI')")).toBeNull();
    expect(await date("todate('', 'YYYY')")).toBeNull();
    expect(await date("todate(field('Text'), 'YYYY')", { Text: null })).toBeNull();
    expect(await date("todate('2020-06-15', field('Text'))", { Text: 'YYYY-MM-DD' })).toBe('2020-06-15');
    const result = await run("todate('20170103', 'YYYYMMDD')");
    expect(result.type).toMatchObject({ name: 'date', nullable: true, props: { date_format: 'ISO', date_include_time: false } });
  });

  it.each([
    ['1st Jan 2020', 'DDth Mon YYYY', '2020-01-01'],
    ['2020T01', 'YYYY"T"MM', '2020-01-01'],
    ['2020 01', 'YYYY"T"MM', '2020-01-01'],
    ['2,020-03-04', 'Y,YYY-MM-DD', '2020-03-04'],
    ['2020 IV 01', 'YYYY RM DD', '2020-04-01'],
    ['366 2020', 'DDD YYYY', '2020-12-31'],
    ['70-01-01', 'YY-MM-DD', '1970-01-01'],
    ['2020January05', 'YYYYMonthDD', '2020-01-05'],
    ['Tuesday 2020-01-07', 'Day YYYY-MM-DD', '2020-01-07'],
    ['2020-01-01 garbage', 'YYYY-MM-DD', '2020-01-01'],
    ['2020-01', 'YYYY-MM-DD', '2020-01-01'],
    ['2020-00-05', 'YYYY-MM-DD', '2020-01-05'],
    ['2020/01/01', 'yyyy-mm-dd', '2020-01-01'],
    ['2020-01-01 13:00', 'YYYY-MM-DD HH:MI', null],
    ['2020-01-01 10:11:60', 'YYYY-MM-DD HH24:MI:SS', null],
    ['2020--01-01', 'YYYY-MM-DD', null],
    ['0229', 'MMDD', null],
    ['99999999999', 'YYYY', null],
    ['2020 January 05', 'YYYY Mon DD', null],
    ['2020-06-15', 'YYYY-MM-DD TZ', null],
  ])('todate(%j, %j) reads as PostgreSQL to_timestamp does: %s', async (text, template, expected) => {
    expect(await date(`todate('${text}', '${template.replace(/'/g, "''")}')`)).toBe(expected);
  });

  it('todate_tz reads a wall clock of a time zone', async () => {
    expect(await date("todate_tz('20200101', 'YYYYMMDD', 'CET')")).toBe('2019-12-31T23:00:00Z');
    expect(await date("todate_tz('2020-07-01 12:00', 'YYYY-MM-DD HH24:MI', 'America/New_York')")).toBe('2020-07-01T16:00:00Z');
    expect(await date("todate_tz('2020-01-01 12:30 PM', 'YYYY-MM-DD HH12:MI AM', 'UTC')")).toBe('2020-01-01T12:30:00Z');
    expect(await date("todate_tz('20200101', 'YYYYMMDD', 'NONSENSE')")).toBeNull();
    expect(await date("todate_tz('20200101', 'NONSENSE', 'NONSENSE')")).toBeNull();
    expect(await date("todate_tz('', '', '')")).toBeNull();
    const result = await run("todate_tz('20200101', 'YYYYMMDD', 'CET')");
    expect(result.type.props).toMatchObject({ date_include_time: true, date_show_tzinfo: true, date_force_timezone: 'CET' });
  });

  it('datetime_format and datetime_format_tz write dates with PostgreSQL templates', async () => {
    expect(await value("datetime_format_tz(todate_tz('20200101 0000', 'YYYYMMDD HH24MI', 'Europe/Rome'), 'YYYYMMDD HH24MI', 'Europe/Rome')")).toBe('20200101 0000');
    expect(await value("datetime_format(todate_tz('20200101 0000', 'YYYYMMDD HH24MI', 'Europe/Rome'), 'YYYYMMDD HH24MI')")).toBe('20191231 2300');
    expect(await value("datetime_format(todate_tz('20200101 0000', 'YYYYMMDD HH24MI', 'Europe/Rome'), 'day')")).toBe('tuesday');
    expect(await value("datetime_format_tz(todate_tz('20200103 0000', 'YYYYMMDD HH24MI', 'Europe/Rome'), 'day', 'Europe/Rome')")).toBe('friday');
    const row = { DateTime: '2020-01-07T13:05:09.123456Z', Date: '2020-01-31' };
    expect(await value("datetime_format(field('DateTime'), 'FMDay, FMDDth FMMonth YYYY HH12:MI AM')", row)).toBe('Tuesday, 7th January 2020 01:05 PM');
    expect(await value("datetime_format(field('DateTime'), 'YYYY-MM-DD\"T\"HH24:MI:SS.US DDD Q Mon')", row)).toBe('2020-01-07T13:05:09.123456 007 1 Jan');
    expect(await value("datetime_format(field('Date'), 'DD/MM/YYYY HH24:MI')", row)).toBe('31/01/2020 00:00');
    expect(await value("datetime_format(field('Date'), 'YYYY')", { Date: null })).toBe('');
    expect(await value("datetime_format_tz(field('DateTime'), 'HH24:MI', 'Asia/Kolkata')", row)).toBe('18:35');
    expect(await value("datetime_format_tz(field('Date'), 'YYYY-MM-DD HH24:MI', 'America/New_York')", row)).toBe('2020-01-30 19:00');
    expect(await value("datetime_format_tz(field('DateTime'), 'HH24:MI', 'Nowhere/Special')", row)).toBe('');
  });

  it.each([
    ['YYYY Y,YYY YYY YY Y MM Month month MONTH Mon mon MON DD DDD D ID', '2020 2,020 020 20 0 01 January   january   JANUARY   Jan jan JAN 07 007 3 2'],
    ['Day day DAY DY Dy dy', 'Tuesday   tuesday   TUESDAY   TUE Tue tue'],
    ['HH HH12 HH24 MI SS MS US FF1 FF6 AM am P.M. a.m. SSSS', '01 01 13 05 09 123 123456 1 123456 PM pm P.M. p.m. 47109'],
    ['Q W WW IW IYYY J CC RM rm', '1 1 01 02 2020 2458856 21 I    i'],
    ['FMDD FMMonth FMHH12 DDth DDTH FMDDth "YYYY" \\"x', '7 January 1 07th 07TH 7th YYYY "x'],
  ])('datetime_format(…, %j) writes as PostgreSQL to_char does', async (template, expected) => {
    const row = { DateTime: '2020-01-07T13:05:09.123456Z' };
    expect(await value(`datetime_format(field('DateTime'), '${template}')`, row)).toBe(expected);
  });

  it('day, month, year (UTC) and second', async () => {
    expect(await num("day(todate('20170103', 'YYYYMMDD'))")).toBe(3);
    expect(await num("month(todate('20170103', 'YYYYMMDD'))")).toBe(1);
    expect(await num("year(todate('20170103', 'YYYYMMDD'))")).toBe(2017);
    expect(await num("day(field('DateTime'))", { DateTime: '2020-01-07T23:30:00Z' })).toBe(7);
    expect(await num("day(field('Date'))", { Date: null })).toBeNull();
    expect((await run("day(field('Date'))")).type).toMatchObject({ name: 'number', nullable: true, props: { number_decimal_places: 0 } });
    expect(await num("second(field('DateTime'))", { DateTime: '2020-01-07T13:05:09Z' })).toBe(9);
  });

  it('date_diff counts whole units', async () => {
    const at = (text: string) => `todate_tz('${text}', 'YYYY-MM-DD HH24:MI', 'UTC')`;
    expect(await num("date_diff('yy', todate('20200101', 'YYYYMMDD'), todate('20100101', 'YYYYMMDD'))")).toBe(-10);
    expect(await num("date_diff('incorrect thingy', todate('20200101', 'YYYYMMDD'), todate('20100101', 'YYYYMMDD'))")).toBeNaN();
    expect(await num(`date_diff('dd', ${at('2020-02-01 00:10')}, ${at('2020-03-02 00:10')})`)).toBe(30);
    expect(await num(`date_diff('dd', ${at('2020-02-01 02:00')}, ${at('2020-10-01 04:00')})`)).toBe(243);
    expect(await num(`date_diff('day', ${at('2020-01-03 00:00')}, ${at('2020-01-01 12:00')})`)).toBe(-1);
    expect(await num("date_diff('mm', todate('20200131', 'YYYYMMDD'), todate('20200201', 'YYYYMMDD'))")).toBe(1);
    expect(await num("date_diff('week', todate('20200101', 'YYYYMMDD'), todate('20200111', 'YYYYMMDD'))")).toBe(1);
    expect(await num("date_diff('week', todate('20200101', 'YYYYMMDD'), todate('20200112', 'YYYYMMDD'))")).toBe(2);
    expect(await num(`date_diff('hh', ${at('2020-01-01 00:00')}, ${at('2020-01-02 01:59')})`)).toBe(25);
    expect(await num(`date_diff('mi', ${at('2020-01-01 00:00')}, ${at('2020-01-01 01:59')})`)).toBe(119);
    expect(await num(`date_diff('s', ${at('2020-01-01 00:00')}, ${at('2020-01-01 00:02')})`)).toBe(120);
    expect(await num("date_diff('dd', field('Date'), todate('20200101', 'YYYYMMDD'))", { Date: null })).toBeNull();
  });

  it('date_interval, toduration and toseconds (durations in seconds)', async () => {
    expect(await num("date_interval('1 year')")).toBe(365 * 24 * 3600);
    expect(await num("date_interval('1 day 2 hours')")).toBe(93600);
    expect(await num("date_interval('2:30')")).toBe(9000);
    expect(await num("date_interval('1.5 days')")).toBe(129600);
    expect(await num("date_interval('1 hour ago')")).toBe(-3600);
    expect(await num("date_interval('1 invalid')")).toBeNull();
    expect(await num("date_interval('1 year 1 year')")).toBeNull();
    expect((await run("date_interval('1 day')")).type).toMatchObject({ name: 'duration', nullable: true });
    expect(await num("toseconds(date_interval('1 minute'))")).toBe(60);
    expect(await value("totext(date_interval('1 year'))")).toBe('1 year');
    expect(await value("totext(date_interval('2 years 3 months 4 days 1.5 hours'))")).toBe('2 years 3 mons 4 days 01:30:00');
    expect(await value("totext(date_interval('1 day ago'))")).toBe('-1 days');
    expect(await value("totext(date_interval('36 hours'))")).toBe('36:00:00');
    expect(await value("totext(date_interval('1.5 days'))")).toBe('1 day 12:00:00');
    expect(await num('toseconds(toduration(60))')).toBe(60);
    expect(await num('toduration(1/0)')).toBeNull();
  });

  it('now and today', async () => {
    const now = await date('now()');
    expect(Math.abs(Date.parse(now!) - Date.now())).toBeLessThan(60_000);
    expect(await date('today()')).toBe(new Date().toISOString().slice(0, 10));
    expect((await run('today()')).type.props).toMatchObject({ date_include_time: false, date_force_timezone: 'UTC' });
  });
});

describe('array functions', () => {
  it('sum, avg, min and max of a lookup', async () => {
    expect(await num("sum(lookup('Link', 'Amount'))", LINKED)).toBeCloseTo(7.75, 9);
    expect(await places("sum(lookup('Link', 'Amount'))")).toBe(2);
    expect(await num("sum(lookup('Link', 'Amount'))", { Link: [] })).toBe(0);
    expect(await num("avg(lookup('Link', 'Amount'))", LINKED)).toBeCloseTo(7.75 / 3, 9);
    expect(await num("avg(lookup('Link', 'Amount'))", { Link: [] })).toBeNull();
    expect(await num("min(lookup('Link', 'Amount'))", LINKED)).toBeCloseTo(1.5, 9);
    expect(await num("max(lookup('Link', 'Amount'))", LINKED)).toBe(4);
    expect(await value("min(lookup('Link', 'Name'))", LINKED)).toBe('a');
    expect(await value("max(field('Link'))", LINKED)).toBe('d');
    expect(await num("sum(lookup('Link', 'Amount') * 2)", LINKED)).toBeCloseTo(15.5, 9);
  });

  it('count of a lookup and of a link field', async () => {
    expect(await num("count(field('Link'))", LINKED)).toBe(4);
    expect(await num("count(lookup('Link', 'Amount'))", LINKED)).toBe(4);
    expect(await num("count(field('Link'))", { Link: [] })).toBe(0);
    expect(await num("count(lookup('Link', 'Name') + 'x')", LINKED)).toBe(4);
    expect(await date("todate_tz('2020-06-15', 'YYYY-MM-DD TZ', 'UTC')")).toBeNull();
    expect(await places("count(field('Link'))")).toBe(0);
  });

  it('join in the link order, empty texts as ""', async () => {
    expect(await value("join(lookup('Link', 'Name'), ', ')", LINKED)).toBe('a, , c, d');
    expect(await value("join(field('Link'), '-')", LINKED)).toBe('a--c-d');
    expect(await value("join(field('Link'), '-')", { Link: [] })).toBeNull();
  });

  it('filter keeps the elements whose condition holds', async () => {
    expect(await num("sum(filter(lookup('Link', 'Amount'), lookup('Link', 'Amount') > 2))", LINKED)).toBeCloseTo(6.25, 9);
    expect(await value("join(filter(field('Link'), lookup('Link', 'Amount') > 2), ',')", LINKED)).toBe(',d');
    expect(await num("count(filter(field('Link'), field('Bool')))", { ...LINKED, Bool: false })).toBe(0);
    expect(await num("count(filter(field('Link'), field('Bool')))", { ...LINKED, Bool: true })).toBe(4);
    const list = await run("filter(lookup('Link', 'Amount'), lookup('Link', 'Amount') > 2)", LINKED);
    expect(list.value).toEqual([
      { id: 2, value: '2.25' },
      { id: 4, value: '4.00' },
    ]);
  });

  it('any and every', async () => {
    const amounts = { Link: [1.5, 2.25, 4].map((Amount) => ({ Name: 'x', Amount })) };
    expect(await bool("any(lookup('Link', 'Amount') > 3)", amounts)).toBe(true);
    expect(await bool("any(lookup('Link', 'Amount') > 5)", amounts)).toBe(false);
    expect(await bool("every(lookup('Link', 'Amount') > 1)", amounts)).toBe(true);
    expect(await bool("every(lookup('Link', 'Amount') > 2)", amounts)).toBe(false);
    expect(await bool("any(lookup('Link', 'Amount') > 3)", { Link: [] })).toBeNull();
  });

  it('standard deviations and variances (empty elements left out)', async () => {
    const amounts = { Link: [1, 2, null, 3, 4].map((Amount) => ({ Name: 'x', Amount })) };
    expect(await num("stddev_pop(lookup('Link', 'Amount'))", amounts)).toBeCloseTo(Math.sqrt(1.25), 9);
    expect(await num("stddev_sample(lookup('Link', 'Amount'))", amounts)).toBeCloseTo(Math.sqrt(5 / 3), 9);
    expect(await num("variance_pop(lookup('Link', 'Amount'))", amounts)).toBeCloseTo(1.25, 9);
    expect(await num("variance_sample(lookup('Link', 'Amount'))", amounts)).toBeCloseTo(5 / 3, 9);
    expect(await num("variance_sample(lookup('Link', 'Amount'))", { Link: [{ Name: 'x', Amount: 1 }] })).toBeNull();
    expect(await places("variance_pop(lookup('Link', 'Amount'))")).toBe(2);
  });
});

describe('argument errors, in Baserow words', () => {
  it.each([
    ["'a' + 2", 'argument number 2 given to operator + was of type number but the only usable types for this argument are text,char,link'],
    ['true + true', 'argument number 2 given to operator + was of type boolean but there are no possible types usable here'],
    ["'t' / 1", 'argument number 2 given to operator / was of type number but there are no possible types usable here'],
    ["1 / 't'", 'argument number 2 given to operator / was of type text but the only usable type for this argument is number'],
    [
      "todate('20200101', 'YYYYMMDD') + todate('20210101', 'YYYYMMDD')",
      'argument number 2 given to operator + was of type date but the only usable types for this argument are date_interval,duration',
    ],
    ["date_interval('1 second') - todate('20210101', 'YYYYMMDD')", 'argument number 2 given to operator - was of type date but the only usable type for this argument is duration'],
    ['sum(1)', 'argument number 1 given to function sum was of type number but the only usable type for this argument is a list of number, or duration values obtained from a lookup'],
    [
      "join(lookup('Link', 'Amount'), ',')",
      'argument number 1 given to function join was of type number but the only usable types for this argument are a list of text values obtained from a lookup,array',
    ],
    [
      'count(1)',
      'argument number 1 given to function count was of type number but the only usable types for this argument are a list of values obtained from a lookup,multiple_select,multiple_collaborators,array',
    ],
    ['filter(1, true)', 'first input to filter must be an expression of many values (a lookup function call or a field reference to a lookup/link field)'],
    ["round('a', 1)", 'argument number 1 given to function round was of type text but the only usable type for this argument is number'],
    ['tonumber(1)', 'argument number 1 given to function tonumber was of type number but the only usable type for this argument is text'],
    ["datetime_format('a', 'YYYY')", 'argument number 1 given to function datetime_format was of type text but the only usable type for this argument is date'],
    ['second(today())', 'cannot extract seconds from a date without time'],
  ])('%s', async (formula, expected) => {
    expect(await error(formula)).toBe(expected);
  });
});

describe('deep formulas', () => {
  it('compute on both databases up to the deepest nesting the parser accepts', async () => {
    expect(await num(`field('Num')${' + 1'.repeat(198)}`, { Num: 1 })).toBe(199);
    expect(await num(`${'abs('.repeat(198)}field('Num')${')'.repeat(198)}`, { Num: -2 })).toBe(2);
    expect(await num(`${'round('.repeat(198)}field('Num')${', 2)'.repeat(198)}`, { Num: 1.5 })).toBe(1.5);
    expect(await num(`1/0${' + 1'.repeat(198)}`)).toBeNaN();
  });
});
