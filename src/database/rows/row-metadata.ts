import { TypeRegistry } from '../../core/registry/type-registry';
import { Injectable } from '@nestjs/common';

/**
 * A kind of per-row metadata (Baserow's RowMetadataType), e.g. how many comments a row has.
 * Its values appear under the type's name in `metadata` of a row, `row_metadata` of the grid
 * view and `metadata` of `rows_created` / `rows_updated`. A module adds one by registering it.
 */
export interface RowMetadataType {
  readonly type: string;
  /** The value of each row that has one (rows left out have nothing to report), for `userId` (null: nobody). */
  forRows(tableId: number, rowIds: number[], userId: number | null): Promise<Map<number, unknown>>;
}

/** Row id → metadata type → value; rows without any metadata are left out. */
export type RowsMetadata = Record<string, Record<string, unknown>>;

@Injectable()
export class RowMetadataRegistry extends TypeRegistry<RowMetadataType> {
  /** Every registered type's values merged per row, as Baserow's `generate_and_merge_metadata_for_rows`. */
  async forRows(tableId: number, rowIds: number[], userId: number | null): Promise<RowsMetadata> {
    const merged: RowsMetadata = {};
    if (!rowIds.length) return merged;
    for (const type of this.types.values()) {
      for (const [rowId, value] of await type.forRows(tableId, rowIds, userId)) (merged[String(rowId)] ??= {})[type.type] = value;
    }
    return merged;
  }
}
