import type { RowSnapshot } from '../../core/events/domain-events';
import { fieldColumn, FieldTypeRegistry } from '../fields/field-type';
import type { TableContext } from '../table-context';

/**
 * What row actions keep for their undo and redo (see `src/actions/types/rows.action-types.ts`),
 * built from what the write already holds, never read again.
 */

/** `create_row`, `create_rows`, `import_rows`: the new rows; `trashItemId` once an undo trashed them. */
export interface CreateRowsParams {
  tableId: number;
  rowIds: number[];
  trashItemId?: number;
  [key: string]: unknown;
}

/** `delete_row`, `delete_rows`: the trash entry's item (the row id, or the batch's TrashedRows id). */
export interface DeleteRowsParams {
  tableId: number;
  rowIds: number[];
  trashItemId: number;
  [key: string]: unknown;
}

/** `update_row`, `update_rows`: the written cells of each row before and after, as request values. */
export interface UpdateRowsParams {
  tableId: number;
  fieldIds: number[];
  before: Record<string, unknown>[];
  after: Record<string, unknown>[];
  [key: string]: unknown;
}

/** `move_row`: the row's order before and after (decimal text). */
export interface MoveRowParams {
  tableId: number;
  rowId: number;
  orderBefore: string;
  orderAfter: string;
  [key: string]: unknown;
}

/**
 * The written cells of rows as a request would write them again: a select's option ids, a
 * link's row ids, a file's names (the types' history values). Read-only cells are not written.
 */
export function writtenCells(context: TableContext, types: FieldTypeRegistry, rows: RowSnapshot[], fieldIds: number[]): Record<string, unknown>[] {
  const fields = fieldIds.map((id) => context.byId.get(id)).filter((field) => !!field && !types.of(field).readOnly);
  return rows.map((row) => {
    const cells: Record<string, unknown> = { id: row.id };
    for (const field of fields) {
      const type = types.of(field!);
      const key = fieldColumn(field!);
      cells[key] = type.historyValue ? type.historyValue(field!, row[key]) : (row[key] ?? null);
    }
    return cells;
  });
}
