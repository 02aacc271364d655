import { Injectable } from '@nestjs/common';
import { ApiError } from '../../core/errors/api-error';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldRepository } from '../../database/fields/field.repository';
import type { TableContext } from '../../database/table-context';
import { TableRepository } from '../../database/table.repository';
import type { ViewEntity } from '../view.entity';
import { specDefaults, ViewType } from '../view-type';
import { firstVisible } from './calendar.view-type';
import { checkDateField, incompatibleField, representsDate } from './date-field-reference';
import { FIELD_REFERENCE, referencedFields, remapFieldReferences } from './field-reference';

const FIELD_OPTIONS = {
  hidden: { kind: 'bool', required: false, default: true },
  order: { kind: 'int', min: -32768, max: 32767, required: false, default: 32767 },
} as const;

export const TIMESCALES = ['day', 'week', 'month', 'year'] as const;

/** Baserow's detail (its error tuple puts the sentence's end in a fourth, unused, item). */
export const invalidDateSettings = (): ApiError =>
  new ApiError(
    'ERROR_TIMELINE_VIEW_HAS_INVALID_DATE_SETTINGS',
    400,
    'The requested timeline view does not have valid date settings. Please choose two valid date fields in the table that use the same ',
  );

/**
 * Both date fields with the same `date_include_time`, and with a time the same forced time zone
 * (Baserow's `_date_fields_are_compatible`).
 */
export function dateFieldsAreCompatible(start: FieldEntity, end: FieldEntity): boolean {
  const startTime = !!start.properties.date_include_time;
  const endTime = !!end.properties.date_include_time;
  const zone = (f: FieldEntity) => f.properties.date_force_timezone ?? null;
  return startTime === endTime && (!startTime || zone(start) === zone(end));
}

/**
 * `timeline` (premium in Baserow, ordinary here): rows as bars from a start to an end date field,
 * shown by `timescale`. Per field a visibility (hidden by default) and an order.
 */
@Injectable()
export class TimelineViewType implements ViewType {
  readonly type = 'timeline';
  readonly properties = {
    start_date_field: FIELD_REFERENCE,
    end_date_field: FIELD_REFERENCE,
    timescale: { kind: 'choice', choices: TIMESCALES, required: false, default: 'month' },
  } as const;
  readonly canShare = true;
  readonly canFilter = true;
  readonly canSort = true;
  readonly canGroupBy = false;
  readonly canDecorate = true;
  readonly fieldOptions = FIELD_OPTIONS;

  constructor(
    private readonly fields: FieldRepository,
    private readonly tables: TableRepository,
  ) {}

  defaultFieldOptions(_field: FieldEntity): Record<string, unknown> {
    return specDefaults(FIELD_OPTIONS);
  }

  /** Each date field of the view's table and able to hold dates; when both are given, compatible. */
  async prepareProperties(values: Record<string, unknown>, _view: unknown, context: TableContext, userId: number): Promise<void> {
    const lookups = { fields: this.fields, tables: this.tables };
    const start = await checkDateField(values, 'start_date_field', context, userId, lookups, 'table-first');
    const end = await checkDateField(values, 'end_date_field', context, userId, lookups, 'table-first');
    if (start && end && !dateFieldsAreCompatible(start, end)) throw invalidDateSettings();
  }

  /**
   * What the rows endpoints check first (Baserow's raise_if_invalid_date_settings): both fields
   * set, both dates, compatible.
   */
  requireValidDates(view: ViewEntity, context: TableContext): void {
    const start = context.byId.get(view.properties.start_date_field as number);
    const end = context.byId.get(view.properties.end_date_field as number);
    if (!start || !end) throw invalidDateSettings();
    if (!representsDate(start) || !representsDate(end)) throw incompatibleField();
    if (!dateFieldsAreCompatible(start, end)) throw invalidDateSettings();
  }

  remapFields(properties: Record<string, unknown>, _options: Record<string, unknown>[], fieldIds: ReadonlyMap<number, number>): void {
    remapFieldReferences(properties, ['start_date_field', 'end_date_field'], fieldIds);
  }

  createdFieldOptions(context: TableContext): Map<number, Record<string, unknown>> {
    return firstVisible(context);
  }

  /** The bars need both dates, hidden or not. */
  neededFields(view: ViewEntity): number[] {
    return referencedFields(view.properties, ['start_date_field', 'end_date_field']);
  }

  fieldChanged(view: ViewEntity, field: FieldEntity, removed: boolean): Record<string, unknown> | null {
    if (!removed) return null;
    const changes: Record<string, unknown> = {};
    if (view.properties.start_date_field === field.id) changes.start_date_field = null;
    if (view.properties.end_date_field === field.id) changes.end_date_field = null;
    return Object.keys(changes).length ? changes : null;
  }
}
