import { Injectable } from '@nestjs/common';
import { ViewOperations as V } from '../../permissions';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { quote, Sql } from '../../core/database/sql';
import { DatabaseErrors } from '../../database/database.errors';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldRepository } from '../../database/fields/field.repository';
import { fieldColumn, FieldTypeRegistry } from '../../database/fields/field-type';
import { FilterCompiler } from '../../database/filters/filter-tree';
import { ROW_ALIAS, RowListQuery, RowSelection } from '../../database/rows/row-list.query';
import { RowRepository } from '../../database/rows/row.repository';
import { TableContext, TableContextService } from '../../database/table-context';
import type { UserEntity } from '../../users/user.entity';
import { GridViewService } from '../grid-view.service';
import { ViewRepository } from '../view.repository';
import type { ViewAccess } from '../view-access.service';
import type { FieldOptionsJson } from '../view-field-options.service';
import { ViewsService } from '../views.service';
import { AggregationQuery, ViewAggregationTypeRegistry } from './aggregation-type';
import type { AggregationsQuery } from './aggregations.dto';
import { AggregationErrors } from './aggregations.errors';
import { RowsService } from '../../database/rows/rows.service';
import { CountCache } from '../../database/rows/count-cache';
import { ViewVisibleFields } from '../view-visible-fields';

/** Field types whose cells are numbers in the API (aggregated values are answered as numbers). */
const NUMBER_VALUES = new Set(['number', 'rating', 'autonumber', 'duration']);
/** Collaborator fields read from a system column of the row. */
const SYSTEM_USER_COLUMNS: Record<string, string> = { created_by: 'created_by_id', last_modified_by: 'last_modified_by_id' };

/** NaN is not JSON: Baserow answers it as the string "NaN", also inside a list (deciles, a distribution). */
const jsonSafe = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(jsonSafe);
  return typeof value === 'number' && Number.isNaN(value) ? 'NaN' : value;
};

/**
 * Grid view aggregations (§8.3): the raw aggregation of each field whose grid options name one,
 * or of one field and type, over the view's selection (saved filters, or the ad-hoc ones that
 * replace them, and the search), computed in SQL on either database, each result kept (as the
 * rows' counts are) until the rows it read change.
 */
@Injectable()
export class AggregationsService {
  constructor(
    private readonly grid: GridViewService,
    private readonly views: ViewsService,
    private readonly registry: ViewAggregationTypeRegistry,
    private readonly rows: RowRepository,
    private readonly listQuery: RowListQuery,
    private readonly compiler: FilterCompiler,
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly fields: FieldRepository,
    private readonly contexts: TableContextService,
    private readonly db: UnitOfWork,
    private readonly viewRepo: ViewRepository,
    private readonly rowsService: RowsService,
    private readonly visibleFields: ViewVisibleFields,
    private readonly cache: CountCache,
  ) {}

  /**
   * `{"field_<id>": value, …, "total"?: n}` for the visible fields whose options set
   * `aggregation_raw_type` (a hidden field's footer is left out), searched on the visible fields,
   * as Baserow's `get_view_field_aggregations`.
   */
  async all(user: UserEntity, viewId: number, query: AggregationsQuery): Promise<Record<string, unknown>> {
    const access = await this.grid.requireGrid(user, viewId, V.listAggregations);
    const options = await this.views.fieldOptions(access.view, access.context);
    const visible = this.visibleFields.inOptions(access.view, access.context, options);
    const selection = { ...(await this.grid.selection(access, query)), searchFields: visible };
    return this.ofSelection(access, selection, visible, query.include, user.id, options);
  }

  /**
   * The aggregations of those of `fields` whose options set `aggregation_raw_type`, over a
   * selection the caller built (a shared grid: its saved filters AND the request's, searched on
   * its visible fields), with `total` when included. `options`: the view's field options, when
   * the caller has read them already.
   */
  async ofSelection(
    access: ViewAccess,
    selection: RowSelection,
    fields: FieldEntity[],
    include: unknown,
    userId: number | null,
    options?: FieldOptionsJson,
  ): Promise<Record<string, unknown>> {
    options ??= await this.views.fieldOptions(access.view, access.context);
    const result: Record<string, unknown> = {};
    for (const field of fields) {
      const type = this.registry.getInView(options[String(field.id)]?.aggregation_raw_type);
      if (!type || !this.registry.compatible(type, field)) continue;
      result[`field_${field.id}`] = jsonSafe(await type.compute(this.query(access.context, selection, field, userId)));
    }
    if (includesTotal(include)) result.total = await this.total(access.context, selection);
    return result;
  }

  /** `{"value": …, "total"?: n}` of one field and raw type. */
  async one(user: UserEntity, viewId: number, fieldId: number, typeName: string | undefined, query: AggregationsQuery): Promise<Record<string, unknown>> {
    const access = await this.grid.requireGrid(user, viewId, V.readAggregation);
    const field = await this.fieldOf(access.context, fieldId);
    const type = this.registry.get(typeName);
    if (!type) throw AggregationErrors.typeDoesNotExist();
    if (!this.registry.compatible(type, field)) throw AggregationErrors.unsupportedField();
    const selection = await this.grid.selection(access, query);
    const result: Record<string, unknown> = { value: jsonSafe(await type.compute(this.query(access.context, selection, field, user.id))) };
    if (includesTotal(query.include)) result.total = await this.total(access.context, selection);
    return result;
  }

  /**
   * A field that changed type loses the grid aggregations that no longer apply to it
   * (`aggregation_type` and `aggregation_raw_type` become ""), with `view_field_options_updated`;
   * inside the field's unit of work.
   */
  async fieldTypeChanged(field: FieldEntity): Promise<void> {
    for (const view of await this.viewRepo.ofTable(field.tableId, { type: 'grid' })) {
      const options = (await this.viewRepo.fieldOptions(view.id)).get(field.id);
      const type = this.registry.get(options?.options.aggregation_raw_type);
      if (!options || !type || this.registry.compatible(type, field)) continue;
      await this.viewRepo.updateFieldOptions(options.id, { ...options.options, aggregation_type: '', aggregation_raw_type: '' });
      this.db.recordAsSystem('view.field_options_updated', { viewId: view.id, tableId: view.tableId });
    }
  }

  private async fieldOf(context: TableContext, fieldId: number): Promise<FieldEntity> {
    const field = context.byId.get(fieldId);
    if (field) return field;
    if (await this.fields.findLive(fieldId)) throw DatabaseErrors.fieldNotInTable();
    throw DatabaseErrors.fieldDoesNotExist();
  }

  /** The rows of the selection, as the rows endpoints count them (and cache the count). */
  private async total(context: TableContext, selection: RowSelection): Promise<number> {
    return (await this.rowsService.select(context, selection, false, 0, 0)).count;
  }

  private query(context: TableContext, selection: RowSelection, aggregated: FieldEntity, userId: number | null): AggregationQuery {
    // A computed field is aggregated as the plain field of its result (a number formula as a number field).
    const aggregatedType = this.fieldTypes.of(aggregated);
    const { field, type: fieldType } = aggregatedType.filterAs?.(aggregated) ?? { field: aggregated, type: aggregatedType };
    /** The value of a cell: option ids and user ids, or (to group a distribution) option values and first names. */
    const value = (sql: Sql, grouping: boolean): string => {
      const column = SYSTEM_USER_COLUMNS[field.type] ?? fieldColumn(field);
      if (!grouping && (SYSTEM_USER_COLUMNS[field.type] || field.type === 'single_select')) return `${quote(ROW_ALIAS)}.${quote(column)}`;
      // An array (a lookup) is aggregated as its stored cell, not as the key it sorts by.
      if (aggregatedType.formulaResultType?.(aggregated).startsWith('array(')) return `${quote(ROW_ALIAS)}.${quote(column)}`;
      return fieldType.sortExpression(field, { alias: ROW_ALIAS, sql }) ?? `${quote(ROW_ALIAS)}.${quote(column)}`;
    };
    const empty = (sql: Sql): string => {
      if (SYSTEM_USER_COLUMNS[field.type]) return `${quote(ROW_ALIAS)}.${quote(SYSTEM_USER_COLUMNS[field.type])} IS NULL`;
      return this.compiler.leaf(aggregated, 'empty', '', context, sql, ROW_ALIAS, new Date()) ?? '1 = 0';
    };
    return {
      field: aggregated,
      empty,
      rows: async ({ select, condition, tail, grouping }) => {
        const sql = this.rows.sql();
        const expression = value(sql, !!grouping);
        const selected = select(sql, expression);
        let where = await this.listQuery.where(selection, context, sql, false);
        if (condition) where += ` AND ${await condition(sql, expression)}`;
        const text = `SELECT ${selected} FROM ${this.listQuery.from(context)} WHERE ${where}${tail ? ` ${tail(sql, expression)}` : ''}`;
        // Kept by the tables' write versions as the counts are: a footer is read again only after its rows changed.
        return this.cache.remember(context.table.id, text, sql.params, () => this.rows.read(text, sql.params));
      },
      format: async (raw) => {
        if (raw === null || raw === undefined) return null;
        if (NUMBER_VALUES.has(field.type)) {
          const number = Number(raw);
          const places = field.type === 'number' ? Number(field.properties.number_decimal_places ?? 0) : null;
          return places === null ? number : Number(number.toFixed(places));
        }
        if (field.type === 'boolean') return raw === true || raw === 1 || raw === '1' || raw === 't';
        if (['date', 'created_on', 'last_modified'].includes(field.type)) {
          const row = { id: 0, [fieldColumn(field)]: raw, created_on: raw, updated_on: raw };
          const [formatted] = await fieldType.readValues(field, [row as never], this.contexts.fieldContext(context, userId));
          return formatted;
        }
        return raw;
      },
    };
  }
}

function includesTotal(include: unknown): boolean {
  return String(include ?? '')
    .split(',')
    .map((s) => s.trim())
    .includes('total');
}
