import { Inject, Injectable } from '@nestjs/common';
import ical from 'ical-generator';
import { ActionLog } from '../../actions/action-log';
import { ActionScopes } from '../../actions/action-type';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { quote } from '../../core/database/sql';
import { yieldTurn } from '../../core/lifecycle/yield-turn';
import { DatabaseErrors } from '../../database/database.errors';
import type { FieldEntity } from '../../database/fields/field.entity';
import { exportedValue, fieldColumn, FieldTypeRegistry } from '../../database/fields/field-type';
import { formatDateValue } from '../../database/fields/values/date';
import type { FilterTree } from '../../database/filters/filter-tree';
import { ROW_ALIAS, RowListQuery, RowSelection } from '../../database/rows/row-list.query';
import { isoMicros, RowRepository } from '../../database/rows/row.repository';
import { RowJson, RowsService } from '../../database/rows/rows.service';
import { TableOperations as T, ViewOperations as V } from '../../permissions';
import type { UserEntity } from '../../users/user.entity';
import { GridViewService } from '../grid-view.service';
import { representsDate, storesInstants } from '../types/date-field-reference';
import type { ViewAccess } from '../view-access.service';
import { NO_INCLUDES, ViewJson } from '../view-json.service';
import { ViewRepository } from '../view.repository';
import { newSlug } from '../view-slug';
import { ViewsService } from '../views.service';
import { ViewErrors } from '../views.errors';
import { CalendarDay, dateDays, dayKey, instantDays } from './calendar-days';
import { CalendarRange, parseCalendarRange } from './calendar-query';

export interface CalendarRowsJson {
  rows: Record<string, { count: number; results: RowJson[] }>;
  field_options?: Record<string, Record<string, unknown>>;
  row_metadata?: Record<string, unknown>;
}

/** How a page of days is answered: members' listings and shared ones differ only in these. */
export interface CalendarDaysOptions {
  /** The fields of each row (every field of the table when undefined). */
  fields: FieldEntity[] | undefined;
  /** Whose `row_metadata` (none on a shared page: null). */
  userId: number | null;
  /** `field_options` of these fields only (a shared view's visible ones); all when undefined. */
  optionFields?: FieldEntity[];
  include: string | undefined;
  limitLinkedItems?: number | null;
}

const DAY_MS = 86_400_000;
/** Rows of an iCal feed read and written per slice (the event loop is let go between two). */
const FEED_SLICE = 1000;

/** The system column behind a date-like field (created on, last modified), else its own column. */
function dateColumn(field: FieldEntity): string {
  return field.type === 'created_on' ? 'created_on' : field.type === 'last_modified' ? 'updated_on' : fieldColumn(field);
}

/** A stored date or datetime (SQLite text, PostgreSQL text) as an instant in ms. */
function storedInstant(raw: unknown): number {
  const iso = formatDateValue(raw instanceof Date ? raw : String(raw), true);
  return iso ? Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso) : NaN;
}

/**
 * Calendar views (Baserow premium's, ordinary here): rows per day of the view's date field over a
 * range (`from_timestamp` to `to_timestamp`, at most 45 days), each day with its count and a page
 * of rows; the iCal feed of a view whose feed is public; the feed's slug rotation.
 */
@Injectable()
export class CalendarViewService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly views: ViewsService,
    private readonly repo: ViewRepository,
    private readonly grid: GridViewService,
    private readonly rows: RowsService,
    private readonly rowRepo: RowRepository,
    private readonly listQuery: RowListQuery,
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly actions: ActionLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `GET /api/database/views/calendar/{view_id}/`: the query is checked before the view is looked up (as Baserow's decorators do). */
  async list(user: UserEntity, viewId: number, query: Record<string, unknown>): Promise<CalendarRowsJson> {
    const range = parseCalendarRange(query);
    const access = await this.views.require(viewId, user.id, T.listRows);
    if (access.view.type !== 'calendar') throw ViewErrors.viewDoesNotExist();
    const field = this.dateField(access);
    // Ad-hoc filters replace the saved ones (Baserow's NO_COMBINE filters); no order_by: days are in date order.
    const { order_by: _orderBy, ...filters } = query;
    const selection = await this.grid.selection(access, filters);
    return this.days(access, field, selection, range, {
      fields: undefined,
      userId: user.id,
      include: typeof query.include === 'string' ? query.include : undefined,
      limitLinkedItems: limitLinkedItems(query.limit_linked_items),
    });
  }

  /** The view's date field: 400 ERROR_CALENDAR_VIEW_HAS_NO_DATE_FIELD without one (or when it holds no dates any more). */
  dateField({ view, context }: ViewAccess): FieldEntity {
    const field = context.byId.get(view.properties.date_field as number);
    if (!field || !representsDate(field)) throw ViewErrors.calendarHasNoDateField();
    return field;
  }

  /**
   * The days of a selection (members' and shared calendars), Baserow's
   * `get_rows_grouped_by_date_field`: with a time, days are local days in the field's forced
   * time zone, else the user's (UTC when not given); dates are UTC days up to and including
   * `to`'s. Each day answers its count and up to `limit` rows from `offset`, ordered by the date,
   * then `order` and id. Days with rows come first (in date order), then the empty ones.
   */
  async days(access: ViewAccess, field: FieldEntity, base: RowSelection, range: CalendarRange, options: CalendarDaysOptions): Promise<CalendarRowsJson> {
    const { context } = access;
    const withTime = !!field.properties.date_include_time;
    const timeZone = withTime ? ((field.properties.date_force_timezone as string | null) ?? range.userTimezone ?? 'UTC') : 'UTC';
    const days: CalendarDay[] = withTime ? instantDays(range.from, range.to, timeZone) : dateDays(range.from, range.to);
    const json: CalendarRowsJson = { rows: {} };
    const chosen: number[] = [];
    const keyOf = new Map<number, string>();
    if (days.length) {
      const instants = storesInstants(field);
      const column = `${quote(ROW_ALIAS)}.${quote(dateColumn(field))}`;
      const bound = (value: number, date: boolean): string => (!instants ? dayKey(value) : isoMicros(new Date(date ? value * DAY_MS : value)));
      const selection: RowSelection = { ...base, search: range.search ?? base.search, searchMode: (range.searchMode as RowSelection['searchMode']) ?? base.searchMode };
      const sql = this.rowRepo.sql();
      const where = await this.listQuery.where(selection, context, sql, false);
      const first = bound(days[0].start, !withTime);
      const last = bound(days[days.length - 1].end, !withTime);
      const text =
        `SELECT ${quote(ROW_ALIAS)}."id" AS "id", ${column} AS "d" FROM ${this.listQuery.from(context)} ` +
        `WHERE ${where} AND ${column} >= ${sql.param(first)} AND ${column} < ${sql.param(last)} ` +
        `ORDER BY ${column} ASC, ${quote(ROW_ALIAS)}."order" ASC, ${quote(ROW_ALIAS)}."id" ASC`;
      const found = await this.rowRepo.read<{ id: unknown; d: unknown }>(text, sql.params);
      const counts = new Map<string, number>();
      for (const row of found) {
        const at = storedInstant(row.d);
        // With a time: the local day the value falls on; a date: its UTC day (its own date).
        const key = withTime ? days[dayIndex(days, at)]?.key : dayKey(Math.floor(at / DAY_MS));
        if (key === undefined) continue;
        const position = counts.get(key) ?? 0;
        counts.set(key, position + 1);
        if (position >= range.offset && position < range.offset + range.limit) {
          const id = Number(row.id);
          chosen.push(id);
          keyOf.set(id, key);
        }
      }
      const results = await this.serialized(access, chosen, options);
      for (const result of results) {
        const key = keyOf.get(result.id)!;
        (json.rows[key] ??= { count: counts.get(key) ?? 0, results: [] }).results.push(result);
      }
      for (const day of days) json.rows[day.key] ??= { count: counts.get(day.key) ?? 0, results: [] };
    }
    const includes = new Set((options.include ?? '').split(',').map((s) => s.trim()));
    if (includes.has('field_options')) json.field_options = await this.grid.fieldOptions(access, options.optionFields);
    if (includes.has('row_metadata') && options.userId !== null) json.row_metadata = await this.rows.rowMetadata(context.table.id, chosen, options.userId);
    return json;
  }

  /** These rows serialized, in this order. */
  private async serialized(access: ViewAccess, ids: number[], options: CalendarDaysOptions): Promise<RowJson[]> {
    if (!ids.length) return [];
    const { rows } = await this.rows.select(access.context, { filters: null, search: null, sorts: [], rowIds: ids }, false, ids.length, 0);
    const results = await this.rows.serialize(access.context, rows, { userFieldNames: false, fields: options.fields });
    const byId = new Map(results.map((row) => [row.id, row]));
    const linkKeys = (options.fields ?? access.context.fields).filter((f) => f.type === 'link_row').map((f) => `field_${f.id}`);
    return ids
      .map((id) => byId.get(id))
      .filter((row): row is RowJson => !!row)
      .map((row) => {
        if (options.limitLinkedItems !== null && options.limitLinkedItems !== undefined) {
          for (const key of linkKeys) if (Array.isArray(row[key])) row[key] = (row[key] as unknown[]).slice(0, options.limitLinkedItems);
        }
        return row;
      });
  }

  // ------------------------------------------------------------------ iCal feed

  /**
   * `GET /api/database/views/calendar/{ical_slug}.ics`: the feed of a calendar whose feed is
   * public (404 ERROR_VIEW_DOES_NOT_EXIST otherwise, as for an unknown slug): one event per row
   * with a date, through the view's saved filters and sorts, at most BASEROW_ICAL_VIEW_MAX_EVENTS.
   * Each event: the row's URL in the web client as uid and location, its visible fields' values
   * joined by " - " as summary and description, its last change as stamp.
   */
  async icalFeed(icalSlug: string): Promise<string> {
    const view = /^[-\w]+$/.test(icalSlug) ? await this.repo.findLiveByIcalSlug(icalSlug) : null;
    if (!view || view.type !== 'calendar' || !view.properties.ical_public) throw DatabaseErrors.viewDoesNotExist();
    const access = await this.views.systemAccess(view);
    if (!access) throw DatabaseErrors.viewDoesNotExist();
    const field = this.dateField(access);
    const { context } = access;
    const withTime = !!field.properties.date_include_time;
    const timeZone = withTime ? ((field.properties.date_force_timezone as string | null) ?? 'UTC') : 'UTC';
    const options = await this.views.fieldOptions(view, context, false);
    const shown = [...context.fields]
      .filter((f) => options[String(f.id)]?.hidden === false)
      .sort((a, b) => Number(options[String(a.id)].order) - Number(options[String(b.id)].order) || a.id - b.id);
    const saved = await this.views.savedSelection(view, context);
    const hasDate: FilterTree = { filter_type: 'AND', filters: [{ field, type: 'not_empty', value: '' }], groups: saved.filters ? [saved.filters] : [] };
    const selection: RowSelection = { filters: hasDate, search: null, sorts: saved.sorts };
    const rowUrl = (id: number) => `${this.config.webFrontendUrl}/database/${context.table.databaseId}/table/${context.table.id}/${view.id}/row/${id}`;
    const calendar = ical({ name: view.name, prodId: '//Baserow//baserow.io//EN' });
    calendar.x([['X-WR-TIMEZONE', timeZone]]);
    const max = this.config.icalViewMaxEvents;
    for (let offset = 0; max === null || offset < max; offset += FEED_SLICE) {
      const size = max === null ? FEED_SLICE : Math.min(FEED_SLICE, max - offset);
      const { rows } = await this.rows.select(context, selection, false, size, offset);
      const results = await this.rows.serialize(context, rows, { userFieldNames: false, fields: [...shown, field] });
      results.forEach((row, index) => {
        const url = rowUrl(row.id);
        const description = shown.map((f) => String(exportedValue(this.fieldTypes.of(f), f, row[`field_${f.id}`], false))).join(' - ');
        const start = storedInstant(rows[index][dateColumn(field)]);
        const modified = new Date(storedInstant(rows[index].updated_on));
        calendar.createEvent({
          id: url,
          stamp: modified,
          lastModified: modified,
          start: new Date(start),
          allDay: !withTime,
          summary: description,
          description,
          location: url,
        });
      });
      if (rows.length < size) break;
      await yieldTurn();
    }
    return calendar.toString();
  }

  /**
   * `POST /api/database/views/calendar/{view_id}/ical_slug_rotate/`: a new feed slug (the old
   * feed URL stops working). `given`: the slug an undo or redo puts back.
   */
  async rotateIcalSlug(user: UserEntity, viewId: number, given?: string | null): Promise<ViewJson> {
    const { view, context } = await this.db.run(async () => {
      const { view, context } = await this.views.require(viewId, user.id, V.updateSlug);
      if (view.type !== 'calendar') throw ViewErrors.viewDoesNotExist();
      let icalSlug = given === undefined ? newSlug() : given;
      if (given && given !== view.icalSlug && (await this.repo.icalSlugExists(given))) throw new Error(`The iCal slug ${given} is another view's now.`);
      while (given === undefined && (await this.repo.icalSlugExists(icalSlug!))) icalSlug = newSlug();
      await this.repo.update(view.id, { icalSlug });
      this.db.record('view.updated', { viewId: view.id, tableId: view.tableId });
      this.actions.record(
        'rotate_calendar_ical_view_slug',
        { tableId: context.table.id, viewId: view.id, slug: icalSlug, originalSlug: view.icalSlug },
        { scope: ActionScopes.view(view.id), workspaceId: context.workspaceId },
      );
      return { view: { ...view, icalSlug }, context };
    });
    return this.views.serialize(view, context.table, NO_INCLUDES, {}, user.id);
  }
}

/** The index of the day holding this instant (days are contiguous and ordered), or -1. */
function dayIndex(days: CalendarDay[], at: number): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at < days[mid].start) hi = mid - 1;
    else if (at >= days[mid].end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** `limit_linked_items`: a non-negative integer, else ignored (Baserow's parse_limit_linked_items_params). */
export function limitLinkedItems(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}
