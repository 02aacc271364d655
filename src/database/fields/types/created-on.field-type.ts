import { canContain } from './base';
import { Injectable } from '@nestjs/common';
import { escapeLike } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import type { FieldEntity } from '../field.entity';
import { cellError, ColumnRef, FieldType, RawRow } from '../field-type';
import { formatDateValue } from '../values/date';
import { DATE_PROPERTIES, formatDateText, includesTime } from './date.field-type';
import { dateSearchText } from './search-text';

/**
 * A read-only date field showing a system column of the row (`created_on` or `updated_on`),
 * with the date properties of `date`. It has no column of its own.
 */
export abstract class SystemDateFieldType implements FieldType {
  abstract readonly type: string;
  /** The system column the cells are read from. */
  protected abstract readonly systemColumn: string;
  readonly readOnly = true;
  readonly canIndex = true;
  readonly properties = DATE_PROPERTIES;

  canBePrimary(): boolean {
    return true;
  }

  column(): null {
    return null;
  }

  prepareValue(field: FieldEntity): never {
    throw cellError(`Field of type ${field.type} is read only and should not be set manually.`);
  }

  defaultValue(): null {
    return null;
  }

  readValues(field: FieldEntity, rows: RawRow[]): unknown[] {
    return rows.map((row) => systemDate(field, row[this.systemColumn]));
  }

  toText(field: FieldEntity, apiValue: unknown): string | null {
    return formatDateText(field, apiValue);
  }

  /** Exported in the field's date (and time) format, in every format. */
  exportValue(field: FieldEntity, apiValue: unknown): string | null {
    return formatDateText(field, apiValue);
  }

  /** Nothing converts into it: the values come from the row itself. */
  convertFrom(): unknown {
    return null;
  }

  sortExpression(_field: FieldEntity, ref: ColumnRef): string {
    return `${quote(ref.alias)}.${quote(this.systemColumn)}`;
  }

  searchCondition(_field: FieldEntity, ref: ColumnRef, term: string): string | null {
    if (!canContain('datetime', term)) return null;
    const column = ref.sql.dialect.castText(`${quote(ref.alias)}.${quote(this.systemColumn)}`);
    return ref.sql.dialect.ilike(column, ref.sql.param(`%${escapeLike(term)}%`));
  }

  /** The timestamp in the field's date (and time) format, in its `date_force_timezone`. */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    return dateSearchText(`${quote(ref.alias)}.${quote(this.systemColumn)}`, true, field.properties, ref);
  }
}

/**
 * A system timestamp as the field answers it: the UTC datetime, or (without
 * `date_include_time`) the calendar date in `date_force_timezone` (UTC when unset).
 */
export function systemDate(field: FieldEntity, raw: unknown): string | null {
  const instant = formatDateValue(raw as string | Date | null, true);
  if (!instant || includesTime(field)) return instant;
  const timezone = field.properties.date_force_timezone;
  if (!timezone) return instant.slice(0, 10);
  try {
    // en-CA formats dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));
  } catch {
    return instant.slice(0, 10);
  }
}

/** `created_on`: when the row was created. */
@Injectable()
export class CreatedOnFieldType extends SystemDateFieldType {
  readonly type = 'created_on';
  protected readonly systemColumn = 'created_on';
}
