import { quote } from '../../../core/database/sql';
import type { CallSite, CompileScope, Expr } from '../expr';
import { decimalPlaces, formulaTypes, type FormulaType, type FormulaTypeName } from '../formula-type';
import { accepts, argumentError, checkArgs, fixed, notNull, once, selectOptionValue, withNullable } from './args';
import type { FormulaFunction } from './function';
import { toText } from './text';

/*
 * Boolean and conditional functions of Baserow's formula language (function_defs.py: if,
 * equal, not_equal, the four limit comparisons, and, or, not, isblank, is_null, when_empty,
 * row_id, error_to_null). Booleans are conditions on both databases (0/1 on
 * SQLite); see text.ts for the rule on writing each argument's SQL once and in order.
 */

const TEXT_COMPARABLE: readonly FormulaTypeName[] = ['text', 'date', 'number', 'boolean', 'char', 'link'];

/** Baserow's `comparable_types`: what the second argument of `=`/`!=` may be, by the first's type. */
const COMPARABLE: Partial<Record<FormulaTypeName, readonly FormulaTypeName[]>> = {
  text: TEXT_COMPARABLE,
  char: TEXT_COMPARABLE,
  url: TEXT_COMPARABLE,
  number: ['number', 'text'],
  boolean: ['boolean', 'text'],
  date: ['date', 'text'],
  duration: ['duration'],
  date_interval: ['date_interval'],
  link: ['link'],
  button: ['button'],
  single_select: ['single_select', 'text'],
  multiple_select: ['multiple_select'],
  single_file: ['single_file'],
};

/** Baserow's `limit_comparable_types`: what `>`, `>=`, `<`, `<=` compare a type with (texts only with texts, explicitly). */
const LIMIT_COMPARABLE: Partial<Record<FormulaTypeName, readonly FormulaTypeName[]>> = {
  text: ['text', 'char', 'link'],
  char: ['text', 'char', 'link'],
  url: ['text', 'char', 'link'],
  number: ['number'],
  date: ['date'],
  duration: ['duration'],
  date_interval: ['date_interval'],
};

const isDateTime = (type: FormulaType) => type.name === 'date' && !!type.props.date_include_time;

/**
 * Two values of one type made comparable in SQL: a date beside a datetime is read as the
 * datetime of its midnight UTC (as PostgreSQL compares them), so SQLite's ISO texts compare too.
 */
function aligned(a: Expr, b: Expr, scope: CompileScope): [Expr, Expr] {
  if (a.type.name !== 'date' || b.type.name !== 'date' || isDateTime(a.type) === isDateTime(b.type)) return [a, b];
  const lift = (e: Expr): Expr => (isDateTime(e.type) ? e : { type: { ...e.type, props: { ...e.type.props, date_include_time: true } }, sql: scope.db.dateAsDateTime(e.sql) });
  return [lift(a), lift(b)];
}

/** A value of `type` given where the other branch is of `to` (a date where a datetime is, or the reverse). */
function asDateKind(e: Expr, to: FormulaType, scope: CompileScope): string {
  if (e.type.name !== 'date' || to.name !== 'date' || isDateTime(e.type) === isDateTime(to)) return e.sql;
  return isDateTime(to) ? scope.db.dateAsDateTime(e.sql) : scope.db.dateTimeAsDate(e.sql);
}

/** Baserow's `=` of values that may be NULL: NULL equals only NULL. */
const nullSafeEqual = (a: string, b: string) => `CASE WHEN ${a} IS NULL THEN ${b} IS NULL ELSE ${a} = ${b} END`;

/** `=` and `!=`: values of different (comparable) types are compared as their texts (totext). */
function equality(type: 'equal' | 'not_equal', operator: string): FormulaFunction {
  const site: CallSite = { name: type, operator };
  return {
    type,
    arity: { min: 2, max: 2 },
    aggregate: false,
    apply([a, b], scope) {
      const allowed = COMPARABLE[a.type.name] ?? [];
      if (!allowed.some((name) => accepts(name, b.type.name))) return argumentError(site, 1, b.type, allowed);
      const compare = (x: string, y: string) => (type === 'equal' ? nullSafeEqual(x, y) : `${x} <> ${y}`);
      if (a.type.name !== b.type.name) {
        const sql = once(scope, [a.sql, b.sql], ([x, y]) => compare(toText({ type: a.type, sql: x }, scope).sql, toText({ type: b.type, sql: y }, scope).sql));
        return { type: formulaTypes.boolean(), sql: `(${sql})` };
      }
      const [x, y] = aligned(a, b, scope);
      if (type === 'not_equal') return { type: formulaTypes.boolean(), sql: `(${x.sql} <> ${y.sql})` };
      if (!x.type.nullable) return { type: formulaTypes.boolean(), sql: `(${x.sql} = ${y.sql})` };
      return { type: formulaTypes.boolean(), sql: `(${once(scope, [x.sql, y.sql], ([p, q]) => nullSafeEqual(p, q))})` };
    },
  };
}

/** `>`, `>=`, `<`, `<=` of numbers, texts, dates and durations (each only with its own kind). */
function limitComparison(type: string, operator: string): FormulaFunction {
  const site: CallSite = { name: type, operator };
  return {
    type,
    arity: { min: 2, max: 2 },
    aggregate: false,
    apply(args, scope) {
      const [a, b] = args.map((arg) => notNull(arg, scope));
      const allowed = LIMIT_COMPARABLE[a.type.name] ?? [];
      if (!allowed.some((name) => accepts(name, b.type.name))) return argumentError(site, 1, b.type, allowed);
      // A link beside a text compares by its label (its text).
      const label = (e: Expr): Expr => (e.type.name === 'link' || e.type.name === 'button' ? { type: formulaTypes.text(true), sql: scope.db.jsonGetText(e.sql, 'label') } : e);
      const [x, y] = aligned(label(a), label(b), scope);
      return { type: formulaTypes.boolean(), sql: `(${x.sql} ${operator} ${y.sql})` };
    },
  };
}


/** Baserow's `is_blank` of each type: '' and NULL texts, 0 numbers and durations, false, no date, no option. */
function isBlank(a: Expr, scope: CompileScope): string {
  switch (a.type.name) {
    case 'text':
    case 'char':
    case 'url':
      return `(COALESCE(${a.sql}, '') = '')`;
    case 'number':
    case 'duration':
    case 'date_interval':
      return `(COALESCE(${a.sql}, ${scope.db.number('0')}) = ${scope.db.number('0')})`;
    case 'boolean':
      return `COALESCE(NOT (${a.sql}), FALSE)`;
    case 'single_select':
      return `(COALESCE(${selectOptionValue(scope, a.sql)}, '') = '')`;
    case 'link':
    case 'button':
      // Its text is its label: a link without one is not blank (Baserow's label = '').
      return `COALESCE(${scope.db.jsonGetText(a.sql, 'label')} = '', FALSE)`;
    default:
      return `(${a.sql} IS NULL)`;
  }
}

const ANY: readonly FormulaTypeName[] = [
  'text',
  'char',
  'url',
  'number',
  'boolean',
  'date',
  'duration',
  'date_interval',
  'single_select',
  'multiple_select',
  'link',
  'button',
  'array',
  'single_file',
  'multiple_collaborators',
];

export const LOGIC_FUNCTIONS: FormulaFunction[] = [
  {
    // The second value when the condition holds, else the third (NULL conditions too). Values
    // of different types are both given as text; numbers keep the larger decimal places.
    type: 'if',
    arity: { min: 3, max: 3 },
    aggregate: false,
    apply(args, scope, call) {
      const error = checkArgs(call, args, [['boolean'], ANY, ANY]);
      if (error) return error;
      const [condition, a, b] = args;
      const nullable = a.type.nullable || b.type.nullable;
      if (a.type.name !== b.type.name) {
        const sql = once(scope, [condition.sql, a.sql, b.sql], ([c, x, y]) => `CASE WHEN ${c} THEN ${toText({ type: a.type, sql: x }, scope).sql} ELSE ${toText({ type: b.type, sql: y }, scope).sql} END`);
        return { type: formulaTypes.text(nullable), sql: `(${sql})` };
      }
      const type = a.type.name === 'number' ? formulaTypes.number(Math.max(decimalPlaces(a.type), decimalPlaces(b.type)), nullable) : withNullable(a.type, nullable);
      return { type, sql: `CASE WHEN ${condition.sql} THEN ${a.sql} ELSE ${asDateKind(b, a.type, scope)} END` };
    },
  },
  equality('equal', '='),
  equality('not_equal', '!='),
  limitComparison('greater_than', '>'),
  limitComparison('greater_than_or_equal', '>='),
  limitComparison('less_than', '<'),
  limitComparison('less_than_or_equal', '<='),
  fixed('and', [['boolean'], ['boolean']], ([a, b]) => ({ type: formulaTypes.boolean(), sql: `(${a.sql} AND ${b.sql})` }), { site: { name: 'and', operator: '&&' } }),
  // Baserow gives `or` no operator name in its errors (`function or`), though `||` calls it.
  fixed('or', [['boolean'], ['boolean']], ([a, b]) => ({ type: formulaTypes.boolean(), sql: `(${a.sql} OR ${b.sql})` }), { site: { name: 'or' } }),
  fixed('not', [['boolean']], ([a]) => ({ type: formulaTypes.boolean(), sql: `(NOT (${a.sql}))` })),
  fixed('isblank', [ANY], ([a], scope) => ({ type: formulaTypes.boolean(), sql: isBlank(a, scope) })),
  {
    type: 'is_null',
    arity: { min: 1, max: 1 },
    aggregate: false,
    apply([a]) {
      return { type: formulaTypes.boolean(), sql: `(${a.sql} IS NULL)` };
    },
  },
  {
    // The first value, or the second when the first is NULL (or '' for texts); both of one type.
    type: 'when_empty',
    arity: { min: 2, max: 2 },
    aggregate: false,
    apply([a, b], scope) {
      if (!accepts(b.type.name, a.type.name)) return 'both inputs for when_empty must be the same type';
      const second = asDateKind(b, a.type, scope);
      const sql = ['text', 'char', 'url'].includes(b.type.name) ? `COALESCE(NULLIF(${a.sql}, ''), ${second})` : `COALESCE(${a.sql}, ${second})`;
      return { type: withNullable(a.type, b.type.nullable), sql };
    },
  },
  {
    // The row's id.
    type: 'row_id',
    arity: { min: 0, max: 0 },
    aggregate: false,
    apply(_args, scope) {
      return { type: formulaTypes.number(0), sql: scope.db.toNumber(`${quote(scope.alias)}."id"`) };
    },
  },
  // Baserow wraps every formula in these to turn errors into NULL/NaN; here a value has no
  // error state, so they give their argument.
  fixed('error_to_null', [ANY], ([a]) => a),
];
