import { Injectable } from '@nestjs/common';
import type { Sql } from '../../core/database/sql';
import { formulaDialect } from '../../database/formula/formula-dialect';
import { TypeRegistry } from '../../core/registry/type-registry';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldTypeRegistry } from '../../database/fields/field-type';

/**
 * What an aggregation type computes with: SQL over the rows of a view's selection (saved and
 * ad-hoc filters, search). Every query gets a fresh `Sql` so values stay bound.
 */
export interface AggregationQuery {
  readonly field: FieldEntity;
  /**
   * Runs `SELECT <select> FROM <rows> WHERE <selection> [AND <condition>] <tail>`; each
   * callback receives the query's `Sql` (values bound in text order) and the field's value
   * expression (with `grouping`, the value a distribution groups by: option values, first names).
   */
  rows(parts: {
    select: (sql: Sql, value: string) => string;
    condition?: (sql: Sql, value: string) => string;
    tail?: (sql: Sql, value: string) => string;
    grouping?: boolean;
  }): Promise<Record<string, unknown>[]>;
  /** The condition of an empty cell (Baserow's `empty_query` as the `empty` filter compiles it). */
  empty(sql: Sql): string;
  /** A raw aggregated value as the API answers the field's values (numbers as numbers, dates formatted). */
  format(raw: unknown): Promise<unknown>;
}

/**
 * One raw aggregation of Baserow's view aggregation registry (`empty_count`, `sum`, `median`,
 * `distribution`, …): the field types it applies to and its value. One file per type in `types/`.
 */
export interface ViewAggregationType {
  readonly type: string;
  readonly compatibleFieldTypes: readonly string[];
  /**
   * The results of computed fields (formula, lookup, rollup, count) it applies to, as Baserow's
   * `compatible_with_formula_types` lists them (`number`, `text`, `array(single_file)`, …).
   */
  readonly compatibleFormulaTypes?: readonly string[];
  /**
   * False for a type only the single-field endpoint answers, never a grid footer (Baserow's
   * `allowed_in_view`: `count`); a field option naming it is not a valid choice.
   */
  readonly allowedInView?: boolean;
  compute(query: AggregationQuery): Promise<unknown>;
}

@Injectable()
export class ViewAggregationTypeRegistry extends TypeRegistry<ViewAggregationType> {
  protected readonly kind = 'View aggregation type';

  constructor(private readonly fieldTypes: FieldTypeRegistry) {
    super();
  }

  /** A type a grid footer may name (`aggregation_raw_type`): registered and allowed in views. */
  getInView(name: unknown): ViewAggregationType | undefined {
    const type = this.get(name);
    return type?.allowedInView === false ? undefined : type;
  }

  /** Whether the aggregation applies to the field: by its type, or a computed field by its result type. */
  compatible(type: ViewAggregationType, field: FieldEntity): boolean {
    const result = this.fieldTypes.of(field).formulaResultType?.(field);
    if (result !== undefined) return !!type.compatibleFormulaTypes?.includes(result);
    return type.compatibleFieldTypes.includes(field.type);
  }
}

/** Field types whose cells are numbers (sums, averages, deviations). */
export const NUMERIC_TYPES = ['number', 'rating'];
/** Computed results that are numbers. */
export const NUMERIC_FORMULA_TYPES = ['number'];

/** Every field type Baserow counts empty and non-empty cells of (`empty_count`, `not_empty_count`). */
export const COUNTABLE_TYPES = [
  'text', 'long_text', 'url', 'number', 'rating', 'boolean', 'date', 'duration', 'last_modified', 'last_modified_by', 'created_on', 'created_by',
  'link_row', 'email', 'file', 'phone_number', 'single_select', 'multiple_select', 'password',
];
/** The computed results Baserow counts empty and non-empty cells of. */
export const COUNTABLE_FORMULA_TYPES = ['text', 'char', 'number', 'date', 'boolean', 'array(single_file)'];

/**
 * `aggregate` (SUM, AVG) of the number values `value`, NaN when one of them is: a number
 * formula's NaN is PostgreSQL's numeric NaN, which its aggregates carry, and SQLite's text
 * 'NaN', which its aggregates would read as 0 (the formula dialect's `nanAggregate`).
 */
export function numericAggregate(sql: Sql, value: string, aggregate: string): string {
  return formulaDialect(sql.dialect).nanAggregate(value, aggregate);
}

/** A number from a database aggregate (PostgreSQL numeric comes as text); null stays null. */
export function toNumber(raw: unknown): number | null {
  if (raw === null || raw === undefined) return null;
  return Number(raw);
}

/** Floating results rounded to 15 significant digits, so both databases answer alike. */
export function toFloat(raw: unknown): number | null {
  const value = toNumber(raw);
  return value === null || !Number.isFinite(value) ? value : Number(value.toPrecision(15));
}
