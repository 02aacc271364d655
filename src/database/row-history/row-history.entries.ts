import type { RowSnapshot } from '../../core/events/domain-events';
import type { FieldEntity } from '../fields/field.entity';
import { fieldColumn, FieldTypeRegistry } from '../fields/field-type';
import type { TableContext } from '../table-context';

/** Baserow's action types that leave row history. */
export type RowHistoryActionType = 'create_row' | 'create_rows' | 'update_rows' | 'delete_row' | 'delete_rows' | 'restore_from_trash';

/**
 * A row change as a write knows it: the rows (keyed `field_<id>`, as the API answers them)
 * before and after. A move is no change here: Baserow records nothing for it.
 */
export type RowChange =
  | { action: 'create_row' | 'create_rows' | 'restore_from_trash'; rows: RowSnapshot[] }
  | { action: 'update_rows'; rowsBefore: RowSnapshot[]; rows: RowSnapshot[]; fieldIds: number[] }
  | { action: 'delete_row' | 'delete_rows'; rowsBefore: RowSnapshot[]; rows?: undefined };

type Cells = Record<string, unknown>;

/** One entry to store: the changed cells of one row (its own table's or a linked table's). */
export interface RowHistoryDraft {
  tableId: number;
  rowId: number;
  actionType: RowHistoryActionType;
  before: Cells;
  after: Cells;
  fieldsMetadata: Record<string, Cells>;
}

/** A linked row's link cell as the other side of a link change (`added`/`removed` source rows). */
interface RelatedCell {
  added: number[];
  removed: number[];
  metadata: Cells & { linked_rows: Record<string, { value: string }> };
}

/**
 * The one place a row change becomes history (Baserow's row history providers): one entry
 * per row with the changed cells only (a created row: its non-empty cells; an updated row:
 * the written cells whose value changed, none: no entry; a deleted or restored row: an
 * entry without cells), plus one `update_rows` entry per row on the other side of a link
 * whose links changed. Pure: everything comes from the rows the write already read.
 */
export function rowHistoryDrafts(change: RowChange, context: TableContext, types: FieldTypeRegistry): RowHistoryDraft[] {
  const tableId = context.table.id;
  const writable = context.fields.filter((f) => !types.of(f).readOnly);
  const primary = context.fields.find((f) => f.primary) ?? null;
  const primaryValue = (row: RowSnapshot): string =>
    primary ? (types.of(primary).toText(primary, row[fieldColumn(primary)]) ?? '') : `unnamed row ${row.id}`;
  const historyValue = (field: FieldEntity, apiValue: unknown): unknown => {
    const type = types.of(field);
    return type.historyValue ? type.historyValue(field, apiValue) : (apiValue ?? null);
  };
  const metadataOf = (field: FieldEntity, apiValues: unknown[], row: RowSnapshot): Cells => {
    const extra = types.of(field).historyMetadata?.(field, apiValues) ?? {};
    // A link cell names the row itself too: the other side's entry shows it by this value.
    if ('linked_field_id' in extra) extra.primary_value = primaryValue(row);
    return { id: field.id, type: field.type, ...extra };
  };

  const drafts: RowHistoryDraft[] = [];
  const related = new Map<string, { tableId: number; rowId: number; cells: Map<string, RelatedCell> }>();
  const relate = (field: FieldEntity, metadata: Cells, row: RowSnapshot, before: unknown, after: unknown): void => {
    const linkedTableId = metadata.linked_table_id as number | undefined;
    const linkedFieldId = metadata.linked_field_id as number | null | undefined;
    if (field.type !== 'link_row' || !linkedTableId || !linkedFieldId) return;
    const was = new Set((before as number[] | null) ?? []);
    const is = new Set((after as number[] | null) ?? []);
    const note = (linkedRowId: number, key: 'added' | 'removed'): void => {
      const id = `${linkedTableId}:${linkedRowId}`;
      const entry = related.get(id) ?? { tableId: linkedTableId, rowId: linkedRowId, cells: new Map() };
      related.set(id, entry);
      const column = `field_${linkedFieldId}`;
      const cell = entry.cells.get(column) ?? { added: [], removed: [], metadata: { id: linkedFieldId, type: 'link_row', linked_rows: {} } };
      entry.cells.set(column, cell);
      cell[key].push(row.id);
      cell.metadata.linked_rows[String(row.id)] = { value: primaryValue(row) };
    };
    for (const id of is) if (!was.has(id)) note(id, 'added');
    for (const id of was) if (!is.has(id)) note(id, 'removed');
  };

  if (change.action === 'update_rows') {
    const fields = change.fieldIds.map((id) => context.byId.get(id)).filter((f): f is FieldEntity => !!f && !types.of(f).readOnly);
    change.rows.forEach((row, i) => {
      const previous = change.rowsBefore[i];
      const entry: RowHistoryDraft = { tableId, rowId: row.id, actionType: 'update_rows', before: {}, after: {}, fieldsMetadata: {} };
      for (const field of fields) {
        const key = fieldColumn(field);
        const before = historyValue(field, previous[key]);
        const after = historyValue(field, row[key]);
        if (sameValue(before, after)) continue;
        const metadata = metadataOf(field, [previous[key], row[key]], row);
        entry.before[key] = before;
        entry.after[key] = after;
        entry.fieldsMetadata[key] = metadata;
        relate(field, metadata, row, before, after);
      }
      if (Object.keys(entry.after).length) drafts.push(entry);
    });
  } else if (change.rows) {
    for (const row of change.rows) {
      const entry: RowHistoryDraft = { tableId, rowId: row.id, actionType: change.action, before: {}, after: {}, fieldsMetadata: {} };
      for (const field of writable) {
        const key = fieldColumn(field);
        const value = historyValue(field, row[key]);
        // A new cell that is empty (in Python's sense, as Baserow compares) is no change.
        if (!isTruthy(value)) continue;
        const metadata = metadataOf(field, [row[key]], row);
        if (change.action !== 'restore_from_trash') {
          entry.before[key] = null;
          entry.after[key] = value;
          entry.fieldsMetadata[key] = metadata;
        }
        relate(field, metadata, row, null, value);
      }
      drafts.push(entry);
    }
  } else {
    for (const row of change.rowsBefore) {
      drafts.push({ tableId, rowId: row.id, actionType: change.action, before: {}, after: {}, fieldsMetadata: {} });
      for (const field of writable) {
        if (field.type !== 'link_row') continue;
        const key = fieldColumn(field);
        relate(field, metadataOf(field, [row[key]], row), row, historyValue(field, row[key]), null);
      }
    }
  }

  for (const { tableId: linkedTableId, rowId, cells } of related.values()) {
    const entry: RowHistoryDraft = { tableId: linkedTableId, rowId, actionType: 'update_rows', before: {}, after: {}, fieldsMetadata: {} };
    for (const [key, cell] of cells) {
      entry.before[key] = cell.removed;
      entry.after[key] = cell.added;
      entry.fieldsMetadata[key] = cell.metadata;
    }
    drafts.push(entry);
  }
  return drafts;
}

/** Python's truthiness: null, false, 0, '' and empty lists and objects are empty. */
function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Equal history values; lists of ids (links, multiple selects) are compared as sets, as Baserow does. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || ((a === null || a === undefined) && (b === null || b === undefined))) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) && Array.isArray(b) && [...a, ...b].every((v) => typeof v === 'number')) {
    const left = new Set(a as number[]);
    const right = new Set(b as number[]);
    return left.size === right.size && [...left].every((v) => right.has(v));
  }
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
