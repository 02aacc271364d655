/**
 * Rowspace's public API for extension modules (EXTRA_MODULES). Extensions import it as
 * `rowspace/extension`, which resolves to this file of the running app, so what they
 * register lands in the app's own registries. Anything not exported here is internal.
 */

// Modules an extension imports to inject their providers (registries, services).
export { DatabaseModule } from './database/database.module';
// What a module keeps in the metadata database: `imports: [OwnedSchemaModule.forFeature({ entities, migrations })]`.
export { OwnedSchemaModule } from './core/database/owned-schema';
export type { OwnedSchema } from './core/database/owned-schema';
export { APP_CONFIG, ConfigError } from './core/config/config';
export type { AppConfig } from './core/config/config';

// Field types: the interface, the registry, the column-backed base classes.
export { FieldTypeRegistry, CellError, cellError, KEEP_CELL, fieldColumn, rowsTable } from './database/fields/field-type';
export type { FieldType, FieldContext, ColumnRef, RawRow, LinkedTables, RelationSource } from './database/fields/field-type';
export type { FieldEntity, SelectOptionEntity } from './database/fields/field.entity';
export { ColumnFieldType, CheckedTextFieldType, columnOf, requireString, canContain } from './database/fields/types/base';
export type { FieldSpec } from './core/validation/field';

// Cell value parsing as DRF's CharField does it, and the parse result shape.
export { parseCharField } from './database/fields/values/text';
export type { CharFieldOptions } from './database/fields/values/text';
export { parsed, failed } from './database/fields/values/common';
export type { ParseResult } from './database/fields/values/common';

// Filter types: the interface, the registry, helpers for SQL conditions on a field's cells.
export { FilterTypeRegistry } from './database/filters/filter-type';
export type { FilterType, FilterContext } from './database/filters/filter-type';
export { FieldListFilter, cellColumn, negate, ilikeContains, NOTHING } from './database/filters/types/support';

// Row metadata: per-row values under `metadata` / `row_metadata` (e.g. row_comment_count).
export { RowMetadataRegistry } from './database/rows/row-metadata';
export type { RowMetadataType } from './database/rows/row-metadata';

// Trash: a module that trashes its own items records entries and registers a type per item kind.
export { TrashService } from './trash/trash.service';
export type { NewTrashEntry } from './trash/trash.service';
export { TrashTypeRegistry } from './trash/trash-type';
export type { TrashType } from './trash/trash-type';
export type { TrashEntryEntity } from './trash/trash-entry.entity';
export { liveRow } from './database/rows/table-schema.repository';

// SQL: bound values and identifiers, the dialect seam (SQLite and PostgreSQL).
export { Sql, quote } from './core/database/sql';
export { escapeLike } from './core/database/dialect';
export type { Dialect, ColumnDefinition, ColumnKind } from './core/database/dialect';

// Errors: the envelope `{"error", "detail"}` and its validation shape.
export { ApiError, validationError, queryValidationError } from './core/errors/api-error';
export type { FieldError, ErrorTree } from './core/errors/api-error';
