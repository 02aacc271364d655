import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../database/fields/field.entity';
import type { TableContext } from '../../database/table-context';
import { ViewAggregationTypeRegistry } from '../aggregations/aggregation-type';
import { AggregationErrors } from '../aggregations/aggregations.errors';
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
  /** `aggregation_raw_type` is "" or a raw aggregation allowed in a view (else the options are invalid; `count` is not). */
  readonly fieldOptions = {
    ...FIELD_OPTIONS,
    aggregation_raw_type: {
      ...FIELD_OPTIONS.aggregation_raw_type,
      check: (value: string) => (value === '' || this.aggregations.getInView(value) ? null : { error: `"${value}" is not a valid choice.`, code: 'invalid_choice' }),
    },
  };

  constructor(private readonly aggregations: ViewAggregationTypeRegistry) {}

  /** A raw aggregation must apply to its field: ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD. */
  prepareFieldOptions(changes: Map<number, Record<string, unknown>>, _stored: Map<number, Record<string, unknown>>, context: TableContext): void {
    for (const [fieldId, options] of changes) {
      const type = this.aggregations.getInView(options.aggregation_raw_type);
      if (type && !this.aggregations.compatible(type, context.byId.get(fieldId)!)) throw AggregationErrors.unsupportedField();
    }
  }

  defaultFieldOptions(_field: FieldEntity): Record<string, unknown> {
    return specDefaults(FIELD_OPTIONS);
  }
}
