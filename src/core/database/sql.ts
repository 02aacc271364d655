import type { Dialect } from './dialect';

/**
 * A raw query under construction for user tables (whose columns exist only at run time).
 * Identifiers come from ids only (`field_<id>`, `database_table_<id>`); every value is bound
 * through `param`, never written into the text.
 */
export class Sql {
  readonly params: unknown[] = [];

  /**
   * `numbered`: placeholders name their value by number (`?3` on SQLite, `$3` on PostgreSQL),
   * so SQL text holding a placeholder may be written twice or reordered (formulas do); such a
   * query runs with `bindings()`.
   */
  constructor(
    readonly dialect: Dialect,
    private readonly options: { numbered?: boolean } = {},
  ) {}

  /** Binds a value and answers its placeholder. */
  param(value: unknown): string {
    this.params.push(this.dialect.bind(value));
    return this.options.numbered ? this.dialect.numberedPlaceholder(this.params.length) : this.dialect.placeholder(this.params.length);
  }

  /** The values as the driver takes them for this query's placeholders. */
  bindings(): unknown[] {
    return this.options.numbered ? this.dialect.numberedBindings(this.params) : this.params;
  }

  /** Binds a list of values: `(p1, p2, …)`. */
  list(values: readonly unknown[]): string {
    return `(${values.map((value) => this.param(value)).join(', ')})`;
  }
}

/** A double-quoted identifier. Callers pass names built from ids or fixed words only. */
export function quote(identifier: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(identifier)) throw new Error(`Unsafe SQL identifier: ${identifier}`);
  return `"${identifier}"`;
}

/**
 * `(…)` of ids for `IN`: each bound, or, for more than a query may bind (a cascade's thousands
 * of rows), all of them as one bound value.
 */
export function idList(sql: Sql, ids: readonly number[]): string {
  return ids.length > 1000 ? sql.dialect.idsIn(ids, (value) => sql.param(value)) : sql.list(ids);
}
