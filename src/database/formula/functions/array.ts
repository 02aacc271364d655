import type { ArrayRelation, CompileScope, Expr } from '../expr';
import { callName } from '../expr';
import { formulaTypes, type FormulaType, type FormulaTypeName } from '../formula-type';
import { accepts, argumentError, notNull, withNullable } from './args';
import type { FormulaFunction } from './function';
import { errorWhen } from './text-bounds';
import { numberType } from './number';

/*
 * Array functions of Baserow's formula language (function_defs.py: sum, avg, min, max, count,
 * join, filter, any, every, stddev_pop, stddev_sample, variance_pop, variance_sample). Their
 * first argument is a list: a lookup, a link field or a lookup field, compiled as a relation
 * whose rows are the elements (expr.ts); each compiles to one aggregate over the relation.
 */

/** An array argument's element: its type and the SQL of one element (valid inside its relation). */
const element = (arg: Expr): Expr => ({ type: arg.relation ? arg.type.sub! : arg.type, sql: arg.sql });

/** Baserow's name of a list argument (MustBeManyExprChecker): `a list of number, or duration values obtained from a lookup`. */
const listOf = (types: readonly string[]) => `a list of ${types.length ? `${types.join(', or ')} ` : ''}values obtained from a lookup`;

/**
 * An aggregate of a list of elements of the `usable` types (any type when empty): Baserow's
 * error names the list it wanted and the type of what it got (of its elements for a list).
 * `coerce` gives NULL elements as Baserow's empty values (0, '').
 */
function aggregate(type: string, usable: readonly FormulaTypeName[], compile: (item: Expr, relation: ArrayRelation, scope: CompileScope) => Expr, coerce = false): FormulaFunction {
  return {
    type,
    arity: { min: 1, max: 1 },
    aggregate: true,
    apply([list], scope, call) {
      const item = element(list);
      if (!list.relation || (usable.length && !usable.some((name) => accepts(name, item.type.name)))) return argumentError(call, 0, item.type, [listOf(usable)]);
      return compile(coerce ? notNull(item, scope) : item, list.relation, scope);
    },
  };
}

const NUMBERS: readonly FormulaTypeName[] = ['number', 'duration'];
const ORDERED: readonly FormulaTypeName[] = ['text', 'number', 'char', 'date', 'duration'];

/** An aggregate answering a value of its elements' type. */
const ofElements = (type: string, usable: readonly FormulaTypeName[], sql: (item: string, scope: CompileScope) => string) =>
  aggregate(type, usable, (item, relation, scope) => ({ type: item.type, sql: scope.db.aggregate(relation, sql(item.sql, scope)) }));

/** An alias of a compiled subquery (`j1`, `x2`, `"x2"`), not a column (`."v0"`) nor part of a name. */
const ALIAS = /(?<![\w.$"])("?)([a-z]\d+)\1(?![\w"])/g;

/** The aliases of the subqueries of a relation's FROM (`j1`, `x2`, `e3`…), in order. */
function aliasesOf(from: string): string[] {
  return [...new Set([...from.matchAll(ALIAS)].map((m) => m[2]))];
}

/** SQL with the aliases of `renames` replaced, quoted or not. */
function renameAliases(sql: string, renames: Map<string, string>): string {
  return sql.replace(ALIAS, (whole: string, quote: string, alias: string) => (renames.has(alias) ? `${quote}${renames.get(alias)}${quote}` : whole));
}

/**
 * How the aliases of `other` map onto those of `base` when both relations read the same rows
 * (the same link, lookup or field compiled twice); null when they read different ones.
 */
function sameRows(base: ArrayRelation, other: ArrayRelation): Map<string, string> | null {
  const ours = aliasesOf(base.from);
  const theirs = aliasesOf(other.from);
  if (ours.length !== theirs.length || ours.length === 0) return null;
  const renames = new Map(theirs.map((alias, i) => [alias, ours[i]]));
  if (renameAliases(other.from, renames) !== base.from || renameAliases(other.order, renames) !== base.order) return null;
  return renames;
}

export const ARRAY_FUNCTIONS: FormulaFunction[] = [
  // NULL elements count as 0; no elements sum to 0.
  aggregate(
    'sum',
    NUMBERS,
    (item, relation, scope) => ({ type: withNullable(item.type, false), sql: `COALESCE(${scope.db.aggregate(relation, scope.db.nanAggregate(item.sql, `SUM(${item.sql})`))}, ${scope.db.number('0')})` }),
    true,
  ),
  // A NaN element makes the sum, average and variances NaN (min and max order it above every number).
  ofElements('avg', NUMBERS, (item, scope) => scope.db.nanAggregate(item, `AVG(${item})`)),
  ofElements('min', ORDERED, (item) => `MIN(${item})`),
  ofElements('max', ORDERED, (item) => `MAX(${item})`),
  ofElements('stddev_pop', NUMBERS, (item, scope) => scope.db.nanAggregate(item, scope.db.variance(item, 'stddev_pop'))),
  ofElements('stddev_sample', NUMBERS, (item, scope) => scope.db.nanAggregate(item, scope.db.variance(item, 'stddev_samp'))),
  ofElements('variance_pop', NUMBERS, (item, scope) => scope.db.nanAggregate(item, scope.db.variance(item, 'var_pop'))),
  ofElements('variance_sample', NUMBERS, (item, scope) => scope.db.nanAggregate(item, scope.db.variance(item, 'var_samp'))),
  ofElements('any', ['boolean'], (item, scope) => scope.db.boolOr(item)),
  ofElements('every', ['boolean'], (item, scope) => scope.db.boolAnd(item)),
  {
    // The number of elements (NULL ones too): of a lookup, a link field, a multiple select, a lookup field.
    type: 'count',
    arity: { min: 1, max: 1 },
    aggregate: true,
    apply([list], scope, call) {
      if (!list.relation) return argumentError(call, 0, list.type, [listOf([]), 'multiple_select', 'multiple_collaborators', 'array']);
      // An element holding bound values is still written (both drivers refuse a value the SQL does not use).
      const counted = /[?$]\d/.test(list.sql) ? `COUNT(CASE WHEN (${list.sql}) IS NULL THEN 1 ELSE 1 END)` : 'COUNT(*)';
      return { type: numberType(0), sql: scope.db.toNumber(scope.db.aggregate(list.relation, counted)) };
    },
  },
  // How many options a multiple select has selected (Baserow's multiple_select_count).
  aggregate('multiple_select_count', ['single_select'], (_item, relation, scope) => ({ type: numberType(0), sql: scope.db.toNumber(scope.db.aggregate(relation, 'COUNT(*)')) })),
  {
    // join(texts, separator): the texts in the list's order (NULL ones as ''); NULL without elements.
    type: 'join',
    arity: { min: 2, max: 2 },
    aggregate: true,
    apply([list, separator], scope, call) {
      const item = element(list);
      const errors: string[] = [];
      if (!list.relation || !accepts('text', item.type.name)) errors.push(argumentError(call, 0, item.type, [listOf(['text']), 'array']));
      if (!accepts('text', separator.type.name)) errors.push(argumentError(call, 1, separator.type, ['text']));
      if (errors.length) return errors.join(', ');
      if (separator.relation) return `${callName(call)} can only be given one array argument`;
      const [text, between] = [notNull(item, scope).sql, notNull(separator, scope).sql];
      // The error value when the texts and separators add up past the formula text limit (counted before joining).
      const length = scope.db.aggregate(list.relation!, `SUM(length(${text})) + (COUNT(*) - 1) * length(${between})`);
      return { type: formulaTypes.text(), sql: errorWhen(`COALESCE(${length}, 0) > ${scope.maxTextLength}`, scope.db.stringAgg(list.relation!, text, between, scope.nextAlias('g'))) };
    },
  },
  {
    // filter(list, condition): the elements for which the condition (computed for each
    // element: the same lookup or link field, or any value of the row) is true.
    type: 'filter',
    arity: { min: 2, max: 2 },
    aggregate: true,
    apply([list, condition], scope, call) {
      if (!list.relation) return 'first input to filter must be an expression of many values (a lookup function call or a field reference to a lookup/link field)';
      const test = element(condition);
      if (test.type.name !== 'boolean') return argumentError(call, 1, test.type, ['boolean']);
      let where = [...list.relation.where];
      let sql = condition.sql;
      if (condition.relation) {
        const renames = sameRows(list.relation, condition.relation);
        if (!renames) return 'the condition of filter must be computed from the same lookup or link field as the values it filters';
        sql = renameAliases(sql, renames);
        where = [...where, ...condition.relation.where.map((w) => renameAliases(w, renames)).filter((w) => !where.includes(w))];
      }
      const type: FormulaType = list.type;
      return { type, sql: list.sql, relation: { ...list.relation, where: [...where, `(${sql})`] } };
    },
  },
];
