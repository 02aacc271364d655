import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import type { FieldEntity } from '../field.entity';
import { fieldColumn } from '../field-type';
import { ColumnFieldType, requireString } from './base';

/** `text`: a single line; new rows get `text_default` (or null when it is empty). */
@Injectable()
export class TextFieldType extends ColumnFieldType {
  readonly type = 'text';
  readonly canBeUnique = true;
  readonly properties = {
    text_default: { kind: 'string', allowBlank: true, max: 255, required: false, default: '' },
  } as const;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'text' };
  }

  prepareValue(_field: FieldEntity, value: unknown): string | null {
    return requireString(value);
  }

  defaultValue(field: FieldEntity): string | null {
    return field.properties.text_default || null;
  }
}
