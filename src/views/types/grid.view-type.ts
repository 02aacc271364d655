import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../database/fields/field.entity';
import { specDefaults, ViewType } from '../view-type';

const FIELD_OPTIONS = {
  width: { kind: 'int', min: 0, required: false, default: 200 },
  hidden: { kind: 'bool', required: false, default: false },
  order: { kind: 'int', min: -32768, max: 32767, required: false, default: 32767 },
  aggregation_type: { kind: 'string', max: 48, allowBlank: true, required: false, default: '' },
  aggregation_raw_type: { kind: 'string', max: 48, allowBlank: true, required: false, default: '' },
} as const;

/** `grid`: rows as a spreadsheet; per field a width, visibility, order and footer aggregation. */
@Injectable()
export class GridViewType implements ViewType {
  readonly type = 'grid';
  readonly properties = {
    row_identifier_type: { kind: 'choice', choices: ['id', 'count'], required: false, default: 'id' },
    row_height_size: { kind: 'choice', choices: ['small', 'medium', 'large'], required: false, default: 'small' },
  } as const;
  readonly canShare = true;
  readonly canFilter = true;
  readonly canSort = true;
  readonly canGroupBy = true;
  readonly canDecorate = true;
  readonly fieldOptions = FIELD_OPTIONS;

  defaultFieldOptions(_field: FieldEntity): Record<string, unknown> {
    return specDefaults(FIELD_OPTIONS);
  }
}
