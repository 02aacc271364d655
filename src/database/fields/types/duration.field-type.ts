import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import type { FieldEntity } from '../field.entity';
import { CellError, ColumnRef, fieldColumn } from '../field-type';
import { DURATION_FORMATS, DurationFormat, formatDurationText, parseDuration } from '../values/duration';
import { ColumnFieldType, columnOf } from './base';
import { durationSearchText } from './search-text';

/** `duration`: seconds (a float), rounded to the smallest unit of `duration_format`. */
@Injectable()
export class DurationFieldType extends ColumnFieldType {
  readonly type = 'duration';
  readonly canIndex = false;
  readonly properties = {
    duration_format: { kind: 'choice', choices: DURATION_FORMATS, required: false, default: 'h:mm' },
  } as const;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'real' };
  }

  /** A coarser format rounds the stored durations. */
  needsConversion(previous: FieldEntity, field: FieldEntity): boolean {
    return format(previous) !== format(field);
  }

  prepareValue(field: FieldEntity, value: unknown): number | null {
    const result = parseDuration(value, format(field));
    if (!result.ok) throw new CellError(result.errors);
    return result.value;
  }

  toApi(_field: FieldEntity, raw: unknown): number | null {
    return raw == null ? null : Number(raw);
  }

  toText(field: FieldEntity, apiValue: unknown): string | null {
    return typeof apiValue === 'number' ? formatDurationText(apiValue, format(field)) : null;
  }

  /** The parts of its format as words (Baserow's `get_duration_search_expression`). */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    return durationSearchText(columnOf(field, ref), format(field), ref);
  }
}

const format = (field: FieldEntity): DurationFormat => (field.properties.duration_format ?? 'h:mm') as DurationFormat;
