import { Injectable } from '@nestjs/common';
import type { Sql } from '../../core/database/sql';
import { ApiError } from '../../core/errors/api-error';
import { DatabaseErrors } from '../database.errors';
import type { FieldEntity } from '../fields/field.entity';
import { FieldType, FieldTypeRegistry, LinkedTables } from '../fields/field-type';
import type { TableContext } from '../table-context';
import { FilterType, FilterTypeRegistry } from './filter-type';

/**
 * One condition of a filter tree; `field` is a field id (or a name with user_field_names),
 * or the field itself when the parser already resolved it (the built-in `field_created_on`).
 */
export interface FilterLeaf {
  field: number | string | FieldEntity;
  type: string;
  value: string;
}

/** Baserow's filter tree: the `filters` query parameter, and saved view filters with their groups. */
export interface FilterTree {
  filter_type: 'AND' | 'OR';
  filters: FilterLeaf[];
  groups: FilterTree[];
}

/**
 * Compiles filter trees to SQL conditions through the filter type registry (the same
 * engine serves the rows endpoint and saved view filters). Unknown fields, unknown types
 * and incompatible pairs are Baserow's errors.
 */
@Injectable()
export class FilterCompiler {
  constructor(
    private readonly filters: FilterTypeRegistry,
    private readonly fieldTypes: FieldTypeRegistry,
  ) {}

  compile(tree: FilterTree, context: TableContext, sql: Sql, options: { alias: string; userFieldNames: boolean; now?: Date; tables?: LinkedTables }): string | null {
    const now = options.now ?? new Date();
    const parts: string[] = [];
    for (const leaf of tree.filters) {
      const field = this.resolveField(leaf.field, context, options.userFieldNames);
      const condition = this.leaf(field, leaf.type, leaf.value, context, sql, options.alias, now, options.tables);
      if (condition) parts.push(condition);
    }
    for (const group of tree.groups) {
      const condition = this.compile(group, context, sql, options);
      if (condition) parts.push(condition);
    }
    if (!parts.length) return null;
    return `(${parts.join(tree.filter_type === 'OR' ? ' OR ' : ' AND ')})`;
  }

  /** Whether the filter type exists and applies to the field. */
  applies(type: string, field: FieldEntity): boolean {
    const plain = this.filteredAs(field);
    return !!this.filters.get(type)?.compatible(plain.field, plain.type);
  }

  /** The field as filters see it: a computed field as the plain field of its result type. */
  private filteredAs(field: FieldEntity): { field: FieldEntity; type: FieldType } {
    const type = this.fieldTypes.of(field);
    return type.filterAs?.(field) ?? { field, type };
  }

  /** The filter type for the field: ERROR_VIEW_FILTER_TYPE_DOES_NOT_EXIST, ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD otherwise (ad-hoc, saved filters, form conditions). */
  requireApplicable(type: string, field: FieldEntity): FilterType {
    const filterType = this.filters.get(type);
    if (!filterType) throw DatabaseErrors.filterTypeDoesNotExist(type);
    const plain = this.filteredAs(field);
    if (!filterType.compatible(plain.field, plain.type)) throw DatabaseErrors.filterTypeUnsupportedField(type, field.type);
    return filterType;
  }

  /** One condition; null when the value makes it match every row. */
  leaf(field: FieldEntity, type: string, value: string, context: TableContext, sql: Sql, alias: string, now: Date, tables?: LinkedTables): string | null {
    const filterType = this.requireApplicable(type, field);
    const plain = this.filteredAs(field);
    return filterType.compile(plain.field, value, { sql, alias, fieldType: plain.type, tableId: context.table.id, selectOptions: context.selectOptions, now, tables });
  }

  private resolveField(ref: number | string | FieldEntity, context: TableContext, userFieldNames: boolean): FieldEntity {
    if (typeof ref === 'object') return ref;
    const field =
      typeof ref === 'number'
        ? context.byId.get(ref)
        : userFieldNames
          ? (context.byName.get(ref) ?? (/^\d+$/.test(ref) ? context.byId.get(Number(ref)) : undefined))
          : /^\d+$/.test(ref)
            ? context.byId.get(Number(ref))
            : undefined;
    if (!field) throw DatabaseErrors.filterFieldNotFound(String(ref));
    return field;
  }
}

/** `ERROR_FILTERS_PARAM_VALIDATION_ERROR` with a detail tree. */
export function filtersParamError(detail: unknown): ApiError {
  return new ApiError('ERROR_FILTERS_PARAM_VALIDATION_ERROR', 400, detail);
}
