import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import type { FieldEntity } from '../field.entity';
import { CellError, fieldColumn } from '../field-type';
import { parseUrl } from '../values/text';
import { ColumnFieldType } from './base';

/** `url`: a leniently checked URL; empty cells are `""`, never null. */
@Injectable()
export class UrlFieldType extends ColumnFieldType {
  readonly type = 'url';
  readonly canBeUnique = true;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'text' };
  }

  prepareValue(_field: FieldEntity, value: unknown): string {
    const result = parseUrl(value);
    if (!result.ok) throw new CellError(result.errors);
    return result.value;
  }

  defaultValue(): string {
    return '';
  }

  toApi(_field: FieldEntity, raw: unknown): string {
    return raw == null ? '' : String(raw);
  }
}
