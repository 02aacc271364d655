import { TypeRegistry } from '../../core/registry/type-registry';
import { Injectable } from '@nestjs/common';
import type { Sql } from '../../core/database/sql';
import type { ImportIds } from '../serialization/database-document';
import type { FieldEntity, SelectOptionEntity } from '../fields/field.entity';
import type { FieldType, LinkedTables } from '../fields/field-type';

/** What a filter type compiles with: the query's bound values, the row alias, the field's type. */
export interface FilterContext {
  sql: Sql;
  /** The alias of the user table in the query. */
  alias: string;
  fieldType: FieldType;
  tableId: number;
  selectOptions: Map<number, SelectOptionEntity[]>;
  /** Fields of linked tables (link_row filters on their primary values). */
  tables?: LinkedTables;
  /** The time filters relative to now are evaluated at (one per request). */
  now: Date;
}

/**
 * One filter type of Baserow's registry (`equal`, `contains`, `date_is`, …): which fields
 * it applies to and the SQL condition it compiles to. One implementation per file; a
 * module adds a type by registering it.
 */
export interface FilterType {
  readonly type: string;
  /** Whether the filter applies to the field (its type and, for some, its properties). */
  compatible(field: FieldEntity, fieldType: FieldType): boolean;
  /** The SQL condition, or null when the value makes the filter match everything (e.g. empty). */
  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null;
  /** Import (duplication, templates): the value with the document's ids it names mapped (select option ids). */
  importValue?(value: string, ids: ImportIds): string;
}

@Injectable()
export class FilterTypeRegistry extends TypeRegistry<FilterType> {}
