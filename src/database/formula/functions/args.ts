import type { CallSite, CompileScope, Expr } from '../expr';
import { callName } from '../expr';
import type { FormulaType, FormulaTypeName } from '../formula-type';
import type { FormulaFunction } from './function';

/*
 * What the functions of every family share: argument checks and Baserow's texts for them,
 * the coercion of empty arguments, literal arguments, SQL written once.
 *
 * SQL rule: bound values have numbered placeholders (the compiler's `Sql` is `numbered`), so
 * an argument's SQL may be written twice; where a value is costly, `once` computes it once in
 * a subquery. Every bound value must appear in the SQL (both drivers refuse unused ones).
 */

/**
 * The types each type name also accepts, as Baserow's type classes inherit: `char` and `url`
 * are kinds of `text`, `button` is a kind of `link` (an argument of `text` type takes them all).
 */
const SUBTYPES: Partial<Record<FormulaTypeName, readonly FormulaTypeName[]>> = {
  text: ['char', 'url'],
  link: ['button'],
};

/** Whether a value of type `got` may be given where `usable` (a type name) is asked for. */
export function accepts(usable: string, got: FormulaTypeName): boolean {
  return usable === got || (SUBTYPES[usable as FormulaTypeName]?.includes(got) ?? false);
}

/**
 * Baserow's text for an argument of a type the function cannot use. `usable` names the types
 * (or, for checks that are not a type, Baserow's words for them, like
 * `a list of single_select values obtained from a lookup`).
 */
export function argumentError(call: CallSite, index: number, got: FormulaType, usable: readonly string[]): string {
  const allowed =
    usable.length === 0
      ? 'there are no possible types usable here'
      : usable.length === 1
        ? `the only usable type for this argument is ${usable[0]}`
        : `the only usable types for this argument are ${usable.join(',')}`;
  return `argument number ${index + 1} given to ${callName(call)} was of type ${got.name} but ${allowed}`;
}

/**
 * Checks every argument against the types usable at its position (the last entry applies to
 * any further arguments of a variadic function), as Baserow does: every argument that does
 * not fit answers its error, all of them joined by ", "; null when all fit.
 */
export function checkArgs(call: CallSite, args: Expr[], usable: readonly (readonly FormulaTypeName[])[]): string | null {
  const errors: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const allowed = usable[Math.min(i, usable.length - 1)];
    if (!allowed.some((name) => accepts(name, args[i].type.name))) errors.push(argumentError(call, i, args[i].type, allowed));
  }
  return errors.length ? errors.join(', ') : null;
}

/** A value's type with another nullability. */
export const withNullable = (type: FormulaType, nullable: boolean): FormulaType => ({ ...type, nullable });

/**
 * Baserow's `try_coerce_nullable_args_to_not_null` (on unless a function turns it off): a
 * nullable argument of a type with an empty value (text '' — char and url too —, number 0,
 * duration 0) is given as `when_empty(arg, <empty>)`, so `upper(null)` is ''.
 */
export function notNull(arg: Expr, scope: CompileScope): Expr {
  if (!arg.type.nullable) return arg;
  switch (arg.type.name) {
    case 'text':
    case 'char':
    case 'url':
      return { ...arg, type: withNullable(arg.type, false), sql: `COALESCE(${arg.sql}, '')` };
    case 'number':
    case 'duration':
    case 'date_interval':
      return { ...arg, type: withNullable(arg.type, false), sql: `COALESCE(${arg.sql}, ${scope.db.number('0')})` };
    default:
      return arg;
  }
}

/** SQL cheap and safe to write more than once: a column, a constant (no bound value in it). */
function isPlain(sql: string): boolean {
  return /^[\w".]+$/.test(sql) || /^CAST\([\w.]+ AS \w+\)$/.test(sql);
}

/**
 * `body` over the values of `values`, each computed once: plain ones are written as they are;
 * otherwise they become the columns of a one-row subquery, which `body` reads. (Placeholders
 * are numbered, so moving SQL around keeps its bound values right.)
 */
export function once(scope: CompileScope, values: string[], body: (refs: string[]) => string): string {
  if (values.every(isPlain)) return body(values);
  const alias = scope.nextAlias('l');
  const sql = body(values.map((_, i) => `"${alias}"."v${i}"`));
  return `(SELECT ${sql} FROM (SELECT ${values.map((value, i) => `${value} AS "v${i}"`).join(', ')}) AS "${alias}")`;
}

/**
 * `body` over number values, answering `onNan` (NaN by default) when one of them is NaN. Where
 * the database's arithmetic carries NaN itself (PostgreSQL's numeric) `body` alone, written
 * over the values as they are unless it reads one more than once (`reuse`); elsewhere the
 * values are computed once and checked first.
 */
export function nanSafe(scope: CompileScope, values: string[], body: (refs: string[]) => string, options: { onNan?: string; reuse?: boolean } = {}): string {
  if (scope.db.carriesNan && !options.reuse) return body(values);
  return once(scope, values, (refs) => scope.db.nanGuard(refs, body(refs), options.onNan));
}

/** The text of a single select option id (NULL for none). */
export function selectOptionValue(scope: CompileScope, id: string): string {
  const o = scope.nextAlias('o');
  return `(SELECT "${o}"."value" FROM "database_select_option" "${o}" WHERE "${o}"."id" = ${id})`;
}


/**
 * A function of fixed argument types (Baserow's One/Two/ThreeArgumentBaserowFunction): the
 * arguments are checked, then given to `compile` coerced to their empty values (`notNull`,
 * Baserow's default; `coerce: false` turns it off) and as they were (`raw`). `site` names the
 * function in argument errors when Baserow names it otherwise than the call.
 */
export function fixed(
  type: string,
  usable: readonly (readonly FormulaTypeName[])[],
  compile: (args: Expr[], scope: CompileScope, raw: Expr[], call: CallSite) => Expr | string,
  options: { coerce?: boolean; site?: CallSite } = {},
): FormulaFunction {
  return {
    type,
    arity: { min: usable.length, max: usable.length },
    aggregate: false,
    apply(args, scope, call) {
      const error = checkArgs(options.site ?? call, args, usable);
      if (error) return error;
      return compile(options.coerce === false ? args : args.map((arg) => notNull(arg, scope)), scope, args, call);
    },
  };
}

/** The value of an argument written as a text literal (a format, a time zone), else null. */
export function textLiteral(arg: Expr): string | null {
  return typeof arg.literal === 'string' ? arg.literal : null;
}

/** The value of an argument written as a number literal (`2`, `-2`, `1.5`), else null. */
export function numberLiteral(arg: Expr): number | null {
  return typeof arg.literal === 'number' ? arg.literal : null;
}
