import type { CompileScope } from '../expr';
import { formulaTypes, type FormulaType, type FormulaTypeName } from '../formula-type';
import { intervalParts } from '../sqlite/intervals';
import { fixed, once, textLiteral, withNullable } from './args';
import type { FormulaFunction } from './function';
import { numberType } from './number';
import { errorWhen } from './text-bounds';

/*
 * Date and duration functions of Baserow's formula language (function_defs.py: now, today,
 * todate, todate_tz, datetime_format, datetime_format_tz, day, month, year, second, date_diff,
 * date_interval, toduration, toseconds, bc_to_null). Date arithmetic (`+`, `-`) is in number.ts
 * with the operators, totext of dates and durations too.
 *
 * Dates read in UTC, as Baserow's database session does. Templates are PostgreSQL's
 * to_char/to_timestamp patterns on both databases (see the engine in ../sqlite/).
 * Durations are numbers of seconds: a year of date_interval is 365 days (as Baserow answers
 * durations). A literal date_interval also keeps its calendar parts, as Baserow's PostgreSQL
 * interval does: `todate('20200101', 'YYYYMMDD') + date_interval('1 year')` is 2021-01-01 and
 * `totext(date_interval('1 year'))` is `1 year`.
 */

const TEXT: readonly FormulaTypeName[] = ['text'];
const DATE: readonly FormulaTypeName[] = ['date'];
const includesTime = (type: FormulaType) => !!type.props.date_include_time;


/** A date part (UTC) as a whole number; NULL for NULL. */
const part = (type: string, name: 'year' | 'month' | 'day') =>
  fixed(type, [DATE], ([d], scope) => ({ type: numberType(0, d.type.nullable), sql: scope.db.datePart(name, d.sql, includesTime(d.type)) }));

/** A date type as Baserow's date functions answer it (ISO format, 24-hour clock). */
const isoDate = (includeTime: boolean, nullable: boolean, props: Record<string, unknown> = {}) => formulaTypes.date(includeTime, nullable, { date_format: 'ISO', date_time_format: '24', ...props });

/** Baserow's duration type of the date functions (format `d h:mm:ss`). */
const duration = (nullable: boolean) => formulaTypes.duration('d h:mm:ss', nullable);

/** date_diff's units (SQL Server's names, as Baserow's date_diff function takes them). */
const UNITS = {
  year: ['yy', 'yyyy', 'year'],
  month: ['mm', 'm', 'month'],
  week: ['wk', 'ww', 'week'],
  day: ['dd', 'd', 'day'],
  hour: ['hh', 'hour'],
  minute: ['mi', 'n', 'minute'],
  second: ['s', 'ss', 'second'],
};
const unitIn = (unit: string, names: readonly string[]) => `${unit} IN (${names.map((n) => `'${n}'`).join(', ')})`;

/**
 * Longest template todate and datetime_format read, and longest text todate and date_interval
 * read: PostgreSQL reads any, here a longer one is no date or duration (NULL; a format is the
 * error value), on both databases alike, so one call of their SQLite twins (sqlite/to-char.ts,
 * to-timestamp.ts, intervals.ts) stays within milliseconds. Real templates and dates are
 * a few dozen characters.
 */
const MAX_TEMPLATE_LENGTH = 200;
const MAX_DATE_TEXT_LENGTH = 1000;

/** todate's and todate_tz's SQL: NULL for a text or template past the bounds. */
function boundedParse(scope: CompileScope, text: string, template: string, build: (text: string, template: string) => string): string {
  return once(scope, [text, template], ([t, p]) => `CASE WHEN length(${t}) > ${MAX_DATE_TEXT_LENGTH} OR length(${p}) > ${MAX_TEMPLATE_LENGTH} THEN NULL ELSE ${build(t, p)} END`);
}

/** datetime_format's SQL: trimmed, '' for NULL, the error value for a template past the bound. */
function boundedFormat(scope: CompileScope, template: string, build: (template: string) => string): string {
  return once(scope, [template], ([p]) => errorWhen(`length(${p}) > ${MAX_TEMPLATE_LENGTH}`, `COALESCE(trim(${build(p)}), '')`));
}

export const DATE_FUNCTIONS: FormulaFunction[] = [
  {
    // The moment the formula is computed (the transaction's time on PostgreSQL).
    type: 'now',
    arity: { min: 0, max: 0 },
    aggregate: false,
    apply: (_args, scope) => ({ type: isoDate(true, false), sql: scope.db.now() }),
  },
  {
    // Today's date in UTC.
    type: 'today',
    arity: { min: 0, max: 0 },
    aggregate: false,
    apply: (_args, scope) => ({ type: isoDate(false, false, { date_force_timezone: 'UTC' }), sql: scope.db.today() }),
  },
  // todate(text, template): the date PostgreSQL's to_timestamp reads (NULL when it cannot).
  fixed('todate', [TEXT, TEXT], ([text, template], scope, raw) => ({
    type: isoDate(false, true),
    sql: boundedParse(scope, text.sql, template.sql, (t, p) => scope.db.parseDate(t, p, textLiteral(raw[1]), null, true, scope.text)),
  })),
  // todate_tz(text, template, zone): the moment of that wall clock in the zone.
  fixed('todate_tz', [TEXT, TEXT, TEXT], ([text, template, zone], scope, raw) => ({
    type: isoDate(true, true, { date_show_tzinfo: true, date_force_timezone: textLiteral(raw[2]) }),
    sql: boundedParse(scope, text.sql, template.sql, (t, p) => scope.db.parseDate(t, p, textLiteral(raw[1]), zone.sql, false, scope.text)),
  })),
  // datetime_format(date, template): to_char in UTC, trimmed; '' for NULL.
  fixed('datetime_format', [DATE, TEXT], ([date, template], scope) => ({
    type: formulaTypes.text(date.type.nullable),
    sql: boundedFormat(scope, template.sql, (p) => scope.db.formatDate(date.sql, includesTime(date.type), p, null)),
  })),
  // datetime_format_tz(date, template, zone): to_char in the zone, trimmed; '' for NULL or an unknown zone.
  fixed('datetime_format_tz', [DATE, TEXT, TEXT], ([date, template, zone], scope) => ({
    type: formulaTypes.text(true),
    sql: boundedFormat(scope, template.sql, (p) => scope.db.formatDate(date.sql, includesTime(date.type), p, zone.sql)),
  })),
  part('day', 'day'),
  part('month', 'month'),
  part('year', 'year'),
  fixed('second', [DATE], ([d], scope) =>
    includesTime(d.type) ? { type: numberType(0, d.type.nullable), sql: scope.db.datePart('second', d.sql, true) } : 'cannot extract seconds from a date without time',
  ),
  // date_diff(unit, start, end): whole units from start to end (years and months by their
  // calendar numbers, weeks rounded); NaN for an unknown unit.
  fixed('date_diff', [TEXT, DATE, DATE], ([unit, start, end], scope) => ({
    type: numberType(0, start.type.nullable || end.type.nullable),
    sql: once(scope, [unit.sql, start.sql, end.sql], ([u, s, e]) => {
      const { db } = scope;
      const at = (expr: string, type: FormulaType, name: 'year' | 'month') => db.datePart(name, expr, includesTime(type));
      const years = `(${at(e, end.type, 'year')} - ${at(s, start.type, 'year')})`;
      const seconds = `(${db.epoch(e)} - ${db.epoch(s)})`;
      const days = `trunc(${seconds} / 86400)`;
      return `CASE WHEN ${unitIn(u, UNITS.year)} THEN ${years}
        WHEN ${unitIn(u, UNITS.month)} THEN ${years} * 12 + (${at(e, end.type, 'month')} - ${at(s, start.type, 'month')})
        WHEN ${unitIn(u, UNITS.week)} THEN round(${days} / 7)
        WHEN ${unitIn(u, UNITS.day)} THEN ${days}
        WHEN ${unitIn(u, UNITS.hour)} THEN trunc(${seconds} / 3600)
        WHEN ${unitIn(u, UNITS.minute)} THEN trunc(${seconds} / 60)
        WHEN ${unitIn(u, UNITS.second)} THEN ${seconds} ELSE ${db.nan()} END`;
    }),
  })),
  // date_interval(text): a duration read as a PostgreSQL interval (`1 day 2 hours`), NULL when it is not one.
  // A literal interval also keeps its calendar parts (see Expr.interval).
  fixed('date_interval', [TEXT], ([text], scope, raw) => {
    const literal = textLiteral(raw[0]);
    const interval = literal === null ? null : intervalParts(literal);
    const sql = once(scope, [text.sql], ([t]) => `CASE WHEN length(${t}) > ${MAX_DATE_TEXT_LENGTH} THEN NULL ELSE ${scope.db.intervalSeconds(t, scope.text)} END`);
    return { type: duration(true), sql, ...(interval ? { interval } : {}) };
  }),
  // toduration(seconds), toseconds(duration): durations are seconds already.
  // toduration(NaN) is NULL.
  fixed('toduration', [['number']], ([seconds], scope) => ({ type: duration(true), sql: scope.db.nanToNull(seconds.sql) })),
  fixed('toseconds', [['duration']], ([d]) => ({ type: numberType(0), sql: d.sql })),
  // Baserow's wrapper of date fields: BC dates as NULL (dates here are years 1..9999 already).
  fixed('bc_to_null', [DATE], ([d]) => ({ type: withNullable(d.type, true), sql: d.sql }), { coerce: false }),
];
