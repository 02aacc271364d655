import { Field, FieldSpec } from '../../core/validation/field';

/** The initial rows of a new table (both the sync and the job variant). */
const TABLE_DATA: FieldSpec = {
  kind: 'list',
  of: { kind: 'list', of: { kind: 'any' } },
  minItems: 1,
  required: false,
  description: 'Rows of cells; every column becomes a text field. Without it the table gets the example fields and two empty rows.',
};

export class CreateTableDto {
  @Field({ kind: 'string', max: 255, example: 'Customers' })
  name: string;

  @Field(TABLE_DATA)
  data?: unknown[][];

  @Field({ kind: 'bool', required: false, default: false, description: 'The first row of `data` holds the field names.' })
  first_row_header: boolean;
}

/** The job variant of table creation: `data` may hold as many rows as an import (the file's rows). */
export class CreateTableAsyncDto {
  @Field({ kind: 'string', max: 255, example: 'Customers' })
  name: string;

  @Field({ ...TABLE_DATA, maxItems: 1_000_000 })
  data?: unknown[][];

  @Field({ kind: 'bool', required: false, default: false, description: 'The first row of `data` holds the field names.' })
  first_row_header: boolean;
}

export class RenameTableDto {
  @Field({ kind: 'string', max: 255, required: false })
  name?: string;
}

export class OrderTablesDto {
  @Field({ kind: 'list', of: { kind: 'int' } })
  table_ids: number[];
}

/** Baserow's limit of rows one import takes (the web client's, checked by the server here). */
export const IMPORT_MAX_ROWS = 1_000_000;


export class ImportRowsDto {
  @Field({
    kind: 'list',
    of: { kind: 'list', of: { kind: 'any', nullable: true } },
    minItems: 1,
    maxItems: IMPORT_MAX_ROWS,
    description: "Rows of cells; the columns fill the table's writable fields in their order (primary first).",
  })
  data: unknown[][];

  @Field({
    kind: 'object',
    required: false,
    nullable: true,
    description: '`upsert_fields` (field ids) with `upsert_values` (one list per row) update the rows they match; `skipped_fields` are left to their defaults.',
  })
  configuration?: { upsert_fields?: number[] | null; upsert_values?: unknown[][] | null; skipped_fields?: number[] | null } | null;
}
