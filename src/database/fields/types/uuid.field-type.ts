import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ColumnDefinition } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import { RowRepository } from '../../rows/row.repository';
import type { FieldEntity } from '../field.entity';
import { FieldContext, fieldColumn, rowsTable } from '../field-type';
import { ColumnFieldType } from './base';

/** `uuid`: a random UUID per row, made by the server for existing and new rows; read-only. */
@Injectable()
export class UuidFieldType extends ColumnFieldType {
  readonly type = 'uuid';
  readonly readOnly = true;

  constructor(private readonly rows: RowRepository) {
    super();
  }

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'text' };
  }

  /** Only conversions write cells (each gets a fresh UUID, see convertFrom). */
  prepareValue(_field: FieldEntity, value: unknown): string | null {
    return typeof value === 'string' ? value : null;
  }

  /** Every row without a value (all of them, for a new field) gets its own UUID. */
  async createStorage(field: FieldEntity, _ctx: FieldContext): Promise<void> {
    const empty = await this.rows.query<{ id: unknown }>(`SELECT "id" FROM ${quote(rowsTable(field.tableId))} WHERE ${quote(fieldColumn(field))} IS NULL`);
    await this.fill(field, empty.map((row) => Number(row.id)));
  }

  async fillNewRows(field: FieldEntity, rowIds: number[]): Promise<void> {
    await this.fill(field, rowIds);
  }

  private async fill(field: FieldEntity, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.rows.setColumn(field.tableId, this.column(field), ids.map((id) => ({ id, value: randomUUID() })));
  }

  /** Converting to uuid keeps nothing: every row gets a new UUID. */
  convertFrom(): unknown {
    return randomUUID();
  }
}
