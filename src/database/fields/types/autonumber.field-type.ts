import { Injectable } from '@nestjs/common';
import { liveRow } from '../../rows/table-schema.repository';
import type { ColumnDefinition } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import { ROW_ALIAS, RowListQuery, RowSort } from '../../rows/row-list.query';
import { RowRepository } from '../../rows/row.repository';
import { RowsService } from '../../rows/rows.service';
import { TableContext, TableContextService } from '../../table-context';
import type { FieldEntity } from '../field.entity';
import { FieldContext, fieldColumn, rowsTable } from '../field-type';
import { ColumnFieldType } from './base';

/**
 * `autonumber`: 1, 2, 3… made by the server; read-only. When the field is created (or a
 * field is converted to it) the rows are numbered in their order (`order`, `id`), or in the
 * sort order of the request-only `view_id`; new rows get the largest number plus one.
 */
@Injectable()
export class AutonumberFieldType extends ColumnFieldType {
  readonly type = 'autonumber';
  readonly readOnly = true;
  readonly writeOnlyProperties = { view_id: { kind: 'int', nullable: true, required: false } } as const;

  /** The `view_id` of the request that is creating or converting a field, until its storage exists. */
  private readonly numberingViews = new WeakMap<FieldEntity, number>();

  constructor(
    private readonly rows: RowRepository,
    private readonly contexts: TableContextService,
    private readonly rowsService: RowsService,
    private readonly listQuery: RowListQuery,
  ) {
    super();
  }

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'integer' };
  }

  prepareValue(_field: FieldEntity, value: unknown): number | null {
    return typeof value === 'number' ? value : null;
  }

  async afterSave(field: FieldEntity, input: Record<string, unknown>): Promise<FieldEntity[]> {
    if (typeof input.view_id === 'number') this.numberingViews.set(field, input.view_id);
    return [];
  }

  /** Numbers every row, in the view's sort order when a view was given. */
  async createStorage(field: FieldEntity, ctx: FieldContext): Promise<void> {
    const viewId = this.numberingViews.get(field);
    this.numberingViews.delete(field);
    let sorts: RowSort[] = [];
    let context: TableContext | null = null;
    if (viewId !== undefined) {
      context = await this.contexts.reload({ table: ctx.table } as TableContext);
      sorts = (await this.rowsService.selection(context, { view_id: viewId }, false)).sorts;
    }
    const sql = this.rows.sql();
    const from = `${quote(rowsTable(field.tableId))} ${quote(ROW_ALIAS)}`;
    const ordered = await this.rows.query<{ id: unknown }>(`SELECT ${quote(ROW_ALIAS)}."id" FROM ${from} WHERE ${liveRow(ROW_ALIAS)} ORDER BY ${this.listQuery.orderBy(sorts, sql)}`, sql.params);
    await this.rows.setColumn(field.tableId, this.column(field), ordered.map((row, i) => ({ id: Number(row.id), value: i + 1 })));
  }

  async fillNewRows(field: FieldEntity, rowIds: number[]): Promise<void> {
    if (!rowIds.length) return;
    const [row] = await this.rows.query<{ max: unknown }>(`SELECT MAX(${quote(fieldColumn(field))}) AS "max" FROM ${quote(rowsTable(field.tableId))} WHERE ${liveRow()}`);
    const max = row?.max == null ? 0 : Number(row.max);
    await this.rows.setColumn(field.tableId, this.column(field), rowIds.map((id, i) => ({ id, value: max + i + 1 })));
  }

  /** Converting to autonumber keeps nothing: the rows are numbered anew (createStorage). */
  convertFrom(): unknown {
    return null;
  }

  toApi(_field: FieldEntity, raw: unknown): number | null {
    return raw == null ? null : Number(raw);
  }
}
