import { DATABASE_DOCUMENT_FORMAT, DATABASE_DOCUMENT_VERSION, DatabaseDocument, FieldDocument, RowDocument, TableDocument } from '../../database/serialization/database-document';
import { yieldTurn } from '../../core/lifecycle/yield-turn';
import { ArchiveRefused } from '../import-export.errors';
import { fromBaserowCell, pythonIsoformat, rowTimestamp, toBaserowCell, WorkspacePeople } from './baserow-cells';
import { BaserowField, fromBaserowFields, toBaserowField } from './baserow-fields';
import { BaserowView, fromBaserowView, toBaserowView } from './baserow-views';

/** Rows converted between two turns of the event loop (about 3 ms of work each). */
const ROW_SLICE = 1000;

/**
 * The one translation between Baserow's serialized database (what `DatabaseApplicationType
 * .export_serialized` writes: `{id, name, order, type, tables: [{id, name, order, fields, views,
 * rows, data_sync, field_rules}]}`) and Rowspace's DatabaseDocument. Fields, views and cells
 * each have their converter; ids stay the exported ones (an import maps them).
 */

export interface ExportContext {
  people: WorkspacePeople;
  /** Told every user file a file cell names (the zip carries it). */
  file(name: string): void;
  /** Whether a user file a cell names is stored (a missing one is left out of the cell). */
  hasFile(name: string): boolean;
  /** Numbers the ids of the view parts Rowspace does not export with ids. */
  nextId(): number;
}

/** A table of the document as Baserow's serialized table without its rows (they are written one by one after). */
export function toBaserowTableHead(table: TableDocument, ctx: ExportContext): Record<string, unknown> {
  return {
    id: table.id,
    name: table.name,
    order: table.order,
    fields: table.fields.map(toBaserowField),
    views: table.views.map((view) => toBaserowView(view, ctx.people, ctx.nextId)),
    rows: [],
    data_sync: null,
    field_rules: [],
  };
}

/** A row of the document as Baserow's serialized row: every field's cell under `field_<id>`. */
export function toBaserowRow(fields: FieldDocument[], row: RowDocument, ctx: ExportContext): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: row.id,
    order: row.order,
    created_on: pythonTimestamp(row.created_on),
    updated_on: pythonTimestamp(row.updated_on),
  };
  // Baserow's row keeps its creator and last editor by e-mail when it has them.
  const createdBy = typeof row.created_by_id === 'number' ? ctx.people.emailOf(row.created_by_id) : null;
  const modifiedBy = typeof row.last_modified_by_id === 'number' ? ctx.people.emailOf(row.last_modified_by_id) : null;
  if (createdBy) out.created_by = createdBy;
  if (modifiedBy) out.last_modified_by = modifiedBy;
  for (const field of fields) {
    const value = field.type === 'created_by' ? row.created_by_id : field.type === 'last_modified_by' ? row.last_modified_by_id : row[`field_${field.id}`];
    out[`field_${field.id}`] = toBaserowCell(field, value, ctx.people, ctx.file, ctx.hasFile);
  }
  return out;
}

/** A row timestamp as Python's `isoformat()` of an aware UTC datetime. */
function pythonTimestamp(value: unknown): string | null {
  const utc = rowTimestamp(value);
  return utc === null ? null : pythonIsoformat(utc);
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);
const positiveInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

/**
 * Baserow's serialized database as Rowspace's document. The shape is checked (a malformed
 * table, field or row refuses the archive, as does a field type Rowspace does not have);
 * views of types Rowspace does not have are left out. File cells keep the names of the zip's files.
 */
export async function fromBaserowDatabase(json: Record<string, unknown>, name: string, people: WorkspacePeople): Promise<DatabaseDocument> {
  const refuse = (what: string): never => {
    throw new ArchiveRefused('invalid', `The database ${JSON.stringify(name)} is malformed: ${what}.`);
  };
  if (!Array.isArray(json.tables)) refuse('no tables');
  const tables = (json.tables as unknown[]).map((table, index) => {
    if (!isObject(table) || !positiveInt(table.id) || typeof table.name !== 'string' || !Array.isArray(table.fields)) refuse(`table ${index}`);
    const t = table as Record<string, unknown>;
    for (const field of t.fields as unknown[]) {
      if (!isObject(field) || !positiveInt(field.id) || typeof field.type !== 'string' || typeof field.name !== 'string') refuse(`a field of table ${String(t.id)}`);
    }
    if (t.rows !== undefined && !Array.isArray(t.rows)) refuse(`the rows of table ${String(t.id)}`);
    if (t.views !== undefined && !Array.isArray(t.views)) refuse(`the views of table ${String(t.id)}`);
    return t as { id: number; name: string; order?: unknown; fields: BaserowField[]; views?: unknown[]; rows?: unknown[] };
  });
  const fields = fromBaserowFields(tables);
  addFormulaReads(fields);
  const docs: TableDocument[] = [];
  for (const table of tables) {
    const tableFields = fields.get(table.id)!;
    const rows: RowDocument[] = [];
    for (const row of table.rows ?? []) {
      // A large table's conversion in slices, the event loop free in between.
      if (rows.length % ROW_SLICE === ROW_SLICE - 1) await yieldTurn();
      if (!isObject(row) || !positiveInt(row.id)) refuse(`a row of table ${table.id}`);
      const r = row as Record<string, unknown>;
      const doc: RowDocument = {
        id: r.id as number,
        order: typeof r.order === 'string' && /^\d+(\.\d+)?$/.test(r.order) ? r.order : String(r.id),
        created_on: rowTimestamp(r.created_on),
        updated_on: rowTimestamp(r.updated_on),
        // Baserow's import: the members the e-mails name, nobody otherwise.
        created_by_id: typeof r.created_by === 'string' ? people.idOf(r.created_by) : null,
        last_modified_by_id: typeof r.last_modified_by === 'string' ? people.idOf(r.last_modified_by) : null,
      };
      for (const field of tableFields) {
        const value = fromBaserowCell(field, r[`field_${field.id}`], people);
        if (value !== undefined) doc[`field_${field.id}`] = value;
      }
      rows.push(doc);
    }
    const views = (table.views ?? [])
      .filter((view): view is BaserowView => isObject(view) && positiveInt(view.id) && typeof view.type === 'string')
      .map((view) => fromBaserowView(view, people))
      .filter((view) => view !== null);
    docs.push({ id: table.id, name: table.name, order: Number.isInteger(table.order) ? (table.order as number) : 0, fields: tableFields, views, rows });
  }
  return { format: DATABASE_DOCUMENT_FORMAT, version: DATABASE_DOCUMENT_VERSION, type: 'database', name, tables: docs };
}

const FIELD_REFERENCE = /\bfield\(\s*(['"])((?:\\.|(?!\1)[^\\])*)\1\s*\)/g;

/** Formulas read the fields they name (`field('Name')` in their table): the import creates them after those. */
function addFormulaReads(fields: Map<number, FieldDocument[]>): void {
  for (const tableFields of fields.values()) {
    const byName = new Map(tableFields.map((f) => [f.name, f.id]));
    for (const field of tableFields) {
      if (field.type !== 'formula' || typeof field.properties.formula !== 'string') continue;
      const reads = new Set<number>();
      for (const match of field.properties.formula.matchAll(FIELD_REFERENCE)) {
        const id = byName.get(match[2].replace(/\\(.)/g, '$1'));
        if (id !== undefined) reads.add(id);
      }
      field.reads = [...reads];
    }
  }
}
