import type { CompileScope, Expr } from '../expr';
import { decimalPlaces, formulaTypes, type FormulaType, type FormulaTypeName } from '../formula-type';
import { accepts, argumentError, checkArgs, nanSafe, notNull, numberLiteral, once, selectOptionValue, withNullable } from './args';
import type { FormulaFunction } from './function';
import { boundedConcat } from './text-bounds';
import { intervalPartsText, type IntervalParts } from '../sqlite/intervals';

/*
 * Number functions of Baserow's formula language (function_defs.py: add, minus, multiply,
 * divide, mod, round, int/trunc, ceil, floor, sign, abs, even, odd, ln, exp, log, sqrt, power,
 * greatest, least, is_nan, when_nan, error_to_nan, tonumber) and totext, which formats every
 * type. `+` and `-` also join texts and do date and duration arithmetic, as Baserow's do.
 *
 * Baserow answers NaN for a division by zero, ln(0), tonumber('a')… and for results of 10^50
 * and more (its error_to_nan), and NaN carries through every number function: so here (the
 * dialect's `nan`; SQLite, whose arithmetic has no NaN, computes with `arithmetic` and `nanSafe`).
 */

/** Baserow's NUMBER_MAX_DECIMAL_PLACES: a division, tonumber and round by a non-literal keep this many. */
export const MAX_DECIMAL_PLACES = 10;

const NUMBER: readonly FormulaTypeName[] = ['number'];

/** A number type of `places` decimals (0..10), not nullable unless said. */
export const numberType = (places: number, nullable = false): FormulaType => formulaTypes.number(Math.min(Math.max(Math.trunc(places), 0), MAX_DECIMAL_PLACES), nullable);

/** Baserow's calculate_number_type: the most decimal places of the arguments (a plain number type). */
const widest = (...types: FormulaType[]): FormulaType => numberType(Math.max(0, ...types.map(decimalPlaces)));

/** Baserow's names of the types each left operand takes on the right (its addable_types, subtractable_types…). */
type OperandTable = Partial<Record<FormulaTypeName, readonly FormulaTypeName[]>>;
const TEXT_ADDABLE: readonly FormulaTypeName[] = ['text', 'char', 'link'];
const ADDABLE: OperandTable = {
  number: ['number'],
  text: TEXT_ADDABLE,
  char: TEXT_ADDABLE,
  url: TEXT_ADDABLE,
  date: ['date_interval', 'duration'],
  duration: ['duration', 'date'],
  date_interval: ['date_interval', 'date'],
};
const SUBTRACTABLE: OperandTable = { number: ['number'], date: ['date', 'date_interval', 'duration'], duration: ['duration'], date_interval: ['date_interval'] };
const MULTIPLIABLE: OperandTable = { number: ['number', 'duration'], duration: ['number'] };
const DIVIDABLE: OperandTable = { number: ['number'], duration: ['number'] };

const isDuration = (type: FormulaType) => type.name === 'duration' || type.name === 'date_interval';
const isTextual = (type: FormulaType) => type.name === 'text' || type.name === 'char' || type.name === 'url';
const includesTime = (type: FormulaType) => !!type.props.date_include_time;

/** A duration type like `like` (its format), nullable when either operand is. */
const durationLike = (like: FormulaType, a: Expr, b: Expr): FormulaType => formulaTypes.duration(String(like.props.duration_format ?? 'd h:mm:ss'), a.type.nullable || b.type.nullable);

/** A date moved by a duration: the date's type (nullable when either is). */
function shifted(date: Expr, seconds: string, nullable: boolean, scope: CompileScope): Expr {
  return { type: withNullable(date.type, nullable), sql: scope.db.addSeconds(date.sql, seconds, includesTime(date.type)) };
}

/**
 * A date moved forward (`sign` 1) or back by a duration: by a literal interval's calendar parts
 * (its months as PostgreSQL adds them, then its days and time), else by its seconds.
 */
function moved(date: Expr, by: Expr, sign: 1 | -1, nullable: boolean, scope: CompileScope): Expr {
  const parts = by.interval;
  if (!parts) return shifted(date, sign < 0 ? `(-(${by.sql}))` : by.sql, nullable, scope);
  const time = includesTime(date.type);
  const months = parts.months ? scope.db.addMonths(date.sql, sign * parts.months, time) : date.sql;
  const moment = scope.db.addSeconds(months, scope.db.number(String(sign * (parts.days * 86400 + parts.seconds))), time);
  // The duration's SQL stays in (its bound text), though its value is known.
  return { type: withNullable(date.type, nullable), sql: `CASE WHEN ${by.sql} IS NULL THEN NULL ELSE ${moment} END` };
}

/** The calendar parts of a sum or difference of two literal intervals. */
function combined(a: Expr, b: Expr, sign: 1 | -1): { interval?: IntervalParts } {
  if (!a.interval || !b.interval) return {};
  return { interval: { months: a.interval.months + sign * b.interval.months, days: a.interval.days + sign * b.interval.days, seconds: a.interval.seconds + sign * b.interval.seconds } };
}

/**
 * An operator function (`add` for `+`…): the left operand may be of any type, the right one
 * must be one the left one's type takes (Baserow's error names them). Both are coerced as
 * Baserow does (NULL number or duration 0, NULL text '').
 */
function operator(type: string, symbol: string, table: OperandTable, compile: (a: Expr, b: Expr, scope: CompileScope) => Expr): FormulaFunction {
  return {
    type,
    operator: symbol,
    arity: { min: 2, max: 2 },
    aggregate: false,
    apply([left, right], scope, call) {
      const usable = table[left.type.name] ?? [];
      if (!usable.some((name) => accepts(name, right.type.name))) return argumentError(call, 1, right.type, usable);
      return compile(notNull(left, scope), notNull(right, scope), scope);
    },
  };
}

/** A function of number arguments only, coerced (NULL is 0). */
function numeric(type: string, count: number, compile: (args: Expr[], scope: CompileScope) => Expr): FormulaFunction {
  return {
    type,
    arity: { min: count, max: count },
    aggregate: false,
    apply(args, scope, call) {
      const error = checkArgs(call, args, [NUMBER]);
      if (error) return error;
      return compile(
        args.map((arg) => notNull(arg, scope)),
        scope,
      );
    },
  };
}

/** A number function of one argument keeping the argument's type (abs, exp, ln, sqrt). */
const sameType = (type: string, sql: (x: string, scope: CompileScope) => string) => numeric(type, 1, ([x], scope) => ({ type: x.type, sql: sql(x.sql, scope) }));

/** A whole-number function of one argument (number with 0 decimal places); NaN stays NaN. */
const whole = (type: string, fn: 'trunc' | 'ceil' | 'floor' | 'sign', keepNullable = false) =>
  numeric(type, 1, ([x], scope) => ({ type: numberType(0, keepNullable && x.type.nullable), sql: scope.db.arithmetic(fn, x.sql) }));

/** A function of number values defined where `defined` holds (its refs), NaN elsewhere and for NaN. */
const partial = (scope: CompileScope, values: string[], defined: (refs: string[]) => string, value: (refs: string[]) => string) =>
  nanSafe(scope, values, (refs) => `CASE WHEN ${defined(refs)} THEN ${value(refs)} ELSE ${scope.db.nan()} END`, { reuse: true });

/** ln(10^50): exp() of more is out of Baserow's numbers (its error_to_nan). */
const LN_MAX = '115.1292546497';

/** A time zone name safe to write in SQL as a literal (IANA names: letters, digits, `/ _ + -`). */
const ZONE_NAME = /^[A-Za-z0-9_+\-/]{1,64}$/;

/**
 * A number value, NaN when it is beyond Baserow's decimals (10^50 and more, either sign):
 * Baserow's replace_errors_with_nan around number fields. NaN stays NaN.
 */
export function beyondRangeToNan(scope: CompileScope, sql: string): string {
  return once(scope, [sql], ([v]) => `CASE WHEN abs(${v}) >= ${scope.db.number('1e50')} THEN ${scope.db.nan()} ELSE ${v} END`);
}

/** Baserow's `totext` of a date: its field's format (datetime_format_tz in its zone, UTC by default). */
export function dateFormatTemplate(type: FormulaType): string {
  const date = { EU: 'DD/MM/YYYY', US: 'MM/DD/YYYY', ISO: 'YYYY-MM-DD' }[String(type.props.date_format ?? 'EU')] ?? 'DD/MM/YYYY';
  if (!includesTime(type)) return date;
  return `${date} ${type.props.date_time_format === '12' ? 'HH12:MIAM' : 'HH24:MI'}`;
}

/**
 * Baserow's totext of a value of any type (its types' cast_to_text): text as it is, numbers
 * with their decimal places, booleans `true`/`false`, dates in their field format and zone,
 * durations as PostgreSQL writes intervals (`1 day 02:00:00`), a select option its value, a
 * link its label; '' for NULL.
 */
export function toTextValue(arg: Expr, scope: CompileScope): Expr {
  const { db } = scope;
  const text = (sql: string, nullable = false): Expr => ({ type: formulaTypes.text(nullable), sql: nullable ? sql : `COALESCE(${sql}, '')` });
  switch (arg.type.name) {
    case 'text':
    case 'url':
    case 'char':
      return { type: formulaTypes.text(), sql: arg.sql };
    case 'number':
      return text(db.numberText(arg.sql, decimalPlaces(arg.type)));
    case 'boolean':
      return text(`CASE ${arg.sql} WHEN TRUE THEN 'true' WHEN FALSE THEN 'false' END`);
    case 'date': {
      // Nothing is bound (totext is also called by other functions after their arguments'
      // values were bound): the template is one of a few fixed texts, the zone a checked name.
      const zone = arg.type.props.date_force_timezone;
      const template = `'${dateFormatTemplate(arg.type)}'`;
      if (typeof zone === 'string' && zone && !ZONE_NAME.test(zone)) return text(`CASE WHEN ${arg.sql} IS NULL THEN NULL END`);
      const formatted = db.formatDate(arg.sql, includesTime(arg.type), template, typeof zone === 'string' && zone ? `'${zone}'` : null);
      return text(`trim(${formatted})`);
    }
    case 'duration':
    case 'date_interval':
      // A literal interval as PostgreSQL writes it (`1 year`): a constant of digits, letters and `:+-.`.
      if (arg.interval) return text(`CASE WHEN ${arg.sql} IS NULL THEN NULL ELSE '${intervalPartsText(arg.interval)}' END`);
      return text(db.intervalText(arg.sql));
    case 'single_select':
      return text(selectOptionValue(scope, arg.sql));
    case 'link':
    case 'button':
      return text(db.jsonGetText(arg.sql, 'label'), true);
    default:
      return text(`CAST(${arg.sql} AS TEXT)`);
  }
}

export const NUMBER_FUNCTIONS: FormulaFunction[] = [
  operator('add', '+', ADDABLE, (a, b, scope) => {
    if (a.type.name === 'number') return { type: widest(a.type, b.type), sql: scope.db.arithmetic('+', a.sql, b.sql) };
    if (isTextual(a.type)) {
      // Baserow's concat: both as text, NULL as ''; the error value past the formula text limit.
      const right = isTextual(b.type) ? b.sql : `COALESCE(${toTextValue(b, scope).sql}, '')`;
      return { type: formulaTypes.text(), sql: boundedConcat(scope, [a.sql, right]) };
    }
    const nullable = a.type.nullable || b.type.nullable;
    if (a.type.name === 'date') return moved(a, b, 1, nullable, scope);
    if (b.type.name === 'date') {
      if (a.interval) return moved(b, a, 1, nullable, scope);
      return { type: withNullable(b.type, nullable), sql: once(scope, [a.sql, b.sql], ([d, date]) => scope.db.addSeconds(date, d, includesTime(b.type))) };
    }
    return { type: durationLike(a.type, a, b), sql: `(${a.sql} + ${b.sql})`, ...combined(a, b, 1) };
  }),
  operator('minus', '-', SUBTRACTABLE, (a, b, scope) => {
    if (a.type.name === 'number') return { type: widest(a.type, b.type), sql: scope.db.arithmetic('-', a.sql, b.sql) };
    if (a.type.name === 'date' && b.type.name === 'date') {
      return { type: formulaTypes.duration('d h:mm:ss', a.type.nullable || b.type.nullable), sql: `(${scope.db.epoch(a.sql)} - ${scope.db.epoch(b.sql)})` };
    }
    if (a.type.name === 'date') return moved(a, b, -1, a.type.nullable || b.type.nullable, scope);
    return { type: durationLike(a.type, a, b), sql: `(${a.sql} - ${b.sql})`, ...combined(a, b, -1) };
  }),
  operator('multiply', '*', MULTIPLIABLE, (a, b, scope) => {
    // A duration times NaN is no duration (NULL, as Baserow's interval arithmetic fails).
    if (isDuration(a.type)) return { type: durationLike(a.type, a, b), sql: `(${a.sql} * ${scope.db.nanToNull(b.sql)})` };
    if (isDuration(b.type)) return { type: b.type, sql: `(${scope.db.nanToNull(a.sql)} * ${b.sql})` };
    return { type: widest(a.type, b.type), sql: scope.db.arithmetic('*', a.sql, b.sql) };
  }),
  // A number divided by zero is NaN; a duration divided by zero (or NaN) is NULL, as Baserow's.
  operator('divide', '/', DIVIDABLE, (a, b, scope) => {
    if (isDuration(a.type)) return { type: durationLike(a.type, a, b), sql: `(${a.sql} / NULLIF(${scope.db.nanToNull(b.sql)}, 0))` };
    return { type: numberType(MAX_DECIMAL_PLACES), sql: scope.db.arithmetic('/', a.sql, b.sql) };
  }),
  numeric('mod', 2, ([a, b], scope) => ({ type: widest(a.type, b.type), sql: scope.db.arithmetic('mod', a.sql, b.sql) })),
  {
    // round(x, n): n decimals (n < 0 rounds left of the point); the type keeps n decimals when n is a literal, else 10.
    type: 'round',
    arity: { min: 2, max: 2 },
    aggregate: false,
    apply(args, scope, call) {
      const error = checkArgs(call, args, [NUMBER]);
      if (error) return error;
      const literal = numberLiteral(args[1]);
      const [x, n] = args.map((arg) => notNull(arg, scope));
      // NaN for NaN and for places the database cannot round to.
      return { type: numberType(literal === null ? MAX_DECIMAL_PLACES : literal), sql: `COALESCE(${scope.db.roundTo(x.sql, n.sql)}, ${scope.db.nan()})` };
    },
  },
  whole('trunc', 'trunc', true),
  // Baserow's v3 name of trunc.
  whole('int', 'trunc', true),
  whole('ceil', 'ceil'),
  whole('floor', 'floor'),
  whole('sign', 'sign'),
  sameType('abs', (x, scope) => scope.db.arithmetic('abs', x)),
  // Out of their domain: NaN (as Baserow), never a database error.
  sameType('exp', (x, scope) => partial(scope, [x], ([v]) => `${v} < ${LN_MAX}`, ([v]) => `exp(${v})`)),
  sameType('ln', (x, scope) => partial(scope, [x], ([v]) => `${v} > 0`, ([v]) => `ln(${v})`)),
  sameType('sqrt', (x, scope) => partial(scope, [x], ([v]) => `${v} >= 0`, ([v]) => `sqrt(${v})`)),
  // log(base, x)
  numeric('log', 2, ([base, x], scope) => ({
    type: widest(base.type, x.type),
    sql: partial(scope, [base.sql, x.sql], ([b, v]) => `${b} > 0 AND ${b} <> 1 AND ${v} > 0`, ([b, v]) => `log(${b}, ${v})`),
  })),
  numeric('power', 2, ([a, b], scope) => ({
    type: widest(a.type, b.type),
    // 0 to a negative power, a negative number to a fraction, and results of 10^50 or more are NaN in Baserow.
    sql: partial(
      scope,
      [a.sql, b.sql],
      ([x, y]) => `NOT (${x} = 0 AND ${y} < 0) AND NOT (${x} < 0 AND ${y} <> trunc(${y})) AND (${x} = 0 OR ${y} * ln(CASE WHEN ${x} <> 0 THEN abs(${x}) END) < ${LN_MAX})`,
      ([x, y]) => `power(${x}, ${y})`,
    ),
  })),
  // NaN is neither even nor odd.
  numeric('even', 1, ([x], scope) => ({ type: formulaTypes.boolean(), sql: nanSafe(scope, [x.sql], ([v]) => `COALESCE(mod(${v}, 2) = 0, FALSE)`, { onNan: 'FALSE' }) })),
  numeric('odd', 1, ([x], scope) => ({ type: formulaTypes.boolean(), sql: nanSafe(scope, [x.sql], ([v]) => `COALESCE(mod(${v}, 2) = 1, FALSE)`, { onNan: 'FALSE' }) })),
  ...(['greatest', 'least'] as const).map(
    (name): FormulaFunction => ({
      // NULL arguments are not coerced: the other one answers.
      type: name,
      arity: { min: 2, max: 2 },
      aggregate: false,
      apply(args, scope, call) {
        const error = checkArgs(call, args, [NUMBER]);
        if (error) return error;
        const [a, b] = args;
        return { type: { ...widest(a.type, b.type), nullable: a.type.nullable && b.type.nullable }, sql: once(scope, [a.sql, b.sql], ([x, y]) => scope.db[name](x, y)) };
      },
    }),
  ),
  numeric('is_nan', 1, ([x], scope) => ({ type: formulaTypes.boolean(), sql: scope.db.isNan(x.sql) })),
  numeric('when_nan', 2, ([x, fallback], scope) => ({
    type: widest(x.type, fallback.type),
    sql: once(scope, [x.sql, fallback.sql], ([v, f]) => `CASE WHEN ${scope.db.isNan(v)} THEN ${f} ELSE ${v} END`),
  })),
  // Baserow's wrapper of number fields: numbers of 10^50 and more are NaN.
  numeric('error_to_nan', 1, ([x], scope) => ({ type: x.type, sql: beyondRangeToNan(scope, x.sql) })),
  {
    // A text as a number (10 decimal places; Baserow reads it as numeric(55, 5)); NaN when it is not one.
    type: 'tonumber',
    arity: { min: 1, max: 1 },
    aggregate: false,
    apply(args, scope, call) {
      const error = checkArgs(call, args, [['text']]);
      if (error) return error;
      const { db } = scope;
      const sql = once(scope, [notNull(args[0], scope).sql], ([text]) => {
        const pattern = `'^\\s*[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]{1,3})?\\s*$'`;
        return `CASE WHEN ${db.regexMatches(text, pattern)} THEN ${db.round(db.toNumber(text), 5)} ELSE ${db.nan()} END`;
      });
      return { type: numberType(MAX_DECIMAL_PLACES), sql: beyondRangeToNan(scope, sql) };
    },
  },
  {
    // Any value as text (its types' formats, see toTextValue); NULL arguments are not coerced.
    type: 'totext',
    arity: { min: 1, max: 1 },
    aggregate: false,
    apply([arg], scope) {
      return toTextValue(arg, scope);
    },
  },
];
