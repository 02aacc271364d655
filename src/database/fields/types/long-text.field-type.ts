import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import type { FieldEntity } from '../field.entity';
import { fieldColumn } from '../field-type';
import { ColumnFieldType, requireString } from './base';

/** `long_text`: multi-line text, optionally rich (markdown), which cannot be primary. */
@Injectable()
export class LongTextFieldType extends ColumnFieldType {
  readonly type = 'long_text';
  readonly canBeUnique = true;
  readonly properties = {
    long_text_enable_rich_text: { kind: 'bool', required: false, default: false },
  } as const;

  canBePrimary(field: FieldEntity): boolean {
    return !field.properties.long_text_enable_rich_text;
  }

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'text' };
  }

  prepareValue(_field: FieldEntity, value: unknown): string | null {
    return requireString(value);
  }

  historyMetadata(field: FieldEntity): Record<string, unknown> {
    return { long_text_enable_rich_text: !!field.properties.long_text_enable_rich_text };
  }
}
