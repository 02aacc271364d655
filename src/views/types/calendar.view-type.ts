import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldRepository } from '../../database/fields/field.repository';
import type { TableContext } from '../../database/table-context';
import { TableRepository } from '../../database/table.repository';
import type { ViewEntity } from '../view.entity';
import { newSlug } from '../view-slug';
import { specDefaults, ViewType } from '../view-type';
import { checkDateField } from './date-field-reference';
import { FIELD_REFERENCE, referencedFields, remapFieldReferences } from './field-reference';

const FIELD_OPTIONS = {
  hidden: { kind: 'bool', required: false, default: true },
  order: { kind: 'int', min: -32768, max: 32767, required: false, default: 32767 },
} as const;

/** The first field (primary first, then by id) is shown, as Baserow's calendar `view_created` does. */
export function firstVisible(context: TableContext): Map<number, Record<string, unknown>> {
  const ordered = [...context.fields].sort((a, b) => Number(b.primary) - Number(a.primary) || a.id - b.id);
  return new Map(ordered.slice(0, 1).map((field) => [field.id, { hidden: false }]));
}

/** The path of a calendar's iCal feed (Baserow's `calendar_ical_feed` route). */
export const icalFeedPath = (slug: string): string => `/api/database/views/calendar/${slug}.ics`;

/**
 * `calendar` (premium in Baserow, ordinary here): rows placed on days by a date field. Its iCal
 * feed is served at `ical_feed_url` while `ical_public` is on; the feed's slug is made the first
 * time the feed is made public and kept in its own column (looked up by the feed route). Per
 * field a visibility (hidden by default) and an order.
 */
@Injectable()
export class CalendarViewType implements ViewType {
  readonly type = 'calendar';
  readonly properties = {
    date_field: FIELD_REFERENCE,
    // Read-only: whatever a request sends is not read (the serializer answers the view's).
    ical_feed_url: { kind: 'any', required: false, nullable: true, default: null },
    ical_public: { kind: 'bool', required: false, nullable: true, default: false },
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  defaultFieldOptions(_field: FieldEntity): Record<string, unknown> {
    return specDefaults(FIELD_OPTIONS);
  }

  async prepareProperties(values: Record<string, unknown>, _view: unknown, context: TableContext, userId: number): Promise<void> {
    delete values.ical_feed_url;
    await checkDateField(values, 'date_field', context, userId, { fields: this.fields, tables: this.tables }, 'type-first');
  }

  /** A feed made public gets its slug the first time (Baserow's before_view_create/update). */
  entityChanges(values: Record<string, unknown>, view: ViewEntity | null): Partial<ViewEntity> {
    if (values.ical_public && !view?.icalSlug) return { icalSlug: newSlug() };
    return {};
  }

  /** `ical_feed_url` from the view's iCal slug (null before it has one), as Baserow's property does. */
  serializeProperties(values: Record<string, unknown>, _userId: number | null, view?: ViewEntity): Record<string, unknown> {
    const slug = view?.icalSlug;
    return { date_field: values.date_field ?? null, ical_feed_url: slug ? `${this.config.publicUrl}${icalFeedPath(slug)}` : null, ical_public: values.ical_public ?? false };
  }

  remapFields(properties: Record<string, unknown>, _options: Record<string, unknown>[], fieldIds: ReadonlyMap<number, number>): void {
    remapFieldReferences(properties, ['date_field'], fieldIds);
  }

  createdFieldOptions(context: TableContext): Map<number, Record<string, unknown>> {
    return firstVisible(context);
  }

  /** The days need the date field's values, hidden or not. */
  neededFields(view: ViewEntity): number[] {
    return referencedFields(view.properties, ['date_field']);
  }

  /** A trashed date field is no longer the view's (Baserow's after_field_delete); a converted one stays and the listing refuses it. */
  fieldChanged(view: ViewEntity, field: FieldEntity, removed: boolean): Record<string, unknown> | null {
    return removed && view.properties.date_field === field.id ? { date_field: null } : null;
  }
}
