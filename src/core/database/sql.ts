import type { Dialect } from './dialect';

/**
 * A raw query under construction for user tables (whose columns exist only at run time).
 * Identifiers come from ids only (`field_<id>`, `database_table_<id>`); every value is bound
 * through `param`, never written into the text.
 */
export class Sql {
  readonly params: unknown[] = [];

  constructor(readonly dialect: Dialect) {}

  /** Binds a value and answers its placeholder. */
  param(value: unknown): string {
    this.params.push(this.dialect.bind(value));
    return this.dialect.placeholder(this.params.length);
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
