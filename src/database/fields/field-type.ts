import { TypeRegistry } from '../../core/registry/type-registry';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ColumnDefinition, Dialect } from '../../core/database/dialect';
import { Sql } from '../../core/database/sql';
import type { FieldError } from '../../core/errors/api-error';
import type { FieldSpec } from '../../core/validation/field';
import type { TableEntity } from '../table.entity';
import type { FieldEntity, SelectOptionEntity } from './field.entity';
import type { FieldDocument, ImportIds } from '../serialization/database-document';

/** A row as read from `database_table_<id>`: system columns and `field_<id>` columns. */
export type RawRow = Record<string, unknown> & { id: number };

/** What field types may use while they work: the transaction, the dialect, the actor. */
export interface FieldContext {
  manager: EntityManager;
  dialect: Dialect;
  /** The user doing the write (null for system writes). */
  userId: number | null;
  /** The table being written or read (link types reach related tables through the manager). */
  table: TableEntity;
  /** Select options of the table's select fields, by field id. */
  selectOptions: Map<number, SelectOptionEntity[]>;
}

/**
 * A cell value that cannot be written. A list of `{error, code}` becomes that field's leaf
 * of the body validation tree; a string becomes the whole `detail`, as Baserow's
 * handler-level errors are (`"Field of type created_on is read only…"`).
 */
export class CellError extends Error {
  constructor(readonly detail: FieldError[] | string) {
    super(typeof detail === 'string' ? detail : detail.map((e) => e.error).join(' '));
  }
}

/** A prepared value meaning "leave the stored cell as it is" (a password cell sent as `true`). */
export const KEEP_CELL = Symbol('keep-cell');

export const cellError = (error: string, code = 'invalid'): CellError => new CellError([{ error, code }]);

/** The SQL pieces a field type gives the query builders, for a table aliased `alias`. */
export interface ColumnRef {
  alias: string;
  sql: Sql;
  /** Fields of the tables the query may reach through links, by table id (loaded before compiling). */
  tables?: LinkedTables;
}

/**
 * The fields of linked tables, by table id (what link cells are searched and filtered by), with
 * their select options when the caller has them (full-text search writes option values into its SQL).
 */
export type LinkedTables = ReadonlyMap<number, { fields: FieldEntity[]; selectOptions?: ReadonlyMap<number, readonly SelectOptionEntity[]> }>;

/**
 * A table whose writes change the full-text search text of a field's cells besides the row's
 * own table (see `searchSources`): its rows' `column` names the field's row (`via` absent) or,
 * for a link field, a row of the linked table, reached through the junction `via` (from its
 * column `from`, the linked row, to `to`, the field's row).
 */
export interface SearchSource {
  table: string;
  column: string;
  via?: { table: string; from: string; to: string };
}

/** The source of texts showing users' names: a renamed user makes such fields be recomputed. */
export const USERS_SEARCH_SOURCE: SearchSource = { table: 'user', column: 'id' };

/**
 * One field type (Baserow's field type registry): its properties, its storage, how cells
 * are written and read, searched and sorted, and how values convert from other types. One
 * implementation per file in `types/`; a module adds a type by registering it.
 */
export interface FieldType {
  readonly type: string;
  /** Cells are computed by the server; writing one is an error. */
  readonly readOnly: boolean;
  /** Cells are computed from other cells (formula types): a type change computes them instead of converting the old ones. */
  readonly computed?: boolean;
  /** Whether the field (with its properties) may be the table's primary field. */
  canBePrimary(field: FieldEntity): boolean;
  /** `db_index` can be set (an index on the column). */
  readonly canIndex: boolean;
  /** The `unique_with_empty` constraint applies. */
  readonly canBeUnique?: boolean;
  /** The type-specific properties with their validation and defaults (response keys too). */
  readonly properties: Readonly<Record<string, FieldSpec>>;
  /** Request-only properties (accepted on create/update, never answered), e.g. `has_related_field`. */
  readonly writeOnlyProperties?: Readonly<Record<string, FieldSpec>>;

  /**
   * Checks properties that depend on each other or on the database, and stores what the type
   * derives from them (e.g. the related link field). Runs inside the unit of work, after the
   * field row exists (`field.id` is set) and before its storage is created. Answers the
   * fields of other tables it created or changed (`related_fields`).
   */
  afterSave?(field: FieldEntity, input: Record<string, unknown>, ctx: FieldContext, previous: FieldEntity | null): Promise<FieldEntity[]>;
  /** Called before the field (and its storage) is deleted; answers the related fields deleted with it. */
  beforeDelete?(field: FieldEntity, ctx: FieldContext): Promise<FieldEntity[]>;
  /** Refuses to bring a trashed field back while something it needs is still trashed (throws the API error). */
  beforeRestore?(field: FieldEntity): Promise<void>;

  /** Whether a property change (same type, same column) still needs the cells converted. */
  needsConversion?(previous: FieldEntity, field: FieldEntity): boolean;
  /** The column holding the cells, or null when they live elsewhere (junction tables). */
  column(field: FieldEntity): ColumnDefinition | null;
  /** Creates the storage beyond the column (junction tables). */
  createStorage?(field: FieldEntity, ctx: FieldContext): Promise<void>;
  dropStorage?(field: FieldEntity, ctx: FieldContext): Promise<void>;

  /** The type's keys in the field JSON, beyond `properties` (e.g. `select_options`). */
  serializeExtra?(field: FieldEntity, ctx: FieldContext): Promise<Record<string, unknown>>;

  /** A request value to what is stored (column value, or what `writeRelations` stores). Throws CellError. */
  prepareValue(field: FieldEntity, value: unknown, ctx: FieldContext): Promise<unknown> | unknown;
  /**
   * prepareValue's promise is work off the event loop that queries nothing (a password hash on
   * libuv's pool): a batch starts the work of all its cells before awaiting any (`settleCells`),
   * where other types' promises are awaited one by one (they query the transaction's connection).
   */
  readonly preparesOffLoop?: boolean;
  /** The stored value of a new row that does not give the cell. */
  defaultValue(field: FieldEntity, ctx: FieldContext): unknown;
  /** Stores prepared values of types without a column, once the rows exist. */
  writeRelations?(field: FieldEntity, rows: { id: number; value: unknown }[], ctx: FieldContext): Promise<void>;
  /**
   * Fills the cells of rows just inserted with what the server generates (uuid, autonumber):
   * read-only types get no value from the request, so they write theirs once the rows exist.
   */
  fillNewRows?(field: FieldEntity, rowIds: number[], ctx: FieldContext): Promise<void>;
  /**
   * Import (duplication, templates): the create input of a serialized field beyond its stored
   * properties and select options, its references mapped through `ids` (e.g. which table a
   * link points at, whether it gets a related field); null when the field is not created on
   * its own (the related side of a link, created with its other side).
   */
  importInput?(doc: FieldDocument, ids: ImportIds, tableId: number): Record<string, unknown> | null;
  /**
   * Import, once the field and its select options exist: the properties naming things of the
   * document to change to the new ids (a select's default option), or null.
   */
  importedProperties?(doc: FieldDocument, ids: ImportIds): Record<string, unknown> | null;
  /**
   * Export: the ids of the fields the cells are computed from (computed types); an import
   * creates the field after them.
   */
  reads?(field: FieldEntity): Promise<number[]>;
  /**
   * Export: a cell as a serialized document keeps it, from its response value and the raw row
   * (absent: the response value). Selects keep option ids, links row ids.
   */
  exportCell?(field: FieldEntity, apiValue: unknown, raw: RawRow): unknown;
  /**
   * Import: a serialized cell to what is stored (absent: `prepareValue`), its option ids
   * mapped through `ids`. Read-only types store their kept value (uuid, autonumber).
   */
  importCell?(field: FieldEntity, value: unknown, ids: ImportIds, ctx: FieldContext): Promise<unknown> | unknown;
  /** Removes the relations of deleted rows (types without a column). */
  deleteRelations?(field: FieldEntity, rowIds: number[], ctx: FieldContext): Promise<void>;

  /**
   * The JSON schema of a cell in a row create/update body (Baserow's serializer field as
   * drf-spectacular renders it), for types that `cell-request-schema.ts` does not know.
   */
  requestSchema?(field: FieldEntity, options: readonly SelectOptionEntity[]): Record<string, unknown>;

  /** The response values of the cells of `rows`, aligned by index. */
  readValues(field: FieldEntity, rows: RawRow[], ctx: FieldContext): Promise<unknown[]> | unknown[];

  /**
   * Row history (Baserow's `prepare_value_for_row_history`): the cell as history keeps it, from
   * its response value. Absent: the response value itself. Selects keep option ids, links row ids.
   */
  historyValue?(field: FieldEntity, apiValue: unknown): unknown;
  /**
   * Row history's `fields_metadata` of a changed cell beyond `{id, type}`, from the response
   * values it had before and after (e.g. the options or linked rows those ids name).
   */
  historyMetadata?(field: FieldEntity, apiValues: unknown[]): Record<string, unknown>;

  /**
   * Export (Baserow's `get_export_value`): the cell as an exported file shows it, from its
   * response value. `rich` (JSON, XML) keeps lists and objects; otherwise (CSV, Excel) text.
   * Absent: the response value (rich) or its text, as `exportedValue` reads it.
   */
  exportValue?(field: FieldEntity, apiValue: unknown, rich: boolean): unknown;
  /** The cell as text, the way conversions to text and primary values (`names`, link values) read it. */
  toText(field: FieldEntity, apiValue: unknown): string | null;
  /**
   * A value of another type converted to this type's request value; undefined lets the
   * generic rule apply (the old cell's text through `prepareValue`, null when that fails).
   */
  convertFrom?(field: FieldEntity, apiValue: unknown, from: FieldEntity, fromType: FieldType): unknown;

  /**
   * The plain field a field's cells are filtered as (a number formula as a number field with
   * its decimal places, sharing its column), or null to be filtered as itself.
   */
  filterAs?(field: FieldEntity): { field: FieldEntity; type: FieldType } | null;

  /**
   * A computed field's result type as Baserow's `compatible_with_formula_types` names it
   * (`number`, `text`, `array(single_file)`, …): what registries listing compatible formula
   * types (view aggregations) compare. Absent for types whose cells are not computed.
   */
  formulaResultType?(field: FieldEntity): string;

  /** The SQL expression rows sort by (ascending), or null when the type cannot be sorted. */
  sortExpression(field: FieldEntity, ref: ColumnRef): string | null;
  /**
   * Sort types beyond `default` (Baserow's `_can_order_by_types`, e.g. a single select's `order`:
   * by its options' order) and the expression of each; absent: only the default sort.
   */
  sortTypeExpression?(field: FieldEntity, ref: ColumnRef, sortType: string): string | null;
  /** Whether views can group by the field, beyond being sortable and stored in one column or keyed (absent: they can). */
  groupable?(field: FieldEntity): boolean;
  /**
   * A list field's group-by key (Baserow's ManyToManyGroupByMixin): SQL of its items' ids in
   * the cell's order joined by commas (NULL when empty), and the same key of a cell as the API
   * answers it; absent for fields stored in one column, whose column is the key.
   */
  groupKey?: { expression(field: FieldEntity, ref: ColumnRef): string; ofValue(apiValue: unknown): string | null };
  /** The SQL condition matching cells that contain `term` (compat search), or null when not searchable. */
  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null;
  /**
   * Full-text search (`full-text-with-count`, Baserow's `get_search_expression`): the SQL text of
   * the cell whose words are indexed (numbers with their decimal places, dates in the field's
   * format, a select's option value, a link's linked primary values…), or null when the type is
   * not searched. Its values are bound through `ref.sql`; the SQL (with its values) also tells
   * the index when a field's entries must be recomputed, so everything the text depends on
   * besides the rows' cells (option values, formats) belongs in it.
   */
  searchText(field: FieldEntity, ref: ColumnRef): string | null;
  /**
   * Full-text search: the tables besides the row's own whose writes change `searchText` (a
   * junction; a linked table and what its primary value reads). Absent: the row's table only.
   */
  searchSources?(field: FieldEntity, ref: ColumnRef): SearchSource[];

  /**
   * Types whose cells live in a junction table (link_row, multiple_select,
   * multiple_collaborators) implement this so filters can reach them (`empty`,
   * `link_row_has`, `multiple_select_has`, `multiple_collaborators_has`, `contains`, …).
   * Filters only ever write `EXISTS (SELECT 1 FROM <from> "j" WHERE "j".<rowColumn> =
   * <alias>."id" AND "j".<targetColumn> IN (…))`.
   */
  relationSource?(field: FieldEntity, ref: ColumnRef): RelationSource;
}

@Injectable()
export class FieldTypeRegistry extends TypeRegistry<FieldType> {
  protected readonly kind = 'Field type';

  /** The type of a stored field; a field whose type is not registered is a programming error. */
  of(field: FieldEntity): FieldType {
    return this.require(field.type);
  }
}

/**
 * The pairs (row of this table, target) of a relation type, for filters. `from` is a quoted
 * table name or a parenthesized subquery (values bound through the `ColumnRef`'s `sql`);
 * the columns are quoted identifiers of it. The target is the related row id (link_row),
 * the select option id (multiple_select) or the user id (multiple_collaborators).
 */
export interface RelationSource {
  from: string;
  rowColumn: string;
  targetColumn: string;
  /**
   * link_row only (`link_row_contains`): the condition that the related row whose id is the
   * SQL expression `targetId` has a primary value containing `term` (case-insensitive, as the
   * primary field's contains filter), or null when the related table has no usable primary
   * field (the filter then matches every row, as Baserow).
   */
  targetContains?(targetId: string, term: string): string | null;
}

/** `field_<id>`: the column (and API key) of a field. */
export const fieldColumn = (field: { id: number }): string => `field_${field.id}`;
/** `database_table_<id>`: the SQL table of a user table. */
export const rowsTable = (tableId: number): string => `database_table_${tableId}`;

/**
 * A cell as an export writes it (Baserow's `get_export_value`): the type's export value, else
 * the response value (rich) or its text. An empty cell is `""` in every format, as Baserow's
 * file writer writes a None.
 */
export function exportedValue(type: FieldType, field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
  if (apiValue === null || apiValue === undefined) return '';
  const value = type.exportValue ? type.exportValue(field, apiValue, rich) : rich ? apiValue : type.toText(field, apiValue);
  return value === null || value === undefined ? '' : value;
}

/** The SQL expression rows sort by for a sort type (`default` or a type's own), or null when the field cannot be sorted that way. */
export function sortExpressionOf(type: FieldType, field: FieldEntity, ref: ColumnRef, sortType = 'default'): string | null {
  if (sortType === 'default') return type.sortExpression(field, ref);
  return type.sortTypeExpression?.(field, ref, sortType) ?? null;
}
