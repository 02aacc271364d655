import type { Sql } from '../../core/database/sql';
import type { IntervalParts } from './sqlite/intervals';
import type { FormulaDialect } from './formula-dialect';
import type { FormulaType } from './formula-type';

/**
 * The rows an array value is made of (a lookup through a link, a link field, a multiple
 * select): a FROM clause whose rows are the elements, correlated to the outer row by `where`.
 * Aggregates compile to `(SELECT agg(<element>) FROM <from> WHERE <where>)`.
 */
export interface ArrayRelation {
  /** e.g. `"database_relation_3" j1 JOIN "database_table_7" x1 ON x1."id" = j1."row_b"` */
  from: string;
  /** Conditions, ANDed: the link to the outer row, live rows only, `filter()` conditions. */
  where: string[];
  /** ORDER BY list of the elements (a link's: the linked rows' order and id). */
  order: string;
  /** The element's source row id: the `id` of each `{id, value}` item. */
  id: string;
}

/**
 * A typed, compiled formula expression. A scalar's `sql` is its value; an array's `sql` is
 * the value of one element, valid inside its `relation`.
 */
export interface Expr {
  type: FormulaType;
  sql: string;
  relation?: ArrayRelation;
  /** The value of a literal as written in the formula (`'UTC'`, `2`), for functions that read it at compile time. */
  literal?: string | number | boolean;
  /**
   * A duration written as a literal interval (`date_interval('1 year')`): its calendar parts, so
   * dates move by calendar months and totext writes it as PostgreSQL does (`1 year`, not 365 days).
   */
  interval?: IntervalParts;
}

/** What compiling needs: bound values, the dialect's SQL pieces, fresh aliases. */
export interface CompileScope {
  readonly sql: Sql;
  readonly db: FormulaDialect;
  /** The alias of the row the formula is computed for. */
  readonly alias: string;
  /** A fresh alias for a subquery (`j1`, `x1`, …). */
  nextAlias(prefix: string): string;
  /** A text literal, bound (typed as text on PostgreSQL). */
  text(value: string): string;
  /** Longest text a value may grow to (FORMULA_MAX_TEXT_LENGTH); longer is the error value (see functions/text-bounds.ts). */
  readonly maxTextLength: number;
}

/** Where a function is called from, for error texts: `function upper` or `operator +`. */
export interface CallSite {
  name: string;
  operator?: string;
}

export const callName = (call: CallSite): string => (call.operator ? `operator ${call.operator}` : `function ${call.name}`);
