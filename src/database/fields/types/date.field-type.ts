import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import type { FieldSpec } from '../../../core/validation/field';
import type { FieldEntity } from '../field.entity';
import { CellError, ColumnRef, fieldColumn, FieldType } from '../field-type';
import { formatDateValue, parseDateValue } from '../values/date';
import { ColumnFieldType, columnOf } from './base';
import { dateSearchText } from './search-text';

/** The date properties shared by `date`, `created_on` and `last_modified`. */
export const DATE_PROPERTIES: Readonly<Record<string, FieldSpec>> = {
  date_format: { kind: 'choice', choices: ['EU', 'US', 'ISO'], required: false, default: 'EU' },
  date_include_time: { kind: 'bool', required: false, default: false },
  date_time_format: { kind: 'choice', choices: ['24', '12'], required: false, default: '24' },
  date_show_tzinfo: { kind: 'bool', required: false, default: false },
  date_force_timezone: {
    kind: 'string',
    max: 255,
    nullable: true,
    required: false,
    default: null,
    check: (value: string) => (isTimezone(value) ? null : { error: `"${value}" is not a valid choice.`, code: 'invalid_choice' }),
  },
};

function isTimezone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const includesTime = (field: FieldEntity): boolean => !!field.properties.date_include_time;

/** A date cell as text in the field's format (`EU` 31/12/2020, `US` 12/31/2020, `ISO` 2020-12-31), with the time when it has one. */
export function formatDateText(field: FieldEntity, value: unknown): string | null {
  if (typeof value !== 'string' || value.length < 10) return null;
  const [y, m, d] = value.slice(0, 10).split('-');
  const format = field.properties.date_format ?? 'EU';
  const date = format === 'US' ? `${m}/${d}/${y}` : format === 'ISO' ? `${y}-${m}-${d}` : `${d}/${m}/${y}`;
  if (!includesTime(field) || value.length < 16) return date;
  const hours = Number(value.slice(11, 13));
  const minutes = value.slice(14, 16);
  if (field.properties.date_time_format === '12') return `${date} ${String(hours % 12 || 12).padStart(2, '0')}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
  return `${date} ${value.slice(11, 16)}`;
}

/** `date`: a calendar date, or a UTC datetime with `date_include_time`. */
@Injectable()
export class DateFieldType extends ColumnFieldType {
  readonly type = 'date';
  readonly properties = DATE_PROPERTIES;
  readonly writeOnlyProperties = { date_force_timezone_offset: { kind: 'int', nullable: true, required: false } } as const;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: includesTime(field) ? 'datetime' : 'date' };
  }

  prepareValue(field: FieldEntity, value: unknown): string | null {
    const result = parseDateValue(value, { includeTime: includesTime(field) });
    if (!result.ok) throw new CellError(result.errors);
    return result.value;
  }

  toApi(field: FieldEntity, raw: unknown): string | null {
    return formatDateValue(raw as string | null, includesTime(field));
  }

  toText(field: FieldEntity, apiValue: unknown): string | null {
    return formatDateText(field, apiValue);
  }

  /** Exported in the field's date (and time) format, in every format. */
  exportValue(field: FieldEntity, apiValue: unknown): string | null {
    return formatDateText(field, apiValue);
  }

  /** Between date types the instant is kept: a datetime loses its time, a date becomes midnight UTC. */
  convertFrom(field: FieldEntity, apiValue: unknown, from: FieldEntity, fromType: FieldType): unknown {
    if (!['date', 'created_on', 'last_modified'].includes(from.type)) return fromType.toText(from, apiValue) ?? null;
    if (typeof apiValue !== 'string') return null;
    if (!includesTime(field)) return apiValue.slice(0, 10);
    return apiValue.length === 10 ? `${apiValue}T00:00:00Z` : apiValue;
  }

  /** In the field's date (and time) format, a datetime in its `date_force_timezone`. */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    return dateSearchText(columnOf(field, ref), includesTime(field), field.properties, ref);
  }
}
