import type { RowBatches } from '../../applications/application-type';

/**
 * Rowspace's serialized database application: what application duplication, template
 * installation (templates ship as such documents) and a future workspace export write and
 * read. Modelled on Baserow's `export_serialized` of the application, table, field and view
 * types, in Rowspace's own, versioned shape. Ids in a document are the exported objects' ids;
 * an import creates new ones and maps every reference (tables, fields, select options);
 * rows keep their ids within their new table.
 */
export const DATABASE_DOCUMENT_FORMAT = 'rowspace.database';
export const DATABASE_DOCUMENT_VERSION = 1;

export interface DatabaseDocument {
  format: typeof DATABASE_DOCUMENT_FORMAT;
  version: number;
  type: 'database';
  name: string;
  tables: TableDocument[];
}

export interface TableDocument {
  id: number;
  name: string;
  order: number;
  fields: FieldDocument[];
  views: ViewDocument[];
  /** Live rows by id; cells under `field_<document field id>` (computed fields have none). */
  rows: RowDocument[];
}

/**
 * Rows of a document table kept outside the document (its `rows` empty), read in batches as
 * often as an import needs them: a snapshot's rows, read from its file, never all in memory.
 */
export type RowSource = RowBatches<RowDocument>;

/** Rows held in memory as a source. */
export function rowsInMemory(rows: RowDocument[]): RowSource {
  return {
    count: rows.length,
    async *batches(size: number) {
      for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
    },
  };
}

export interface SelectOptionDocument {
  id: number;
  value: string;
  color: string;
}

export interface FieldDocument {
  id: number;
  name: string;
  type: string;
  primary: boolean;
  order: number;
  description?: string | null;
  db_index?: boolean;
  field_constraints?: { type_name: string }[];
  /** The type's stored properties (a link's `link_row_table_id`, `side`, `related_field_id`…). */
  properties: Record<string, unknown>;
  select_options?: SelectOptionDocument[];
  /** Computed fields: the document ids of the fields their cells read (created after them). */
  reads?: number[];
}

export interface RowDocument {
  id: number;
  /** The API's decimal order (`"1.00000000000000000000"`). */
  order: string;
  created_on?: string | null;
  updated_on?: string | null;
  /** The users who created and last changed the row, kept by an import (absent: the importing user; null: nobody). */
  created_by_id?: number | null;
  last_modified_by_id?: number | null;
  [cell: string]: unknown;
}

export interface ViewDocument {
  id: number;
  name: string;
  type: string;
  order: number;
  filter_type?: string;
  filters_disabled?: boolean;
  show_logo?: boolean;
  allow_public_export?: boolean;
  ownership_type?: string;
  /** The view type's own settings (field ids among them are document ids). */
  properties?: Record<string, unknown>;
  field_options?: ({ field_id: number } & Record<string, unknown>)[];
  filter_groups?: { id: number; filter_type: string; parent_group_id: number | null }[];
  filters?: { field_id: number; type: string; value: string; group_id?: number | null }[];
  sorts?: { field_id: number; order: string; type?: string }[];
  group_bys?: { field_id: number; order: string; type?: string; width?: number }[];
  decorations?: { type: string; value_provider_type: string; value_provider_conf: Record<string, unknown>; order: number }[];
}

/**
 * The ids an import has created so far, document id → new id. `keepForeign`: references to
 * tables outside the document stay as they are (a table copied within its own database links
 * the same other tables); otherwise fields that need them are left out.
 */
export class ImportIds {
  readonly tables = new Map<number, number>();
  readonly fields = new Map<number, number>();
  readonly selectOptions = new Map<number, number>();
  /** Document fields created by another one's creation (the related side of a link). */
  readonly createdWith = new Set<number>();

  constructor(readonly keepForeign: boolean) {}

  /** The new id of a document table, the same id for a foreign table when kept, else undefined. */
  table(id: number): number | undefined {
    return this.tables.get(id) ?? (this.keepForeign ? id : undefined);
  }
}
