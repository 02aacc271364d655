import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import type { FieldEntity } from '../field.entity';
import { CellError, ColumnRef, fieldColumn, FieldType } from '../field-type';
import { parseBoolean, textToBoolean } from '../values/boolean';
import { ColumnFieldType, columnOf } from './base';

/** `boolean`: true or false (never null); new rows get `boolean_default`. */
@Injectable()
export class BooleanFieldType extends ColumnFieldType {
  readonly type = 'boolean';
  readonly properties = {
    boolean_default: { kind: 'bool', required: false, default: false },
  } as const;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'boolean' };
  }

  prepareValue(_field: FieldEntity, value: unknown): boolean {
    const result = parseBoolean(value);
    if (!result.ok) throw new CellError(result.errors);
    return result.value;
  }

  defaultValue(field: FieldEntity): boolean {
    return !!field.properties.boolean_default;
  }

  toApi(_field: FieldEntity, raw: unknown): boolean {
    return raw === true || raw === 1 || raw === '1';
  }

  toText(_field: FieldEntity, apiValue: unknown): string | null {
    return apiValue ? 'true' : 'false';
  }

  /** Exported as a boolean (JSON, XML) or Python's `str(bool)`, `True`/`False` (CSV, Excel). */
  exportValue(_field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
    return rich ? !!apiValue : apiValue ? 'True' : 'False';
  }

  convertFrom(_field: FieldEntity, apiValue: unknown, from: FieldEntity, fromType: FieldType): unknown {
    return textToBoolean(fromType.toText(from, apiValue));
  }

  searchCondition(): string | null {
    return null;
  }

  /** `true` or `false`, as PostgreSQL casts a boolean to text. */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    return `(CASE WHEN ${columnOf(field, ref)} THEN 'true' ELSE 'false' END)`;
  }
}
