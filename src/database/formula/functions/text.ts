import { FORMULA_ERROR_TEXT } from '../error-value';
import { pgRegExp } from '../sqlite/regex';
import type { CompileScope, Expr } from '../expr';
import { callName } from '../expr';
import { formulaTypes, type FormulaType, type FormulaTypeName } from '../formula-type';
import { accepts, argumentError, checkArgs, fixed, notNull, once, selectOptionValue, textLiteral, withNullable } from './args';
import { toTextValue } from './number';
import type { FormulaFunction } from './function';
import { boundedConcat, boundedReplace } from './text-bounds';

/*
 * Text functions of Baserow's formula language (Baserow's function_defs.py: upper, lower,
 * concat, tovarchar, t, replace, search, length, reverse, contains, left, right, trim,
 * regex_replace, encode_uri(_component), split_part, tourl, link, button, get_link_url,
 * get_link_label, get_single_select_value, has_option).
 */

const TEXT: readonly FormulaTypeName[] = ['text'];
const NUMBER: readonly FormulaTypeName[] = ['number'];

/** Whether a regular expression compiles (PostgreSQL's syntax, as the SQLite twin reads it). */
function validRegExp(pattern: string): boolean {
  try {
    pgRegExp(pattern, 'g');
    return true;
  } catch {
    return false;
  }
}

/** Baserow's `totext` of a value: text stays as it is, other types as `totext` writes them. */
export function toText(arg: Expr, scope: CompileScope): Expr {
  if (arg.type.name === 'text' || arg.type.name === 'url') return arg;
  if (arg.type.name === 'char') return { type: formulaTypes.text(arg.type.nullable), sql: arg.sql };
  return toTextValue(arg, scope);
}

/** Whole number of characters from a number argument (Baserow's trunc to integer); NaN gives NULL. */
const integer = (scope: CompileScope, sql: string) => `CAST(trunc(${scope.db.nanToNull(sql)}) AS integer)`;

/** Baserow's URL check of `tourl` (its try_cast_to_url), a constant. */
const URL_PATTERN = `^(?:([a-zA-Z]+):\\/\\/)?(?:([a-zA-Z0-9._%+-]+)(:[a-zA-Z0-9._%+-]+)?@)?([a-zA-Z0-9.-]+)(?::(\\d+))?(\\/[^?]*)?(\\?.*)?(#.*)?$`;

/** The link object `{"url", "label"}` (label null when not given, as Baserow answers `link(url)`). */
function linkObject(scope: CompileScope, url: Expr, label: Expr | undefined, type: FormulaType): Expr {
  const entries: Record<string, string> = { url: scope.db.jsonText(url.sql), label: scope.db.jsonText(label ? label.sql : 'NULL') };
  return { type, sql: scope.db.jsonObject(entries) };
}

/** The text of an array element, for has_option: option values, texts, numbers and booleans as text. */
function elementText(scope: CompileScope, element: Expr): string {
  switch (element.type.name) {
    case 'single_select':
      return selectOptionValue(scope, element.sql);
    case 'text':
    case 'char':
    case 'url':
      return element.sql;
    case 'number':
      return scope.db.numberText(element.sql, Number(element.type.props.number_decimal_places ?? 0));
    case 'boolean':
      return `CASE WHEN ${element.sql} THEN 'true' ELSE 'false' END`;
    case 'link':
    case 'button':
      return scope.db.jsonGetText(element.sql, 'url');
    default:
      return `CAST(${element.sql} AS TEXT)`;
  }
}

export const TEXT_FUNCTIONS: FormulaFunction[] = [
  fixed('upper', [TEXT], ([a], scope) => ({ type: formulaTypes.text(a.type.nullable), sql: scope.db.upper(a.sql) })),
  fixed('lower', [TEXT], ([a], scope) => ({ type: formulaTypes.text(a.type.nullable), sql: scope.db.lower(a.sql) })),
  {
    // Every argument as text (totext), NULL as ''.
    type: 'concat',
    arity: { min: 2, max: Infinity },
    aggregate: false,
    apply(args, scope) {
      // The error value when the parts add up past the formula text limit (text-bounds.ts).
      const joined = (values: string[]) => boundedConcat(scope, values.map((sql, i) => `COALESCE(${toText({ type: args[i].type, sql }, scope).sql}, '')`));
      const texts = args.every((arg) => ['text', 'char', 'url'].includes(arg.type.name));
      return { type: formulaTypes.text(), sql: `(${texts ? joined(args.map((arg) => arg.sql)) : once(scope, args.map((arg) => arg.sql), joined)})` };
    },
  },
  // Baserow's internal `tovarchar`: text as the `char` type.
  fixed('tovarchar', [TEXT], ([a]) => ({ type: formulaTypes.char(a.type.nullable), sql: a.sql }), { coerce: false }),
  {
    // The text itself, '' for any other type.
    type: 't',
    arity: { min: 1, max: 1 },
    aggregate: false,
    apply([arg], scope) {
      const a = notNull(arg, scope);
      if (['text', 'char', 'url'].includes(a.type.name)) return a;
      return { type: formulaTypes.text(a.type.nullable), sql: `CAST('' AS TEXT)` };
    },
  },
  // The error value when the result would pass the formula text limit.
  fixed('replace', [TEXT, TEXT, TEXT], ([a, b, c], scope) => ({ type: formulaTypes.text(), sql: boundedReplace(scope, a.sql, b.sql, c.sql) })),
  fixed('search', [TEXT, TEXT], ([a, b], scope) => ({ type: formulaTypes.number(0), sql: scope.db.toNumber(`strpos(${a.sql}, ${b.sql})`) })),
  fixed('length', [TEXT], ([a], scope) => ({ type: formulaTypes.number(0), sql: scope.db.toNumber(scope.db.length(a.sql)) })),
  fixed('reverse', [TEXT], ([a]) => ({ type: a.type, sql: `reverse(${a.sql})` })),
  fixed('contains', [TEXT, TEXT], ([a, b]) => ({ type: formulaTypes.boolean(), sql: `(strpos(${a.sql}, ${b.sql}) <> 0)` })),
  // The first/last n characters (n < 0: all but the last/first |n|); NULL when n is NaN.
  fixed('left', [TEXT, NUMBER], ([a, n], scope) => ({ type: withNullable(a.type, true), sql: `left(${a.sql}, ${integer(scope, n.sql)})` })),
  fixed('right', [TEXT, NUMBER], ([a, n], scope) => ({ type: withNullable(a.type, true), sql: `right(${a.sql}, ${integer(scope, n.sql)})` })),
  // Baserow's trim is regex_replace(arg, '(^\s+|\s+$)', ''): every kind of white space.
  fixed('trim', [TEXT], ([a]) => ({ type: a.type, sql: `regexp_replace(${a.sql}, '(^\\s+|\\s+$)', '', 'g')` })),
  // Every match replaced (\1… its groups); a literal pattern that is no regular expression gives
  // '#ERROR!' as Baserow's try_regexp_replace does (others fail the query, on both databases).
  // A pattern RE2 cannot run in linear time (back-references, lookahead) is no regular
  // expression here, on both databases (see sqlite/regex.ts); a text or result that could
  // pass the formula text limit is '#ERROR!' too (FormulaDialect.regexReplace).
  fixed('regex_replace', [TEXT, TEXT, TEXT], ([a, pattern, replacement], scope) => {
    const literal = textLiteral(pattern);
    if (literal !== null && !validRegExp(literal)) {
      return { type: a.type, sql: `CASE WHEN ${a.sql} IS NULL OR ${pattern.sql} IS NULL OR ${replacement.sql} IS NULL THEN NULL ELSE '${FORMULA_ERROR_TEXT}' END` };
    }
    const sql = once(scope, [a.sql, pattern.sql, replacement.sql], ([t, p, r]) => scope.db.regexReplace(t, p, r, scope.maxTextLength));
    return { type: a.type, sql };
  }),
  fixed('encode_uri', [TEXT], ([a], scope) => ({ type: formulaTypes.text(a.type.nullable), sql: scope.db.encodeUri(a.sql, false) })),
  fixed('encode_uri_component', [TEXT], ([a], scope) => ({ type: formulaTypes.text(a.type.nullable), sql: scope.db.encodeUri(a.sql, true) })),
  // The n-th part split by the delimiter; '' when n <= 0 or past the last part.
  fixed('split_part', [TEXT, TEXT, NUMBER], ([a, delimiter, n], scope) => ({
    type: formulaTypes.text(a.type.nullable || delimiter.type.nullable || n.type.nullable),
    sql: once(scope, [a.sql, delimiter.sql, n.sql], ([text, d, part]) => `CASE WHEN ${part} <= 0 THEN '' ELSE split_part(${text}, ${d}, ${integer(scope, part)}) END`),
  })),
  // The text when it reads as a URL, '' otherwise (also for NULL).
  fixed(
    'tourl',
    [TEXT],
    ([a], scope) => ({ type: formulaTypes.url(), sql: once(scope, [a.sql], ([text]) => `CASE WHEN ${scope.db.regexMatches(text, `'${URL_PATTERN}'`)} THEN ${text} ELSE '' END`) }),
    { coerce: false },
  ),
  {
    type: 'link',
    arity: { min: 1, max: 2 },
    aggregate: false,
    apply(args, scope, call) {
      const error = checkArgs(call, args, [TEXT]);
      if (error) return error;
      const [url, label] = args.map((arg) => toText(arg, scope));
      return linkObject(scope, url, label, formulaTypes.link(args[0].type.nullable));
    },
  },
  fixed('button', [TEXT, TEXT], ([url, label], scope) => linkObject(scope, url, label, formulaTypes.button(url.type.nullable))),
  fixed('get_link_url', [['link']], ([a], scope) => ({ type: formulaTypes.text(a.type.nullable), sql: scope.db.jsonGetText(a.sql, 'url') })),
  fixed('get_link_label', [['link']], ([a], scope) => ({ type: formulaTypes.text(a.type.nullable), sql: scope.db.jsonGetText(a.sql, 'label') })),
  fixed('get_single_select_value', [['single_select']], ([a], scope) => ({ type: formulaTypes.text(a.type.nullable), sql: selectOptionValue(scope, a.sql) })),
  {
    // Whether any option (or value) of a multiple select, lookup or array is the text.
    type: 'has_option',
    arity: { min: 2, max: 2 },
    aggregate: true,
    apply([list, option], scope, call) {
      const errors: string[] = [];
      if (!list.relation) errors.push(argumentError(call, 0, list.type, ['multiple_select', 'array', 'a list of single_select values obtained from a lookup']));
      if (!accepts('text', option.type.name)) errors.push(argumentError(call, 1, option.type, TEXT));
      if (errors.length) return errors.join(', ');
      if (option.relation) return `${callName(call)} can only be given one array argument`;
      const relation = list.relation!;
      const value = elementText(scope, { type: list.type.sub!, sql: list.sql });
      const where = [...relation.where, `${value} = ${notNull(option, scope).sql}`].join(' AND ');
      return { type: formulaTypes.boolean(), sql: `EXISTS (SELECT 1 FROM ${relation.from} WHERE ${where})` };
    },
  },
];
