import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import type { FieldEntity } from '../field.entity';
import { CellError, fieldColumn } from '../field-type';
import { parsePhoneNumber } from '../values/text';
import { ColumnFieldType } from './base';

/** `phone_number`: digits and the usual punctuation, 1–100 characters; empty cells are `""`. */
@Injectable()
export class PhoneNumberFieldType extends ColumnFieldType {
  readonly type = 'phone_number';
  readonly canBeUnique = true;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'text' };
  }

  prepareValue(_field: FieldEntity, value: unknown): string {
    const result = parsePhoneNumber(value);
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
